import type { Permission } from '@sceau/contracts';
import { holds, holdsAny, isRoot, type Actor } from './actor.ts';
import { firstDenial, type Decision } from './policy.ts';
import { isNational, isWithin, type Scope } from './scope.ts';

const needs = (actor: Actor, permission: Permission) => (): Decision => (holds(actor, permission) ? true : 'forbidden');
/** Schools and centres are the country's: only a national account (or root) changes them. */
const national = (actor: Actor) => (): Decision => (isRoot(actor) || isNational(actor.scope) ? true : 'forbidden');

/**
 * Reference data (ADR 0139): the schools and centres lists name, and what staff may do with them.
 * - `browsePlace`: a school or centre is offered to whoever may check a list (generation.create)
 *   or keeps the lists (reference.manage), only within their scope: a school-bound account sees its
 *   own school, its centre and the province's options; a province's account that province.
 * - `manage`: adding, renaming and importing schools and centres needs `reference.manage` and a
 *   national account, since every list of the country is checked against them.
 */
export const referenceDataPolicy = {
  browse: (actor: Actor): Decision => (holdsAny(actor, ['generation.create', 'reference.manage']) ? true : 'forbidden'),
  /** A place (a school's, or a centre's with no school) as the caller may see it in the lists offered. */
  browsePlace: (actor: Actor, place: Scope): Decision =>
    firstDenial(
      () => (isWithin(actor.scope, place) ? true : 'hidden'),
      () => referenceDataPolicy.browse(actor),
    ),
  manage: (actor: Actor): Decision => firstDenial(needs(actor, 'reference.manage'), national(actor)),
};
