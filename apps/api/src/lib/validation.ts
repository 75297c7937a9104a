import type { z } from 'zod';
import { AppError, type FieldMessage } from './errors.ts';

/** Validates what no route schema could (e.g. the fields of a multipart form); failures become a 422. */
export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
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
