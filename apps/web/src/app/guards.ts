import { checkRequirement, type AppRoute, type RequirementFailure } from '@sceau/contracts';
import { redirect, type LoaderFunction } from 'react-router';
import type { FlashStore } from '@/lib/flash';
import { REDIRECT_PARAM } from '@/lib/redirect';
import { grantsOf, type SessionStore } from '@/lib/session';
import type { TextKey } from '@/lib/text-keys';

export const GUARD_MESSAGE_KEYS: Record<RequirementFailure, TextKey> = {
  role: 'guard.role',
  permission: 'guard.permission',
  section: 'guard.section',
};

export const LOGIN_PATH = '/login';
export const DASHBOARD_PATH = '/dashboard';

export const RESET_PASSWORD_PATH = '/reset-password';

export type AccessDecision = { kind: 'allow' } | { kind: 'redirect'; to: string; flashKey?: TextKey; flashTone?: 'error' | 'info' };

export function loginPathFor(requested: string): string {
  return `${LOGIN_PATH}?${new URLSearchParams({ [REDIRECT_PARAM]: requested }).toString()}`;
}

/**
 * The guards in the spec's order, first failure wins: a visitor on an authenticated route goes to
 * sign in (and comes back after); then role, permission, section, each to /dashboard with its
 * message. A signed-in user on a visitors-only route is sent to that route's redirect.
 */
export async function decideAccess(route: AppRoute, session: Pick<SessionStore, 'getSnapshot' | 'ensureProfile'>, requested: string): Promise<AccessDecision> {
  const { token } = session.getSnapshot();
  if (route.access === 'public') return { kind: 'allow' };
  if (route.access === 'guest') {
    return token ? { kind: 'redirect', to: route.signedInRedirect ?? '/' } : { kind: 'allow' };
  }
  if (!token) return { kind: 'redirect', to: loginPathFor(requested) };
  const profile = await session.ensureProfile();
  if (!profile) return { kind: 'redirect', to: loginPathFor(requested) };
  // An administrator reset the password: nothing else opens until the person chooses a new one.
  if (profile.password_reset_required && route.path !== RESET_PASSWORD_PATH) {
    return { kind: 'redirect', to: RESET_PASSWORD_PATH, flashKey: 'resetPassword.required', flashTone: 'info' };
  }
  if (!route.requirement) return { kind: 'allow' };
  const failure = checkRequirement(grantsOf(profile), route.requirement);
  if (!failure) return { kind: 'allow' };
  return { kind: 'redirect', to: DASHBOARD_PATH, flashKey: GUARD_MESSAGE_KEYS[failure] };
}

export function createGuardLoader(route: AppRoute, deps: { session: SessionStore; flash: FlashStore }): LoaderFunction {
  return async ({ request }) => {
    const url = new URL(request.url);
    const decision = await decideAccess(route, deps.session, `${url.pathname}${url.search}`);
    if (decision.kind === 'allow') return null;
    if (decision.flashKey) deps.flash.push(decision.flashKey, decision.flashTone ?? 'error');
    throw redirect(decision.to);
  };
}
