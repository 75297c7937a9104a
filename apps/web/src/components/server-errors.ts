import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { SERVER_ERROR_TYPE } from '@/components/form-field';
import { isApiError } from '@/lib/http';

/**
 * Puts a failed call's field errors next to their fields (`from` server field → `to` form field)
 * and returns the message for the top of the form.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: Partial<Record<string, Path<T>>>,
  fallback: string,
): { message: string; unplaced: string[] } {
  if (!isApiError(error)) return { message: fallback, unplaced: [] };
  const unplaced: string[] = [];
  let first = true;
  for (const [serverField, messages] of Object.entries(error.fieldErrors)) {
    const message = messages[0];
    if (!message) continue;
    const target = fields[serverField];
    if (!target) {
      unplaced.push(message);
      continue;
    }
    setError(target, { type: SERVER_ERROR_TYPE, message }, { shouldFocus: first });
    first = false;
  }
  return { message: error.message, unplaced };
}
