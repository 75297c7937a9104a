import type { Grants, Locale, Permission, RoleName } from '@sceau/contracts';
import type { FastifyRequest } from 'fastify';
import type { Scope } from './scope.ts';

/**
 * Who does something: the account, what it holds, where it works, and where the call came from.
 * Services and policies take an Actor, never the HTTP request, so a job or a command line can act
 * as someone too.
 */
export interface Actor extends Grants {
  id: number;
  scope: Scope;
  ip: string | null;
  userAgent: string | null;
  locale: Locale;
}

export function holds(actor: Grants, permission: Permission): boolean {
  return actor.permissions.includes(permission);
}

export function holdsAny(actor: Grants, permissions: readonly Permission[]): boolean {
  return permissions.some((p) => actor.permissions.includes(p));
}

export function isRoot(actor: Grants): boolean {
  return actor.roles.includes('root' satisfies RoleName);
}

/** The signed-in actor of a request whose route requires an account (the access plugin set it). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.user) throw new Error(`${request.method} ${request.url}: no signed-in actor (is the route public?)`);
  return request.user;
}
