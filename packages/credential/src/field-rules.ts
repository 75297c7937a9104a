/**
 * Field rules without zod, for code that must stay small in a browser (the QR reader, ADR 0096);
 * record.ts builds its zod schema on the same rules.
 */
import { fromBase64url } from './bytes.ts';

/** Codes are short identifiers (school, centre, option, province); they appear in the QR. */
export const CODE_PATTERN = /^[A-Za-z0-9._-]{1,24}$/;

export function isCode(value: unknown): value is string {
  return typeof value === 'string' && CODE_PATTERN.test(value);
}

export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** A diploma id as written: its 16 random bytes in base64url, 22 characters (isDiplomaId also decodes them). */
export const DIPLOMA_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export function isDiplomaId(value: unknown): value is string {
  if (typeof value !== 'string' || !DIPLOMA_ID_PATTERN.test(value)) return false;
  try {
    return fromBase64url(value).length === 16;
  } catch {
    return false;
  }
}

/** At most one decimal: 67.5 is fine, 67.55 is not. */
export function isPercentage(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100 && Math.round(value * 10) / 10 === value;
}
