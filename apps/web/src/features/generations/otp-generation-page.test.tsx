import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { makeGeneration, pageMeta } from '@/test/generations';
import { renderApp } from '@/test/render-app';

afterEach(() => {
  vi.restoreAllMocks();
});

const ready = makeGeneration({ status: 'ready_for_generation', signature_status: 'not_started', anchor: null, merkle_root: null, published_at: null, progress: { done: 0, total: 0 }, counts: { items: 3, rejected: 1, diplomas: 0 } });

function batchRoute(batch = ready) {
  return { [`GET /api/generations/${batch.id}`]: () => jsonResponse({ data: { ...batch, items: [] }, meta: pageMeta(0) }) };
}

const signatures = {
  'GET /api/signatures/state': () =>
    jsonResponse({
      data: {
        ministry: { kind: 'ministry', name: 'Aimée-Raïssa Kabongo', title: 'Ministre', image_url: '/api/signatures/ministry/image', width: 300, height: 100, updated_at: '2026-01-01T00:00:00.000Z', updated_by: null },
        inspector_general: null,
        jury: null,
      },
    }),
};

describe('/otp-generation/{id} (launch)', () => {
  it('sends the code, refuses a wrong one next to the field, accepts the right one and launches', async () => {
    const { router, calls } = renderApp({
      path: '/otp-generation/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: {
        ...batchRoute(),
        ...signatures,
        'GET /api/generations/send-otp': () => jsonResponse({ data: { message: 'Un code vous a été envoyé ; il expire dans 10 minutes.', channel: 'email', resend_in: 60, expires_in: 600 } }),
        'POST /api/generations/verify-otp': (_url, init) => {
          const body = JSON.parse(String(init.body)) as { code: string };
          if (body.code !== '654321') return jsonResponse({ code: 'validation_failed', message: 'Données invalides', errors: { code: ['Code incorrect'] } }, 422);
          return jsonResponse({ data: { message: 'Code accepté : vous pouvez lancer la génération.' } });
        },
        'POST /api/start-generation-process': () => jsonResponse({ data: { message: 'Génération lancée' } }),
        'GET /api/generations/12/status': () => jsonResponse({ data: { id: 12, status: 'in_progress', signature_status: 'not_started', progress: { done: 0, total: 2, percent: 0 }, last_error: null } }),
      },
    });
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Kinshasa-Est 2025' })).toBeInTheDocument();
    expect(screen.getByTestId('launch-batch')).toHaveTextContent('Prêt pour la génération');
    expect(screen.getByTestId('launch-batch')).toHaveTextContent('2 diplômes seront générés');
    const launch = screen.getByRole('button', { name: 'Lancer la génération' });
    expect(launch).toBeDisabled();

    // The official signatures the diplomas will carry.
    const signed = await screen.findByTestId('launch-signatures');
    await waitFor(() => expect(within(signed).getByText(/Aimée-Raïssa Kabongo/)).toBeInTheDocument());
    expect(within(signed).getAllByText('Non enregistrée')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Envoyer le code' }));
    expect(await screen.findByTestId('launch-code-sent')).toHaveTextContent('Envoyé par e-mail à al•••@example.cd.');
    expect(screen.getByTestId('launch-expiry')).toHaveTextContent('Le code expire dans 10 minutes.');
    expect(screen.getByTestId('launch-send')).toHaveTextContent('Renvoyer le code dans 1:00');
    expect(screen.getByTestId('launch-send')).toBeDisabled();
    const send = calls.find((c) => c.url.pathname === '/api/generations/send-otp')!;
    expect(send.url.searchParams.get('generation_id')).toBe('12');

    const code = screen.getByLabelText('Code de lancement');
    await waitFor(() => expect(code).toHaveFocus());
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Vérifier le code' }));
    expect(await screen.findByText('Code incorrect')).toBeInTheDocument();
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(launch).toBeDisabled();

    await user.clear(code);
    await user.type(code, '654321');
    await user.click(screen.getByRole('button', { name: 'Vérifier le code' }));
    expect(await screen.findByTestId('launch-verified')).toHaveTextContent('Code accepté');
    const verify = calls.filter((c) => c.url.pathname === '/api/generations/verify-otp').at(-1)!;
    expect(JSON.parse(String(verify.init.body))).toEqual({ code: '654321', generation_id: 12 });
    await waitFor(() => expect(launch).toHaveFocus());

    await user.click(launch);
    await waitFor(() => expect(router.state.location.pathname).toBe('/generating-op/12'));
    const start = calls.find((c) => c.url.pathname === '/api/start-generation-process')!;
    expect(JSON.parse(String(start.init.body))).toEqual({ generation_id: 12 });
  });

  it('waits for the time a 429 answer gives before another send', async () => {
    renderApp({
      path: '/otp-generation/12',
      signedIn: { profile: makeProfile(['admin']) },
      routes: {
        ...batchRoute(),
        ...signatures,
        'GET /api/generations/send-otp': () =>
          new Response(JSON.stringify({ code: 'rate_limited', message: 'Trop de demandes, réessayez plus tard' }), { status: 429, headers: { 'Content-Type': 'application/json', 'Retry-After': '42' } }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Envoyer le code' }));
    expect(await screen.findByTestId('launch-send-error')).toHaveTextContent('Trop de demandes');
    expect(screen.getByTestId('launch-send')).toHaveTextContent(/Renvoyer le code dans 0:4[12]/);
  });

  it('explains why a batch awaiting validation cannot be launched', async () => {
    renderApp({
      path: '/otp-generation/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: batchRoute({ ...ready, status: 'pending_validation' }),
    });
    const panel = await screen.findByTestId('launch-not-ready');
    expect(panel).toHaveTextContent('Ce lot ne peut pas être lancé (statut : En attente de validation)');
    expect(within(panel).getByRole('link', { name: 'Valider les photos' })).toHaveAttribute('href', '/validate-picture/12');
    expect(screen.queryByRole('button', { name: 'Envoyer le code' })).not.toBeInTheDocument();
  });
});
