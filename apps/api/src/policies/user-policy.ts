import type { Permission, UserAbilities } from '@sceau/contracts';
import type { SQL } from 'drizzle-orm';
import { users } from '../db/schema.ts';
import { holds, isRoot, type Actor } from './actor.ts';
import { abilitiesOf, firstDenial, type Decision } from './policy.ts';
import { isWithin, withinCondition, type Scope } from './scope.ts';

/** What the account rules read of another account. */
export interface AccountFacts {
  id: number;
  scope: Scope;
  roles: readonly string[];
  archived: boolean;
}

/** A role as the grant rule reads it: its name and every permission it carries. */
export interface RoleFacts {
  name: string;
  permissions: readonly string[];
}

const inScope = (actor: Actor, target: AccountFacts) => (): Decision => (isWithin(actor.scope, target.scope) ? true : 'hidden');
const needs = (actor: Actor, permission: Permission) => (): Decision => (holds(actor, permission) ? true : 'forbidden');
/** A root account is changed by root only. */
const rootByRoot = (actor: Actor, target: AccountFacts) => (): Decision => (target.roles.includes('root') && !isRoot(actor) ? 'role' : true);
/** Managing an account is done to others: one's own account changes through /me and /reset-password. */
const notSelf = (actor: Actor, target: AccountFacts) => (): Decision => (target.id === actor.id ? 'forbidden' : true);
const active = (target: AccountFacts) => (): Decision => (target.archived ? 'state' : true);

/**
 * Staff accounts. An administrator works inside its own scope: it sees and manages the accounts
 * whose scope lies within its own (a school admin: its school's staff; a national admin: everyone),
 * places new or edited accounts only there, grants only roles whose every permission it holds
 * itself, and never changes its own roles or scope.
 */
export const userPolicy = {
  /** The accounts an actor may see, as a SQL condition on their stored (resolved) scope. */
  visibleCondition(actor: Actor): SQL | undefined {
    return withinCondition(actor.scope, users);
  },

  view: (actor: Actor, target: AccountFacts) => firstDenial(inScope(actor, target), needs(actor, 'users.list')),

  edit: (actor: Actor, target: AccountFacts) => firstDenial(inScope(actor, target), needs(actor, 'users.edit'), rootByRoot(actor, target), active(target)),

  /** Roles and scope are changed by someone else, never by their holder. */
  changeAccess: (actor: Actor, target: AccountFacts) =>
    firstDenial(
      () => userPolicy.edit(actor, target),
      () => (target.id === actor.id ? { field: 'roles', message: 'field.cannot_change_own_access' } : true),
    ),

  resetPassword: (actor: Actor, target: AccountFacts) =>
    firstDenial(inScope(actor, target), needs(actor, 'users.edit'), rootByRoot(actor, target), notSelf(actor, target), active(target)),

  sendSignInLink: (actor: Actor, target: AccountFacts) =>
    firstDenial(inScope(actor, target), needs(actor, 'users.edit'), rootByRoot(actor, target), notSelf(actor, target), active(target)),

  archive: (actor: Actor, target: AccountFacts) =>
    firstDenial(
      inScope(actor, target),
      needs(actor, 'users.delete'),
      rootByRoot(actor, target),
      () => (target.id === actor.id ? { field: 'users', message: 'field.cannot_archive_self' } : true),
      active(target),
    ),

  create: (actor: Actor) => needs(actor, 'users.create')(),

  /** Where an account may be placed: inside the actor's own scope. */
  place: (actor: Actor, scope: Scope) => (isWithin(actor.scope, scope) ? true : ({ field: 'scope', message: 'field.scope_outside_yours' } as const)),

  /**
   * Which roles may be given: root only by root; any other only if the actor holds every one of
   * its permissions (so no one hands out more than they have, e.g. an admin cannot make a
   * backoffice_manager who downloads and shares, which admin may not).
   */
  grant(actor: Actor, role: RoleFacts): Decision {
    if (role.name === 'root' && !isRoot(actor)) return { field: 'roles', message: 'field.role_not_grantable' };
    if (!role.permissions.every((p) => actor.permissions.includes(p))) return { field: 'roles', message: 'field.role_not_grantable' };
    return true;
  },

  abilities(actor: Actor, target: AccountFacts): UserAbilities {
    return abilitiesOf({
      edit: () => userPolicy.edit(actor, target),
      change_access: () => userPolicy.changeAccess(actor, target),
      reset_password: () => userPolicy.resetPassword(actor, target),
      send_sign_in_link: () => userPolicy.sendSignInLink(actor, target),
      archive: () => userPolicy.archive(actor, target),
    });
  },
};
