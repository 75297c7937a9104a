import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PENDING_OTP_KEY, RECOVERY_SESSION_KEY } from '@/features/auth/pending-otp';
import { i18n } from '@/lib/i18n';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

describe('password recovery and reset', () => {
  it('sends someone whose password was reset to /reset-password from any page, with the reason', async () => {
    const profile = makeProfile(['admin'], { password_reset_required: true });
    const { router } = renderApp({ path: '/role-access', signedIn: { profile } });
    await screen.findByRole('heading', { name: 'Choisir un nouveau mot de passe' });
    expect(router.state.location.pathname).toBe('/reset-password');
    expect(screen.getAllByText(/Votre mot de passe a été réinitialisé par un administrateur/).length).toBeGreaterThan(0);
  });

  it('lets the others reach their pages', async () => {
    const { router } = renderApp({ path: '/dashboard', signedIn: { profile: makeProfile(['admin']) } });
    await screen.findByRole('heading', { name: /Bienvenue/ });
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('saves the new password, replaces the token and says so on the dashboard', async () => {
    const profile = makeProfile(['admin'], { password_reset_required: true, phone: '+243812345678' });
    const { router, calls } = renderApp({
      path: '/reset-password',
      signedIn: { profile },
      routes: {
        'POST /api/reset-password': () => jsonResponse({ access_token: 'tok-new', token_type: 'Bearer', expires_in: 3600, data: { ...profile, password_reset_required: false } }),
      },
    });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Choisir un nouveau mot de passe' });
    await user.selectOptions(screen.getByLabelText('Compte'), '+243812345678');
    await user.type(screen.getByLabelText('Mot de passe temporaire reçu'), 'temporaire-123');
    await user.type(screen.getByLabelText('Nouveau mot de passe'), 'nouveau-secret');
    await user.type(screen.getByLabelText('Confirmer le mot de passe'), 'nouveau-secret');
    await user.click(screen.getByRole('button', { name: 'Enregistrer le mot de passe' }));
    expect(await screen.findByText('Votre mot de passe a été modifié.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(sessionStorage.getItem('token')).toBe('tok-new');
    const call = calls.find((c) => c.url.pathname === '/api/reset-password')!;
    expect(JSON.parse(String(call.init.body))).toEqual({
      mail_or_phone: '+243812345678',
      current_password: 'temporaire-123',
      password: 'nouveau-secret',
      password_confirmation: 'nouveau-secret',
    });
    expect(new Headers(call.init.headers).get('Authorization')).toBe('Bearer test-token');
  });

  it('shows a contact refused by the server next to it', async () => {
    renderApp({
      path: '/reset-password',
      signedIn: { profile: makeProfile([]) },
      routes: {
        'POST /api/reset-password': () =>
          jsonResponse({ code: 'validation_failed', message: 'Données invalides', errors: { mail_or_phone: ['Ce contact ne correspond pas à votre compte'] } }, 422),
      },
    });
    await changePassword();
    expect(await screen.findByText('Ce contact ne correspond pas à votre compte')).toBeInTheDocument();
    expect(sessionStorage.getItem('token')).toBe('test-token');
  });

  it('shows a failure in the language chosen after it appeared', async () => {
    // An answer without its sign-in: a failure of the page, not the server's refusal.
    renderApp({ path: '/reset-password', signedIn: { profile: makeProfile([]) }, routes: { 'POST /api/reset-password': () => jsonResponse(null) } });
    await changePassword();
    expect(await screen.findByRole('alert')).toHaveTextContent('Une erreur est survenue, veuillez réessayer');
    await act(() => i18n.changeLanguage('en'));
    expect(await screen.findByText('An error occurred, please try again')).toBeInTheDocument();
    expect(screen.queryByText('Une erreur est survenue, veuillez réessayer')).not.toBeInTheDocument();
  });

  it('asks for the current password, and shows a wrong one next to it (in English too)', async () => {
    await i18n.changeLanguage('en');
    const { calls } = renderApp({
      path: '/reset-password',
      signedIn: { profile: makeProfile(['admin']) },
      routes: {
        'POST /api/reset-password': () => jsonResponse({ code: 'validation_failed', message: 'Invalid data', errors: { current_password: ['Wrong current password'] } }, 422),
      },
    });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Choose a new password' });
    await user.type(screen.getByLabelText('New password'), 'nouveau-secret');
    await user.type(screen.getByLabelText('Confirm the password'), 'nouveau-secret');
    await user.click(screen.getByRole('button', { name: 'Save the password' }));
    expect(await screen.findAllByText('This field is required')).not.toHaveLength(0);
    expect(calls.filter((c) => c.url.pathname === '/api/reset-password')).toHaveLength(0);
    await user.type(screen.getByLabelText('Current password'), 'pas-le-bon');
    await user.click(screen.getByRole('button', { name: 'Save the password' }));
    expect(await screen.findByText('Wrong current password')).toBeInTheDocument();
  });

  it('in the session a recovery code opened, sends no current password', async () => {
    sessionStorage.setItem(RECOVERY_SESSION_KEY, '1');
    const profile = makeProfile([]);
    const { calls } = renderApp({
      path: '/reset-password',
      signedIn: { profile },
      routes: { 'POST /api/reset-password': () => jsonResponse({ access_token: 'tok-new', token_type: 'Bearer', expires_in: 3600, data: profile }) },
    });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Choisir un nouveau mot de passe' });
    expect(screen.queryByLabelText('Mot de passe actuel')).toBeNull();
    await user.type(screen.getByLabelText('Nouveau mot de passe'), 'nouveau-secret');
    await user.type(screen.getByLabelText('Confirmer le mot de passe'), 'nouveau-secret');
    await user.click(screen.getByRole('button', { name: 'Enregistrer le mot de passe' }));
    await screen.findByText('Votre mot de passe a été modifié.');
    const call = calls.find((c) => c.url.pathname === '/api/reset-password')!;
    expect(JSON.parse(String(call.init.body))).not.toHaveProperty('current_password');
    expect(sessionStorage.getItem(RECOVERY_SESSION_KEY)).toBeNull();
  });

  it('forgot password: sends a recovery code to the e-mail and goes to the code page', async () => {
    const { router, calls } = renderApp({
      path: '/forgot-password',
      routes: { 'POST /api/register/getOtp': () => jsonResponse({ data: { message: 'ok', channel: 'email', resend_in: 60, expires_in: 600 } }) },
    });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Mot de passe oublié' });
    await user.type(screen.getByLabelText('Adresse e-mail'), 'Aline@Example.cd');
    await user.click(screen.getByRole('button', { name: 'Recevoir un code' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/otp-validation'));
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ mail_or_phone: 'aline@example.cd', purpose: 'reset_password' });
    expect(JSON.parse(sessionStorage.getItem(PENDING_OTP_KEY)!)).toMatchObject({ purpose: 'reset_password' });
  });
});

/** Fills the form as a person would (current password, the new one twice) and sends it. */
async function changePassword(): Promise<void> {
  const user = userEvent.setup();
  await screen.findByRole('heading', { name: 'Choisir un nouveau mot de passe' });
  await user.type(screen.getByLabelText('Mot de passe actuel'), 'ancien-secret');
  await user.type(screen.getByLabelText('Nouveau mot de passe'), 'nouveau-secret');
  await user.type(screen.getByLabelText('Confirmer le mot de passe'), 'nouveau-secret');
  await user.click(screen.getByRole('button', { name: 'Enregistrer le mot de passe' }));
}
