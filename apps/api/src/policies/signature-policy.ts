import type { Permission } from '@sceau/contracts';
import { holds, isRoot, type Actor } from './actor.ts';
import { firstDenial, type Decision } from './policy.ts';
import { isNational } from './scope.ts';

const needs = (actor: Actor, permission: Permission) => (): Decision => (holds(actor, permission) ? true : 'forbidden');
/** The official signatures print on every diploma of the country: only a national account changes them. */
const national = (actor: Actor) => (): Decision => (isRoot(actor) || isNational(actor.scope) ? true : 'forbidden');

/**
 * Official signatures (ministry, inspector general, jury). They are national: reading them needs
 * signatures.list; adding, replacing or removing one needs the permission and an account with no
 * scope (or root), since whatever is saved is printed on the next batch launched anywhere.
 */
export const signaturePolicy = {
  view: (actor: Actor) => needs(actor, 'signatures.list')(),
  add: (actor: Actor) => firstDenial(needs(actor, 'signatures.create'), national(actor)),
  replace: (actor: Actor) => firstDenial(needs(actor, 'signatures.edit'), national(actor)),
  remove: (actor: Actor) => firstDenial(needs(actor, 'signatures.delete'), national(actor)),
};
