import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PENDING_OTP_KEY, type PendingOtp } from '@/features/auth/pending-otp';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

function pending(overrides: Partial<PendingOtp> = {}) {
  const value: PendingOtp = {
    mail_or_phone: 'aline@example.cd',
    purpose: 'register',
    channel: 'email',
    resendAt: Date.now() + 45_000,
    expiresAt: Date.now() + 600_000,
    ...overrides,
  };
  sessionStorage.setItem(PENDING_OTP_KEY, JSON.stringify(value));
}

const signedIn = (profile = makeProfile([])) => jsonResponse({ access_token: 'tok-otp', token_type: 'Bearer', expires_in: 3600, data: profile });

async function open(routes: Parameters<typeof renderApp>[0]['routes'] = {}) {
  const app = renderApp({ path: '/otp-validation', routes });
  await screen.findByRole('heading', { name: 'Code de validation' });
  return { ...app, user: userEvent.setup(vi.isFakeTimers() ? { advanceTimers: vi.advanceTimersByTime.bind(vi) } : {}) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('code validation page', () => {
  it('says where the code went, keeps it across a reload and shows the expiry', async () => {
    pending();
    await open();
    expect(screen.getByTestId('otp-destination')).toHaveTextContent('Un code a été envoyé par e-mail à al•••@example.cd.');
    expect(screen.getByText('Il expire dans 10 minutes.')).toBeInTheDocument();
    const input = screen.getByLabelText('Code à 6 chiffres');
    expect(input).toHaveAttribute('inputmode', 'numeric');
    expect(input).toHaveAttribute('autocomplete', 'one-time-code');
  });

  it('shows the refusal of a wrong code next to the field and stores nothing', async () => {
    pending();
    const { user } = await open({
      'POST /api/register/validateOtp': () =>
        jsonResponse({ code: 'validation_failed', message: 'Données invalides', errors: { otp: ['Code incorrect. Tentatives restantes : 3'] } }, 422),
    });
    const input = screen.getByLabelText('Code à 6 chiffres');
    await user.type(input, '12a3456');
    expect(input).toHaveValue('123456');
    await user.click(screen.getByRole('button', { name: 'Valider le code' }));
    expect(await screen.findByText('Code incorrect. Tentatives restantes : 3')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAttribute('aria-describedby', 'otp-code-hint otp-code-error');
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it('refuses a short code without calling the server', async () => {
    pending();
    const { user, calls } = await open();
    await user.type(screen.getByLabelText('Code à 6 chiffres'), '123');
    await user.click(screen.getByRole('button', { name: 'Valider le code' }));
    expect(screen.getByText('Le code compte 6 chiffres')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("shows the code's error in the language chosen after it appeared", async () => {
    pending();
    const { user } = await open();
    await user.type(screen.getByLabelText('Code à 6 chiffres'), '123');
    await user.click(screen.getByRole('button', { name: 'Valider le code' }));
    expect(screen.getByText('Le code compte 6 chiffres')).toBeInTheDocument();
    const { i18n } = await import('@/lib/i18n');
    await act(() => i18n.changeLanguage('en'));
    expect(await screen.findByText('The code has 6 digits')).toBeInTheDocument();
    expect(screen.queryByText('Le code compte 6 chiffres')).not.toBeInTheDocument();
  });

  it('counts down before a new code may be asked for, then asks for one', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // 30 s to wait: opening the page on a loaded machine may take a few of them (the clock runs on).
    pending({ resendAt: Date.now() + 30_000 });
    const { user, calls } = await open({
      'POST /api/register/getOtp': () => jsonResponse({ data: { message: 'Nouveau code envoyé', channel: 'email', resend_in: 60, expires_in: 600 } }),
    });
    const button = screen.getByRole('button', { name: /^Renvoyer le code \(dans 0:(30|[12]\d)\)$/ });
    expect(button).toBeDisabled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_100);
    });
    // The countdown's next tick (its timer may have started after the clock was moved) enables it.
    const ready = await screen.findByRole('button', { name: 'Renvoyer le code' });
    expect(ready).toBeEnabled();
    await user.click(ready);
    expect(await screen.findByText('Nouveau code envoyé')).toBeInTheDocument();
    expect(calls.at(-1)!.url.pathname).toBe('/api/register/getOtp');
    expect(JSON.parse(String(calls.at(-1)!.init.body))).toEqual({ mail_or_phone: 'aline@example.cd', purpose: 'register' });
    // About a minute (the clock runs on during the checks: a loaded machine may show a few seconds less).
    expect(screen.getByRole('button', { name: /^Renvoyer le code \(dans (1:00|0:5\d)\)$/ })).toBeDisabled();
  });

  it("waits as long as a refusal's Retry-After says", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    pending({ resendAt: Date.now() - 1 });
    const { user } = await open({
      'POST /api/register/getOtp': () =>
        new Response(JSON.stringify({ code: 'rate_limited', message: 'Trop de tentatives. Réessayez dans 42 secondes.' }), {
          status: 429,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '42' },
        }),
    });
    await user.click(screen.getByRole('button', { name: 'Renvoyer le code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Trop de tentatives. Réessayez dans 42 secondes.');
    expect(screen.getByRole('button', { name: /^Renvoyer le code \(dans 0:(4[0-2]|3\d)\)$/ })).toBeDisabled();
  });

  it('signs in with a right code (token in session storage) and goes to the dashboard', async () => {
    pending({ registration: 'attempt-secret-0123456789abcdef' });
    const { user, router, calls } = await open({ 'POST /api/register/validateOtp': () => signedIn(), 'GET /api/me': () => jsonResponse({ data: { data: makeProfile([]) } }) });
    await user.type(screen.getByLabelText('Code à 6 chiffres'), '654321');
    await user.click(screen.getByRole('button', { name: 'Valider le code' }));
    await screen.findByRole('heading', { name: /Bienvenue/ });
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(sessionStorage.getItem('token')).toBe('tok-otp');
    expect(localStorage.getItem('token')).toBeNull();
    expect(sessionStorage.getItem(PENDING_OTP_KEY)).toBeNull();
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({
      otp: '654321',
      mail_or_phone: 'aline@example.cd',
      purpose: 'register',
      registration: 'attempt-secret-0123456789abcdef',
    });
  });

  it('after a recovery code goes to the new password page', async () => {
    pending({ purpose: 'reset_password' });
    const { user, router } = await open({ 'POST /api/register/validateOtp': () => signedIn() });
    await user.type(screen.getByLabelText('Code à 6 chiffres'), '654321');
    await user.click(screen.getByRole('button', { name: 'Valider le code' }));
    await screen.findByRole('heading', { name: 'Choisir un nouveau mot de passe' });
    expect(router.state.location.pathname).toBe('/reset-password');
    expect(screen.getByLabelText('Compte')).toHaveValue('aline@example.cd');
    // The code proved the contact: no current password is asked for in this session.
    expect(screen.queryByLabelText('Mot de passe actuel')).toBeNull();
  });

  it('without a code on the way offers to start again', async () => {
    renderApp({ path: '/otp-validation' });
    expect(await screen.findByText(/Aucun code n'est en attente/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('link', { name: 'Mot de passe oublié' })).toHaveAttribute('href', '/forgot-password'));
  });
});
