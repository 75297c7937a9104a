import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

const meOk = () => jsonResponse({ data: { data: makeProfile(['admin']) } });
const tokenOk = () => jsonResponse({ token_type: 'Bearer', access_token: 'tok-9', expires_in: 60 });

async function fill(username: string, password: string) {
  const user = userEvent.setup();
  await screen.findByRole('heading', { name: 'Connexion' });
  if (username) await user.type(screen.getByLabelText('E-mail ou téléphone'), username);
  if (password) await user.type(screen.getByLabelText('Mot de passe'), password);
  return user;
}

describe('login page', () => {
  it('checks the fields before calling the server', async () => {
    const { calls } = renderApp({ path: '/login' });
    const user = await fill('pas-un-contact', 'court');
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByText('Saisissez une adresse e-mail ou un numéro de téléphone valide')).toBeInTheDocument();
    expect(screen.getByText('Le mot de passe doit contenir au moins 8 caractères')).toBeInTheDocument();
    expect(screen.getByLabelText('Mot de passe')).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toHaveLength(0);
  });

  it("shows the server's 'Invalid contact or password' and stores nothing", async () => {
    await changeLocale('en');
    renderApp({
      path: '/login',
      routes: {
        'POST /api/oauth/token': () => jsonResponse({ code: 'invalid_credentials', message: 'Invalid contact or password' }, 401),
      },
    });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Sign in' });
    await user.type(screen.getByLabelText('E-mail or phone'), '+243 812 345 678');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid contact or password');
    expect(sessionStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('shows server field errors next to their field', async () => {
    renderApp({
      path: '/login',
      routes: {
        'POST /api/oauth/token': () => jsonResponse({ code: 'validation_failed', message: 'Données invalides', errors: { username: ['Compte archivé'] } }, 422),
      },
    });
    const user = await fill('aline@example.cd', 'secret-123');
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Données invalides');
    expect(screen.getByText('Compte archivé')).toBeInTheDocument();
  });

  it('shows a failure in the language chosen after it appeared', async () => {
    // An answer that is not a token: a failure of the page, not the server's refusal.
    renderApp({ path: '/login', routes: { 'POST /api/oauth/token': () => jsonResponse(null) } });
    const user = await fill('aline@example.cd', 'secret-123');
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Une erreur est survenue, veuillez réessayer');
    const { i18n } = await import('@/lib/i18n');
    await act(() => i18n.changeLanguage('en'));
    expect(await screen.findByText('An error occurred, please try again')).toBeInTheDocument();
    expect(screen.queryByText('Une erreur est survenue, veuillez réessayer')).not.toBeInTheDocument();
  });

  it('with remember-me keeps the token in localStorage and goes to the dashboard', async () => {
    const { router } = renderApp({ path: '/login', routes: { 'POST /api/oauth/token': tokenOk, 'GET /api/me': meOk } });
    const user = await fill('aline@example.cd', 'secret-123');
    await user.click(screen.getByLabelText('Se souvenir de moi'));
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    await screen.findByRole('heading', { name: /Bienvenue/ });
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(localStorage.getItem('token')).toBe('tok-9');
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it('does not follow a redirect to another site', async () => {
    const { router } = renderApp({
      path: '/login?redirect=//evil.example/x',
      routes: { 'POST /api/oauth/token': tokenOk, 'GET /api/me': meOk },
    });
    const user = await fill('aline@example.cd', 'secret-123');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });
});
