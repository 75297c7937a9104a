import { type Access, checkRequirement, type EndpointShape, flattenGrants } from '@sceau/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';
import { findTokenOwner } from '../lib/access-tokens.ts';
import { AppError } from '../lib/errors.ts';
import type { Actor } from '../policies/actor.ts';
import { loadRolesOf } from '../policies/grants.ts';
import { loadScopes, NATIONAL } from '../policies/scope.ts';

/**
 * Who may call a route is declared with the route's definition (`@sceau/contracts` endpoints, ADR
 * 0125) and reaches the route as `config.access`. A route under /api that declares nothing fails
 * the start, so no route is open by omission.
 */
export type { Access };

/** One API route and who may call it, as declared (the route table the access matrix test walks). */
export interface DeclaredRoute {
  method: string;
  url: string;
  access: Access;
  /** The definition it was registered from (`serve`); none for a route registered by hand. */
  endpoint: EndpointShape | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** The definition the route was registered from (`serve`, lib/endpoints.ts). */
    endpoint?: EndpointShape;
  }
  interface FastifyInstance {
    /** Every /api route with its declared access, in registration order. */
    declaredRoutes: DeclaredRoute[];
  }
  interface FastifyRequest {
    /** The signed-in actor (routes that require an account); object rules are the policies' (src/policies). */
    user: (Actor & { tokenId: number }) | null;
  }
}

const FAILURE_CODE = { role: 'forbidden_role', permission: 'forbidden_permission', section: 'forbidden_section' } as const;

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token.trim() : null;
}

export const accessPlugin = fp(async (app: FastifyInstance, opts: { db: Db }) => {
  const { db } = opts;
  app.decorateRequest('user', null);
  const declared: DeclaredRoute[] = [];
  app.decorate('declaredRoutes', declared);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api') || route.url.startsWith('/api/docs')) return;
    if (route.method === 'HEAD' || route.method === 'OPTIONS') return;
    if (!route.config?.access) throw new Error(`Route ${route.method} ${route.url} declares no access policy`);
    for (const method of [route.method].flat())
      if (method !== 'HEAD') declared.push({ method, url: route.url, access: route.config.access, endpoint: route.config.endpoint ?? null });
  });

  // Before validation: a caller who may not use a route learns nothing about what it accepts.
  app.addHook('preValidation', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access || access === 'public') {
      // A public call may still come from a signed-in user (e.g. to adapt its answer); never required.
      return;
    }
    const token = bearerToken(request);
    if (!token) throw new AppError('unauthenticated');
    const owner = await findTokenOwner(db, token);
    if (!owner) throw new AppError('unauthenticated');
    const [roles, scopes] = await Promise.all([loadRolesOf(db, [owner.userId]), loadScopes(db, [owner.userId])]);
    request.user = {
      id: owner.userId,
      tokenId: owner.tokenId,
      ...flattenGrants(roles.get(owner.userId) ?? []),
      scope: scopes.get(owner.userId) ?? NATIONAL,
      ip: request.ip || null,
      userAgent: request.headers['user-agent']?.slice(0, 512) ?? null,
      locale: request.locale,
    };
    if (access === 'user') return;
    const failure = checkRequirement(request.user, access);
    if (failure) throw new AppError(FAILURE_CODE[failure]);
  });
});
