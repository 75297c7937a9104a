import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { OutboxMessage } from '@/features/messaging/outbox-page';
import { jsonResponse } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

const message: OutboxMessage = {
  id: 'm1',
  channel: 'sms',
  to: '+243812345678',
  subject: null,
  text: 'Sceau : votre code est 123456. Il expire dans 10 minutes.',
  html: null,
  created_at: '2026-03-02T10:30:00.000Z',
};

describe('development outbox page', () => {
  it('lists the messages, filters by address and refreshes', async () => {
    let served: OutboxMessage[] = [message];
    const { calls } = renderApp({ path: '/dev/outbox', routes: { 'GET /api/dev/outbox': () => jsonResponse({ data: served }) } });
    const user = userEvent.setup();
    const item = await screen.findByTestId('outbox-m1');
    expect(item).toHaveTextContent('SMS');
    expect(item).toHaveTextContent('+243812345678');
    expect(item).toHaveTextContent('votre code est 123456');

    await user.type(screen.getByLabelText('Destinataire'), 'aline@example.cd');
    await waitFor(() => expect(calls.at(-1)!.url.searchParams.get('to')).toBe('aline@example.cd'));

    served = [{ ...message, id: 'm2', channel: 'email', to: 'aline@example.cd', subject: 'Votre code Sceau' }];
    await user.click(screen.getByRole('button', { name: 'Actualiser' }));
    expect(await screen.findByRole('heading', { name: 'Votre code Sceau' })).toBeInTheDocument();
  });

  it('says when the API has no outbox (production)', async () => {
    renderApp({ path: '/dev/outbox', routes: { 'GET /api/dev/outbox': () => jsonResponse({ code: 'not_found', message: 'Ressource introuvable' }, 404) } });
    expect(await screen.findByText(/La boîte d'envoi n'est pas disponible ici/)).toBeInTheDocument();
  });
});
