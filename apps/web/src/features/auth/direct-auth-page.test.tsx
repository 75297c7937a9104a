import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

const used = () =>
  jsonResponse(
    {
      code: 'validation_failed',
      message: 'Données invalides',
      errors: { token: ["Ce lien de connexion a déjà servi (ou un lien plus récent l'a remplacé) : chaque lien ne fonctionne qu'une fois"] },
    },
    422,
  );

describe('sign-in by a one-time link', () => {
  it("opens a candidate's diploma: the token is exchanged once, then /view-certificate?id=", async () => {
    const { router, calls } = renderApp({
      path: '/direct-auth?token=41.candidate-secret-0123456789',
      routes: { 'POST /api/direct-auth': () => jsonResponse({ kind: 'candidate', diploma_id: 'Abc_def-0123456789abcd' }) },
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/view-certificate'));
    expect(router.state.location.search).toBe('?id=Abc_def-0123456789abcd');
    const exchanges = calls.filter((c) => c.url.pathname === '/api/direct-auth');
    expect(exchanges).toHaveLength(1);
    expect(JSON.parse(String(exchanges[0]!.init.body))).toEqual({ token: '41.candidate-secret-0123456789' });
    expect(new Headers(exchanges[0]!.init.headers).get('Authorization')).toBeNull();
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it('signs a staff member in (token in session storage, profile loaded) and opens the dashboard', async () => {
    const profile = makeProfile(['validateur'], { email: 'validateur@sceau.example' });
    const { router, calls } = renderApp({
      path: '/direct-auth?token=42.staff-secret-0123456789abc',
      routes: {
        'POST /api/direct-auth': () => jsonResponse({ kind: 'staff', token_type: 'Bearer', access_token: 'tok-link', expires_in: 43200 }),
        'GET /api/me': () => jsonResponse({ data: { data: profile } }),
        'GET /api/generations/by-user': () => jsonResponse({ data: [], meta: { current_page: 1, last_page: 1, per_page: 10, total: 0 } }),
      },
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(sessionStorage.getItem('token')).toBe('tok-link');
    const me = calls.find((c) => c.url.pathname === '/api/me')!;
    expect(new Headers(me.init.headers).get('Authorization')).toBe('Bearer tok-link');
  });

  it('explains a used, expired or unknown link with ways forward, and signs nobody in', async () => {
    const { calls } = renderApp({ path: '/direct-auth?token=43.used-secret-0123456789abcd', routes: { 'POST /api/direct-auth': used } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Lien inutilisable' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('a déjà servi');
    const card = within(screen.getByTestId('direct-auth'));
    expect(card.getByRole('link', { name: 'Retrouver mon diplôme' })).toHaveAttribute('href', '/student-check');
    expect(card.getByRole('link', { name: 'Vérifier un diplôme' })).toHaveAttribute('href', '/verification');
    expect(card.getByRole('link', { name: 'Se connecter' })).toHaveAttribute('href', '/login');
    expect(card.queryByRole('button', { name: 'Réessayer' })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.url.pathname === '/api/direct-auth')).toHaveLength(1);
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it('says so when the link has no token, without calling the server', async () => {
    const { calls } = renderApp({ path: '/direct-auth' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Ce lien est incomplet');
    expect(calls.some((c) => c.url.pathname === '/api/direct-auth')).toBe(false);
  });

  it('shows the missing token in the language chosen after it appeared', async () => {
    renderApp({ path: '/direct-auth' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Ce lien est incomplet');
    const { i18n } = await import('@/lib/i18n');
    await act(() => i18n.changeLanguage('en'));
    expect(await screen.findByText('This link is incomplete: it holds no sign-in token.')).toBeInTheDocument();
    expect(screen.queryByText(/Ce lien est incomplet/)).not.toBeInTheDocument();
  });

  it('offers to try again after a network failure, and reads English', async () => {
    await changeLocale('en');
    let fail = true;
    const { router } = renderApp({
      path: '/direct-auth?token=44.network-secret-0123456789a',
      routes: {
        'POST /api/direct-auth': () => {
          if (fail) throw new TypeError('offline');
          return jsonResponse({ kind: 'candidate', diploma_id: 'Xyz_def-0123456789abcd' });
        },
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Link cannot be used' })).toBeInTheDocument();
    fail = false;
    screen.getByRole('button', { name: 'Try again' }).click();
    await waitFor(() => expect(router.state.location.search).toBe('?id=Xyz_def-0123456789abcd'));
  });
});
