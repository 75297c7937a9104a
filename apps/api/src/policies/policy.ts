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
  return judge(rules).abilities;
}

/** A refusal the web shows in place of an action: a translation key of the `errors` namespace and its values. */
export interface Refusal {
  key: string;
  params: Record<string, unknown>;
}

/**
 * Each rule decided once: what the actor may do, and why an action is refused when the rule says
 * why (a conflict with its message: the object's state, explained), for the web to show in its place.
 */
export function judge<A extends string>(rules: Record<A, () => Decision>): { abilities: Record<A, boolean>; refusals: Partial<Record<A, Refusal>> } {
  const abilities = {} as Record<A, boolean>;
  const refusals: Partial<Record<A, Refusal>> = {};
  for (const [name, rule] of Object.entries<() => Decision>(rules) as [A, () => Decision][]) {
    const decision = rule();
    abilities[name] = decision === true;
    if (typeof decision === 'object' && decision.conflict)
      refusals[name] = typeof decision.message === 'string' ? { key: decision.message, params: {} } : { key: decision.message.key, params: decision.message.params };
  }
  return { abilities, refusals };
}
