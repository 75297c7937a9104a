import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PENDING_OTP_KEY } from '@/features/auth/pending-otp';
import { changeLocale } from '@/lib/i18n';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

const sent = () => jsonResponse({ data: { message: 'Code envoyé', channel: 'email', resend_in: 60, expires_in: 600 } });

async function open(routes: Parameters<typeof renderApp>[0]['routes'] = {}) {
  const app = renderApp({ path: '/register', routes });
  await screen.findByRole('heading', { name: 'Créer un compte' });
  return { ...app, user: userEvent.setup() };
}

function bodyOf(call: { init: RequestInit }) {
  return JSON.parse(String(call.init.body)) as Record<string, unknown>;
}

describe('register page', () => {
  it('checks every rule before calling the server', async () => {
    const { user, calls } = await open();
    await user.type(screen.getByLabelText('Nom'), 'Al');
    await user.type(screen.getByLabelText('Mot de passe'), 'court');
    await user.type(screen.getByLabelText('Confirmer le mot de passe'), 'autre');
    await user.click(screen.getByRole('button', { name: 'Créer mon compte' }));
    expect(await screen.findByText('Le nom doit contenir au moins 3 caractères')).toBeInTheDocument();
    expect(screen.getByText('Le numéro de téléphone est requis')).toBeInTheDocument();
    expect(screen.getByText('Le mot de passe doit contenir au moins 8 caractères')).toBeInTheDocument();
    expect(screen.getByText('La confirmation ne correspond pas au mot de passe')).toBeInTheDocument();
    expect(screen.getByLabelText('Nom')).toHaveAttribute('aria-describedby', 'register-name-error');
    expect(calls).toHaveLength(0);
  });

  it('asks for a valid e-mail when the e-mail is chosen', async () => {
    const { user, calls } = await open();
    await user.click(screen.getByLabelText('E-mail'));
    await user.click(screen.getByRole('button', { name: 'Créer mon compte' }));
    expect(await screen.findByText('Un téléphone ou une adresse e-mail est requis')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Adresse e-mail'), 'pas-une-adresse');
    await user.click(screen.getByRole('button', { name: 'Créer mon compte' }));
    expect(await screen.findByText('Saisissez une adresse e-mail valide')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('registers with a phone, asks for the code of that registration and goes to the code page', async () => {
    const registration = 'attempt-secret-0123456789abcdef';
    const { user, calls, router } = await open({
      'POST /api/register': () => jsonResponse({ data: { message: 'ok', mail_or_phone: '+243812345678', registration } }),
      'POST /api/register/getOtp': () => jsonResponse({ data: { message: 'Code envoyé', channel: 'sms', resend_in: 60, expires_in: 600 } }),
    });
    await user.type(screen.getByLabelText('Nom'), 'Mukendi');
    await user.type(screen.getByLabelText('Prénom'), 'Aline');
    await user.type(screen.getByLabelText('Numéro de téléphone'), '812345678');
    await user.type(screen.getByLabelText('Mot de passe'), 'secret-123');
    await user.type(screen.getByLabelText('Confirmer le mot de passe'), 'secret-123');
    await user.click(screen.getByRole('button', { name: 'Créer mon compte' }));

    await screen.findByRole('heading', { name: 'Code de validation' });
    expect(router.state.location.pathname).toBe('/otp-validation');
    expect(bodyOf(calls[0]!)).toEqual({
      name: 'Mukendi',
      first_name: 'Aline',
      mail_or_phone: '+243812345678',
      password: 'secret-123',
      password_confirmation: 'secret-123',
    });
    expect(bodyOf(calls[1]!)).toEqual({ mail_or_phone: '+243812345678', purpose: 'register', registration });
    expect(JSON.parse(sessionStorage.getItem(PENDING_OTP_KEY)!)).toMatchObject({ mail_or_phone: '+243812345678', purpose: 'register', channel: 'sms', registration });
    expect(screen.getByTestId('otp-destination')).toHaveTextContent('Un code a été envoyé par SMS à +243••••••678.');
  });

  it('puts the server field errors next to their fields', async () => {
    await changeLocale('en');
    renderApp({
      path: '/register',
      routes: {
        'POST /api/register': () =>
          jsonResponse(
            { code: 'validation_failed', message: 'Invalid data', errors: { mail_or_phone: ['Enter a valid e-mail address or a phone number in international format'] } },
            422,
          ),
        'POST /api/register/getOtp': sent,
      },
    });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Create an account' });
    await user.click(screen.getByLabelText('E-mail'));
    await user.type(screen.getByLabelText('Last name'), 'Mukendi');
    await user.type(screen.getByLabelText('E-mail address'), 'aline@example.cd');
    await user.type(screen.getByLabelText('Password'), 'secret-123');
    await user.type(screen.getByLabelText('Confirm the password'), 'secret-123');
    await user.click(screen.getByRole('button', { name: 'Create my account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid data');
    expect(screen.getByText('Enter a valid e-mail address or a phone number in international format')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('E-mail address')).toHaveFocus());
  });

  it('sends a signed-in user to the dashboard', async () => {
    const { router } = renderApp({ path: '/register', signedIn: { profile: makeProfile(['admin']) } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });
});
