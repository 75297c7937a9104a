import { z } from 'zod';

/**
 * Zod issues carry translation keys (of the `errors` namespace, under `field.`) instead of English
 * sentences, so the API and the web app translate the same validation failure the same way.
 * A schema may name its own key: `z.string().refine(ok, { error: 'field.password_mismatch' })`.
 */
export const FIELD_KEY = /^field\.[a-z0-9_]+$/;

type RawIssue = {
  code?: string;
  input?: unknown;
  origin?: string;
  format?: string;
  message?: string;
};

export function messageKeyForIssue(issue: RawIssue): string {
  if (issue.message && FIELD_KEY.test(issue.message)) return issue.message;
  const isText = issue.origin === 'string';
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null ? 'field.required' : 'field.invalid_type';
    case 'too_small':
      if (isText && issue.input === '') return 'field.required';
      return isText ? 'field.too_small_string' : 'field.too_small_number';
    case 'too_big':
      return isText ? 'field.too_big_string' : 'field.too_big_number';
    case 'invalid_format':
      if (issue.format === 'email') return 'field.invalid_email';
      if (issue.format === 'url') return 'field.invalid_url';
      return 'field.invalid';
    case 'invalid_value':
      return 'field.invalid_option';
    case 'unrecognized_keys':
      return 'field.unrecognized_keys';
    default:
      return 'field.invalid';
  }
}

let installed = false;
/** Makes every Zod issue's message a translation key. Idempotent. */
export function installValidationMessages(): void {
  if (installed) return;
  installed = true;
  z.config({ customError: (issue) => messageKeyForIssue(issue as RawIssue) });
}
