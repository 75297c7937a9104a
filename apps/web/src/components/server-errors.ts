import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { SERVER_ERROR_TYPE } from '@/components/form-field';
import { isApiError } from '@/lib/http';
import { failureMessage, keyMessage, textMessage, type Message } from '@/lib/message';

/**
 * Puts a failed call's field errors next to their fields (`from` server field → `to` form field)
 * and returns the message for the top of the form (the generic one when the call did not fail
 * with the server's answer) and the server's messages no field took, for the page to keep in its
 * state (lib/message.ts).
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: Partial<Record<string, Path<T>>>,
): { message: Message; unplaced: Message[] } {
  if (!isApiError(error)) return { message: keyMessage('errors.generic'), unplaced: [] };
  const unplaced: Message[] = [];
  let first = true;
  for (const [serverField, messages] of Object.entries(error.fieldErrors)) {
    const message = messages[0];
    if (!message) continue;
    const target = fields[serverField];
    if (!target) {
      unplaced.push(textMessage(message));
      continue;
    }
    setError(target, { type: SERVER_ERROR_TYPE, message }, { shouldFocus: first });
    first = false;
  }
  return { message: failureMessage(error), unplaced };
}
