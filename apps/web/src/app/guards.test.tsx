import type { AppRoute } from '@sceau/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { decideAccess } from '@/app/guards';
import { changeLocale } from '@/lib/i18n';
import type { SessionState } from '@/lib/session';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

function sessionOf(state: SessionState) {
  return { getSnapshot: () => state, ensureProfile: async () => state.profile };
}

describe('guard order (decideAccess)', () => {
  const strict: AppRoute = {
    path: '/x',
    access: 'auth',
    requirement: { anyRole: ['root'], anyPermission: ['broadcast.send'], section: 'signatures' },
  };

  it('sends a visitor to sign in first, remembering the page asked for', async () => {
    await expect(decideAccess(strict, sessionOf({ token: null, profile: null }), '/x?y=1')).resolves.toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fx%3Fy%3D1',
    });
  });

  it('checks role, then permission, then section; the first failure wins', async () => {
    const nobody = sessionOf({ token: 't', profile: makeProfile(['controleur']) });
    await expect(decideAccess(strict, nobody, '/x')).resolves.toMatchObject({ flashKey: 'guard.role', to: '/dashboard' });

    const admin = sessionOf({ token: 't', profile: makeProfile(['admin']) });
    await expect(decideAccess({ ...strict, requirement: { anyPermission: ['broadcast.send'], section: 'signatures' } }, admin, '/x')).resolves.toMatchObject({
      flashKey: 'guard.permission',
    });

    const validator = sessionOf({ token: 't', profile: makeProfile(['validateur']) });
    await expect(decideAccess({ ...strict, requirement: { anyPermission: ['validation.photo'], section: 'signatures' } }, validator, '/x')).resolves.toMatchObject({
      flashKey: 'guard.section',
    });

    const root = sessionOf({ token: 't', profile: makeProfile(['root']) });
    await expect(decideAccess(strict, root, '/x')).resolves.toEqual({ kind: 'allow' });
  });
});

describe('guards in the app', () => {
  it('sends a visitor to /login and back to the page first asked for after signing in', async () => {
    const profile = makeProfile(['admin']);
    const { router } = renderApp({
      path: '/permission-test',
      routes: {
        'POST /api/oauth/token': () => jsonResponse({ token_type: 'Bearer', access_token: 'tok', expires_in: 60 }),
        'GET /api/me': () => jsonResponse({ data: { data: profile } }),
      },
    });
    await screen.findByRole('heading', { name: 'Connexion' });
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?redirect=%2Fpermission-test');

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-mail ou téléphone'), 'aline@example.cd');
    await user.type(screen.getByLabelText('Mot de passe'), 'secret-123');
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));

    await screen.findByRole('heading', { name: 'Test des permissions' });
    expect(router.state.location.pathname).toBe('/permission-test');
  });

  it('shows "Rôle insuffisant" on /dashboard for a missing role', async () => {
    const { router } = renderApp({ path: '/settings', signedIn: { profile: makeProfile(['validateur']) } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Rôle insuffisant');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Bienvenue, Aline Mukendi');
  });

  it('shows "Accès non autorisé" on /dashboard for a missing permission', async () => {
    const { router } = renderApp({ path: '/validate-picture/4', signedIn: { profile: makeProfile(['controleur']) } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Accès non autorisé');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('lets a permitted user in', async () => {
    const { router } = renderApp({ path: '/validate-picture/3', signedIn: { profile: makeProfile(['validateur']) } });
    await screen.findByRole('heading', { name: 'Validation des photos' });
    expect(router.state.location.pathname).toBe('/validate-picture/3');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the guard messages in English', async () => {
    await changeLocale('en');
    renderApp({ path: '/role-access', signedIn: { profile: makeProfile(['validateur']) } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Unauthorized access');
  });

  it('loads the profile from the server before deciding when none is cached', async () => {
    const { router, calls } = renderApp({
      path: '/settings',
      signedIn: { profile: makeProfile(['root']), cached: false },
      routes: { 'GET /api/me': () => jsonResponse({ data: { data: makeProfile(['root']) } }) },
    });
    await screen.findByRole('heading', { name: 'Signatures officielles' });
    expect(router.state.location.pathname).toBe('/settings');
    expect(calls.some((c) => c.url.pathname === '/api/me')).toBe(true);
  });

  it('sends a visitor whose token the server refuses to /login', async () => {
    const { router } = renderApp({
      path: '/dashboard',
      signedIn: { profile: makeProfile(['root']), cached: false },
      routes: { 'GET /api/me': () => jsonResponse({ code: 'unauthenticated', message: 'x' }, 401) },
    });
    await screen.findByRole('heading', { name: 'Connexion' });
    expect(router.state.location.pathname).toBe('/login');
  });

  it.each([
    ['/login', '/'],
    ['/register', '/dashboard'],
    ['/otp-validation', '/dashboard'],
    ['/forgot-password', '/dashboard'],
  ])('sends a signed-in user away from %s to %s', async (from, to) => {
    const { router } = renderApp({ path: from, signedIn: { profile: makeProfile(['admin']) } });
    await waitFor(() => expect(router.state.location.pathname).toBe(to));
  });

  it('keeps /reset-password for signed-in users only', async () => {
    const visitor = renderApp({ path: '/reset-password' });
    await waitFor(() => expect(visitor.router.state.location.pathname).toBe('/login'));
    visitor.unmount();

    const member = renderApp({ path: '/reset-password', signedIn: { profile: makeProfile(['controleur']) } });
    await screen.findByRole('heading', { name: 'Choisir un nouveau mot de passe' });
    expect(member.router.state.location.pathname).toBe('/reset-password');
  });
});
