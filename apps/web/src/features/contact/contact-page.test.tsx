import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n';
import { jsonResponse } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

type Routes = Parameters<typeof renderApp>[0]['routes'];

async function open(routes: Routes = {}) {
  const app = renderApp({ path: '/contact', routes });
  await screen.findByRole('heading', { level: 1, name: 'Nous contacter' });
  return { ...app, user: userEvent.setup() };
}

const bodyOf = (call: { init: RequestInit }) => JSON.parse(String(call.init.body)) as Record<string, unknown>;
const submit = (user: ReturnType<typeof userEvent.setup>) => user.click(screen.getByRole('button', { name: 'Envoyer le message' }));

async function fill(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Nom complet'), 'Aline Mukendi');
  await user.type(screen.getByLabelText('Adresse e-mail'), 'aline@example.cd');
  await user.type(screen.getByLabelText('Objet'), 'Diplôme introuvable');
  await user.type(screen.getByLabelText('Message'), 'Je ne trouve pas mon diplôme de la session 2026.');
}

describe('/contact', () => {
  it('checks each field before sending', async () => {
    const { user, calls } = await open();
    await user.type(screen.getByLabelText('Nom complet'), 'Al');
    await user.type(screen.getByLabelText('Adresse e-mail'), 'pas-une-adresse');
    await user.type(screen.getByLabelText('Message'), 'Court');
    await submit(user);
    expect(await screen.findByText('Le nom doit contenir au moins 3 caractères')).toBeInTheDocument();
    expect(screen.getByText('Saisissez une adresse e-mail valide')).toBeInTheDocument();
    expect(screen.getByText('Ce champ est requis')).toBeInTheDocument();
    expect(screen.getByText('Le message doit contenir au moins 10 caractères')).toBeInTheDocument();
    expect(screen.getByLabelText('Objet')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('sends the message, says "Formulaire envoyé avec succès !" and empties the form', async () => {
    const { user, calls } = await open({ 'POST /api/contact': () => jsonResponse({ data: { received: true, message: 'Formulaire envoyé avec succès !' } }, 201) });
    await fill(user);
    expect(screen.getByText('48 / 5000 caractères')).toBeInTheDocument();
    await submit(user);
    const success = await screen.findByTestId('contact-success');
    expect(success).toHaveTextContent('Formulaire envoyé avec succès !');
    expect(success).toHaveFocus();
    const call = calls.find((c) => c.method === 'POST')!;
    expect(call.url.pathname).toBe('/api/contact');
    expect(bodyOf(call)).toEqual({
      name: 'Aline Mukendi',
      mail_or_phone: 'aline@example.cd',
      subject: 'Diplôme introuvable',
      message: 'Je ne trouve pas mon diplôme de la session 2026.',
    });
    expect(screen.getByLabelText('Nom complet')).toHaveValue('');
    expect(screen.getByLabelText('Message')).toHaveValue('');
  });

  it('can be answered by phone (the phone input)', async () => {
    const { user, calls } = await open({ 'POST /api/contact': () => jsonResponse({ data: { received: true, message: 'Formulaire envoyé avec succès !' } }, 201) });
    await user.click(screen.getByLabelText('Téléphone'));
    await user.type(screen.getByLabelText('Nom complet'), 'Aline Mukendi');
    await submit(user);
    expect(await screen.findByText('Le numéro de téléphone est requis')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Numéro de téléphone'), '812345678');
    await user.type(screen.getByLabelText('Objet'), 'Question');
    await user.type(screen.getByLabelText('Message'), 'Comment vérifier un diplôme étranger ?');
    await submit(user);
    await screen.findByTestId('contact-success');
    expect(bodyOf(calls.find((c) => c.method === 'POST')!).mail_or_phone).toBe('+243812345678');
  });

  it('keeps the honeypot out of sight and of the keyboard', async () => {
    await open();
    const trap = document.getElementById('contact-website')!;
    expect(trap).toHaveAttribute('tabindex', '-1');
    expect(trap.closest('[aria-hidden="true"]')).not.toBeNull();
  });

  it('shows the server’s refusals: field messages under their fields, too many messages at the top', async () => {
    let answer = jsonResponse({ code: 'validation_failed', message: 'Données invalides', errors: { subject: ['Au plus 150 caractères'] } }, 422);
    const { user } = await open({ 'POST /api/contact': () => answer });
    await fill(user);
    await submit(user);
    expect(await screen.findByText('Au plus 150 caractères')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Données invalides');

    answer = jsonResponse({ code: 'rate_limited', message: 'Trop de tentatives. Réessayez dans 3500 secondes.' }, 429);
    await submit(user);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Trop de tentatives'));
  });

  it('is in English too', async () => {
    await i18n.changeLanguage('en');
    renderApp({ path: '/contact' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Contact us' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send the message' })).toBeInTheDocument();
  });
});
