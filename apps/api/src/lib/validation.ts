import type { z } from 'zod';
import { AppError, type FieldMessage } from './errors.ts';
import { unstorableTextFields } from './text-safety.ts';

/** Validates what no route schema could (e.g. the fields of a multipart form); failures become a 422. */
export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  // Multipart fields skip the JSON hook of plugins/text-safety.ts: the same check here.
  const unstorable = unstorableTextFields(value);
  if (unstorable.length) throw new AppError('validation_failed', { fields: Object.fromEntries(unstorable.map((f) => [f, ['field.unstorable_text']])) });
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields: Record<string, FieldMessage[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.') || '_';
    const { code: _code, path: _path, message, params: nested, ...params } = issue as unknown as Record<string, unknown> & { message: string };
    (fields[field] ??= []).push({ key: message, params: { ...params, ...(nested as Record<string, unknown> | undefined) } });
  }
  throw new AppError('validation_failed', { fields });
}
