import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { makeAbilities, makeGeneration, pageMeta } from '@/test/generations';
import { renderApp } from '@/test/render-app';
import * as saving from '@/lib/save-file';

afterEach(() => {
  vi.restoreAllMocks();
});

const ready = makeGeneration({
  status: 'ready_for_generation',
  signature_status: 'not_started',
  anchor: null,
  merkle_root: null,
  published_at: null,
  progress: { done: 0, total: 0 },
  counts: { items: 3, rejected: 1, diplomas: 0 },
  abilities: makeAbilities({ view: true, launch: true, cancel: true }),
});

function batchRoute(batch = ready) {
  return { [`GET /api/generations/${batch.id}`]: () => jsonResponse({ data: { ...batch, items: [] }, meta: pageMeta(0) }) };
}

/** Two signatures registered (no jury); the batch has no choice yet. */
const available = [
  { kind: 'inspector_general', name: 'Jean-Claude Ilunga', title: "L'Inspecteur général" },
  { kind: 'ministry', name: 'Aimée-Raïssa Kabongo', title: 'Ministre' },
];
function signaturesRoute(data: object = { available, chosen: null, locked: false }) {
  return { 'GET /api/generations/12/signatures': () => jsonResponse({ data }) };
}
const signatures = signaturesRoute();

describe('/otp-generation/{id} (launch)', () => {
  it('sends the code, refuses a wrong one next to the field, accepts the right one and launches', async () => {
    // Once launched, the batch reads in progress (and the other refreshed answers come later): the
    // launch steps leave the page before the launch's refresh ends, which must still lead to the progress.
    let launched = false;
    const { router, calls } = renderApp({
      path: '/otp-generation/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: {
        ...batchRoute(),
        'GET /api/generations/12': () => jsonResponse({ data: { ...ready, ...(launched ? { status: 'in_progress' } : {}), items: [] }, meta: pageMeta(0) }),
        'GET /api/generations/12/signatures': async () => {
          if (launched) await new Promise((resolve) => setTimeout(resolve, 100));
          return jsonResponse({ data: { available, chosen: null, locked: false } });
        },
        'GET /api/generations/send-otp': () =>
          jsonResponse({ data: { message: 'Un code vous a été envoyé ; il expire dans 10 minutes.', channel: 'email', resend_in: 60, expires_in: 600 } }),
        'POST /api/generations/verify-otp': (_url, init) => {
          const body = JSON.parse(String(init.body)) as { code: string };
          if (body.code !== '654321') return jsonResponse({ code: 'validation_failed', message: 'Données invalides', errors: { code: ['Code incorrect'] } }, 422);
          return jsonResponse({ data: { message: 'Code accepté : vous pouvez lancer la génération.' } });
        },
        'POST /api/start-generation-process': () => {
          launched = true;
          return jsonResponse({ data: { message: 'Génération lancée' } });
        },
        'GET /api/generations/12/status': () =>
          jsonResponse({ data: { id: 12, status: 'in_progress', signature_status: 'not_started', progress: { done: 0, total: 2, percent: 0 }, last_error: null } }),
      },
    });
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Kinshasa-Est 2025' })).toBeInTheDocument();
    expect(screen.getByTestId('launch-batch')).toHaveTextContent('Prêt pour la génération');
    expect(screen.getByTestId('launch-batch')).toHaveTextContent('2 diplômes seront générés');
    const launch = screen.getByRole('button', { name: 'Lancer la génération' });
    expect(launch).toBeDisabled();

    // The official signatures the diplomas will carry: every registered one ticked at first, in the settings' order.
    const signed = await screen.findByTestId('launch-signatures');
    const boxes = await within(signed).findAllByRole('checkbox');
    expect(boxes.map((box) => box.closest('label')!.textContent)).toEqual([
      'Ministre — Aimée-Raïssa Kabongo, Ministre',
      "Inspecteur général — Jean-Claude Ilunga, L'Inspecteur général",
    ]);
    expect(boxes.every((box) => (box as HTMLInputElement).checked)).toBe(true);
    expect(within(signed).getByTestId('launch-signatures-missing')).toHaveTextContent('Non enregistrée(s), donc absente(s) des diplômes : Président du jury.');

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

    // Untick both: the launch waits for at least one; tick the ministry's again.
    await user.click(within(signed).getByRole('checkbox', { name: /^Ministre/ }));
    await user.click(within(signed).getByRole('checkbox', { name: /Inspecteur général/ }));
    expect(within(signed).getByTestId('launch-signatures-error')).toHaveTextContent('Choisissez au moins une signature officielle.');
    expect(launch).toBeDisabled();
    await user.click(within(signed).getByRole('checkbox', { name: /^Ministre/ }));
    expect(launch).toBeEnabled();

    await user.click(launch);
    await waitFor(() => expect(router.state.location.pathname).toBe('/generating-op/12'));
    const start = calls.find((c) => c.url.pathname === '/api/start-generation-process')!;
    expect(JSON.parse(String(start.init.body))).toEqual({ generation_id: 12, signatures: ['ministry'] });
  });

  it("shows a relaunch's fixed choice and sends it as it is", async () => {
    const { calls } = renderApp({
      path: '/otp-generation/12',
      signedIn: { profile: makeProfile(['admin']) },
      routes: {
        ...batchRoute({ ...ready, status: 'failed', last_error: 'interrompu' }),
        ...signaturesRoute({ available, chosen: ['inspector_general'], locked: true }),
        'GET /api/generations/send-otp': () => jsonResponse({ data: { message: 'Code envoyé', channel: 'email', resend_in: 60, expires_in: 600 } }),
        'POST /api/generations/verify-otp': () => jsonResponse({ data: { message: 'Code accepté' } }),
        'POST /api/start-generation-process': () =>
          jsonResponse({ code: 'validation_failed', message: 'Données invalides', errors: { signatures: ['Elles ne peuvent plus changer'] } }, 422),
        'GET /api/generations/12/status': () =>
          jsonResponse({ data: { id: 12, status: 'failed', signature_status: 'not_started', progress: { done: 1, total: 3, percent: 33 }, last_error: null } }),
      },
    });
    const user = userEvent.setup();
    const signed = await screen.findByTestId('launch-signatures');
    await waitFor(() => expect(within(signed).getAllByRole('checkbox')).toHaveLength(2));
    expect(within(signed).getByRole('checkbox', { name: /Inspecteur général/ })).toBeChecked();
    expect(within(signed).getByRole('checkbox', { name: /^Ministre/ })).not.toBeChecked();
    for (const box of within(signed).getAllByRole('checkbox')) expect(box).toBeDisabled();
    expect(signed).toHaveTextContent('déjà imprimés avec ces signatures');
    expect(screen.getByTestId('launch-relaunch')).toHaveTextContent('interrompu');

    await user.click(screen.getByRole('button', { name: 'Envoyer le code' }));
    await user.type(await screen.findByLabelText('Code de lancement'), '654321');
    await user.click(screen.getByRole('button', { name: 'Vérifier le code' }));
    await user.click(await screen.findByRole('button', { name: 'Lancer la génération' }));
    // The server's refusal about the signatures is shown as it is.
    expect(await screen.findByTestId('launch-error')).toHaveTextContent('Elles ne peuvent plus changer');
    const start = calls.find((c) => c.url.pathname === '/api/start-generation-process')!;
    expect(JSON.parse(String(start.init.body))).toEqual({ generation_id: 12, signatures: ['inspector_general'] });
  });

  it('says the diplomas will carry no signature when none is registered, and launches without a choice', async () => {
    renderApp({
      path: '/otp-generation/12',
      signedIn: { profile: makeProfile(['admin']) },
      routes: { ...batchRoute(), ...signaturesRoute({ available: [], chosen: null, locked: false }) },
    });
    const signed = await screen.findByTestId('launch-signatures');
    expect(await within(signed).findByText(/Aucune signature officielle n'est enregistrée/)).toBeInTheDocument();
    expect(within(signed).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(within(signed).getByRole('link', { name: 'Gérer les signatures officielles' })).toHaveAttribute('href', '/settings');
  });

  it('waits for the time a 429 answer gives before another send', async () => {
    renderApp({
      path: '/otp-generation/12',
      signedIn: { profile: makeProfile(['admin']) },
      routes: {
        ...batchRoute(),
        ...signatures,
        'GET /api/generations/send-otp': () =>
          new Response(JSON.stringify({ code: 'rate_limited', message: 'Trop de demandes, réessayez plus tard' }), {
            status: 429,
            headers: { 'Content-Type': 'application/json', 'Retry-After': '42' },
          }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Envoyer le code' }));
    expect(await screen.findByTestId('launch-send-error')).toHaveTextContent('Trop de demandes');
    expect(screen.getByTestId('launch-send')).toHaveTextContent(/Renvoyer le code dans 0:4[12]/);
  });

  it('after a reload, shows the code already sent with its timers, and keeps the code box through a refused resend', async () => {
    renderApp({
      path: '/otp-generation/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: {
        ...batchRoute(),
        ...signaturesRoute({
          available,
          chosen: null,
          locked: false,
          launch_code: { state: 'sent', channel: 'sms', destination: '+243 ••• ••• 78', expires_in: 540, resend_in: 45 },
        }),
        'POST /api/generations/verify-otp': () => jsonResponse({ data: { message: 'Code accepté : vous pouvez lancer la génération.' } }),
      },
    });
    const user = userEvent.setup();
    expect(await screen.findByTestId('launch-code-sent')).toHaveTextContent('Un code de lancement vous a déjà été envoyé pour ce lot');
    expect(screen.getByTestId('launch-expiry')).toHaveTextContent('Le code expire dans 9 minutes.');
    expect(screen.getByTestId('launch-send')).toBeDisabled();
    expect(screen.getByTestId('launch-send')).toHaveTextContent(/Renvoyer le code dans 0:4\d/);
    await user.type(screen.getByLabelText('Code de lancement'), '654321');
    await user.click(screen.getByRole('button', { name: 'Vérifier le code' }));
    expect(await screen.findByTestId('launch-verified')).toHaveTextContent('Code accepté');
    expect(screen.getByRole('button', { name: 'Lancer la génération' })).toBeEnabled();
  });

  it('after a reload, lets a user whose code is already verified launch at once', async () => {
    renderApp({
      path: '/otp-generation/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: {
        ...batchRoute(),
        ...signaturesRoute({
          available,
          chosen: null,
          locked: false,
          launch_code: { state: 'verified', channel: 'email', destination: 'r•••@sceau.example', expires_in: 420, resend_in: 0 },
        }),
      },
    });
    expect(await screen.findByTestId('launch-verified')).toHaveTextContent('Votre code de lancement est déjà vérifié pour ce lot.');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Lancer la génération' })).toBeEnabled());
  });

  it('offers a SPÉCIMEN of the batch with the signatures being chosen, to those the batch allows', async () => {
    const saved: string[] = [];
    vi.spyOn(saving, 'saveFile').mockImplementation((_blob, name) => void saved.push(name));
    const { calls } = renderApp({
      path: '/otp-generation/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: {
        ...batchRoute({ ...ready, abilities: makeAbilities({ view: true, launch: true, preview: true }) }),
        ...signatures,
        'GET /api/generations/12/specimen': () =>
          new Response('%PDF-1.7', { status: 200, headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'inline; filename="specimen-20260000000001.pdf"' } }),
      },
    });
    const user = userEvent.setup();
    const card = await screen.findByTestId('launch-specimen');
    expect(card).toHaveTextContent('SPÉCIMEN');
    const boxes = await within(screen.getByTestId('launch-signatures')).findAllByRole('checkbox');
    await user.click(boxes[1]!);
    await user.click(within(card).getByRole('button', { name: 'Voir un spécimen (PDF)' }));
    await waitFor(() => expect(saved).toEqual(['specimen-20260000000001.pdf']));
    const asked = calls.find((c) => c.url.pathname === '/api/generations/12/specimen')!;
    expect(asked.url.searchParams.get('signatures')).toBe('ministry');
  });

  it('offers no specimen when the batch does not allow it', async () => {
    renderApp({ path: '/otp-generation/12', signedIn: { profile: makeProfile(['root']) }, routes: { ...batchRoute(), ...signatures } });
    expect(await screen.findByTestId('launch-signatures')).toBeInTheDocument();
    expect(screen.queryByTestId('launch-specimen')).not.toBeInTheDocument();
  });

  it('explains why a batch awaiting validation cannot be launched', async () => {
    renderApp({
      path: '/otp-generation/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: batchRoute({ ...ready, status: 'pending_validation', abilities: makeAbilities({ view: true, validate_photos: true, validate_data: true, cancel: true }) }),
    });
    const panel = await screen.findByTestId('launch-not-ready');
    expect(panel).toHaveTextContent('Ce lot ne peut pas être lancé (statut : En attente de validation)');
    expect(within(panel).getByRole('link', { name: 'Valider les photos' })).toHaveAttribute('href', '/validate-picture/12');
    expect(screen.queryByRole('button', { name: 'Envoyer le code' })).not.toBeInTheDocument();
  });

  it("offers no launch when the batch's abilities say no, even to root on a ready batch", async () => {
    renderApp({
      path: '/otp-generation/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: { ...batchRoute({ ...ready, abilities: makeAbilities({ view: true }) }), ...signatures },
    });
    const panel = await screen.findByTestId('launch-not-ready');
    expect(panel).toHaveTextContent('Ce lot ne peut pas être lancé');
    expect(screen.queryByRole('button', { name: 'Envoyer le code' })).not.toBeInTheDocument();
  });

  it("leads to the validation the batch's abilities allow, not the one the role would", async () => {
    renderApp({
      path: '/otp-generation/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: batchRoute({ ...ready, status: 'pending_validation', abilities: makeAbilities({ view: true, validate_photos: false, validate_data: true }) }),
    });
    const panel = await screen.findByTestId('launch-not-ready');
    expect(within(panel).queryByRole('link', { name: 'Valider les photos' })).not.toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'Valider les données' })).toHaveAttribute('href', '/validate-data/12');
  });
});
