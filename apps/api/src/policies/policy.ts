import type { ErrorCode } from '@sceau/contracts';
import { AppError, fieldError, type FieldMessage } from '../lib/errors.ts';

/**
 * A policy's answer about one object: allowed, or why not. Denials map to what the caller sees:
 * - 'hidden': the object lies outside the actor's scope, answered as if it did not exist (404);
 * - 'forbidden': in scope, but the actor lacks the permission (403);
 * - 'role': in scope, but the object needs a higher role (403 'Rôle insuffisant', e.g. a root account);
 * - 'state': the object's state does not allow it now (409);
 * - a field message: the request asks for something the actor may not grant (422 on that field);
 * - a field message with `conflict`: the object's state does not allow it, and the message says why
 *   and what to do (409 with that message on the field).
 */
export type Decision = true | 'hidden' | 'forbidden' | 'role' | 'state' | { field: string; message: FieldMessage; conflict?: true };

const CODE: Record<'hidden' | 'forbidden' | 'role' | 'state', ErrorCode> = { hidden: 'not_found', forbidden: 'forbidden_permission', role: 'forbidden_role', state: 'conflict' };

/** Throws the denial as the API answers it; returns nothing when allowed. */
export function authorize(decision: Decision): void {
  if (decision === true) return;
  if (typeof decision === 'object') {
    throw decision.conflict ? new AppError('conflict', { fields: { [decision.field]: [decision.message] } }) : fieldError(decision.field, decision.message);
  }
  throw new AppError(CODE[decision]);
}

export function allowed(decision: Decision): boolean {
  return decision === true;
}

/** The first denial of a list of checks, in order (scope, then permission, then state). */
export function firstDenial(...checks: (() => Decision)[]): Decision {
  for (const check of checks) {
    const decision = check();
    if (decision !== true) return decision;
  }
  return true;
}

/** What an actor may do on an object, sent with it so that the web never re-derives a rule. */
export function abilitiesOf<A extends string>(rules: Record<A, () => Decision>): Record<A, boolean> {
  return Object.fromEntries(Object.entries<() => Decision>(rules).map(([name, rule]) => [name, rule() === true])) as Record<A, boolean>;
}
