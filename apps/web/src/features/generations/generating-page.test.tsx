import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import type { GenerationAbilities, GenerationView } from '@sceau/contracts';
import { makeAbilities, makeGeneration, makeItem, pageMeta } from '@/test/generations';
import { renderApp } from '@/test/render-app';

afterEach(() => {
  vi.restoreAllMocks();
});

type State = { status: string; signature_status: string; done: number; total: number; last_error?: string | null };

/** What the server's policy answers a root account for a batch in `s` (its state decides). */
function rootAbilities(s: State): Partial<GenerationAbilities> {
  const printed = s.status === 'ready_for_signature' || s.status === 'completed';
  return {
    view: true,
    launch: s.status === 'failed' || s.status === 'ready_for_generation',
    sign: s.status === 'ready_for_signature',
    download_one: printed,
    download_all: printed,
  };
}

function routes(
  get: () => State,
  onApply: () => void = () => undefined,
  abilities: (s: State) => Partial<GenerationAbilities> = rootAbilities,
  refusals: GenerationView['refusals'] = {},
) {
  return {
    'GET /api/generations/12/status': () => {
      const s = get();
      return jsonResponse({
        data: {
          id: 12,
          status: s.status,
          signature_status: s.signature_status,
          progress: { done: s.done, total: s.total, percent: s.total ? Math.round((s.done / s.total) * 1000) / 10 : 0 },
          last_error: s.last_error ?? null,
        },
      });
    },
    'GET /api/generations/12': () => {
      const s = get();
      const batch = makeGeneration({
        status: s.status as 'in_progress',
        signature_status: s.signature_status as 'not_started',
        anchor: null,
        counts: { items: 2, rejected: 0, diplomas: s.done },
        abilities: makeAbilities(abilities(s)),
        refusals,
      });
      return jsonResponse({ data: { ...batch, items: [makeItem({ id: 601 }), makeItem({ id: 602 })] }, meta: pageMeta(2) });
    },
    'POST /api/generations/12/apply-signature': () => {
      onApply();
      return jsonResponse({ data: { message: 'Signature officielle lancée' } }, 202);
    },
  };
}

describe('/generating-op/{id}', () => {
  it('follows the generation, applies the signature and follows it until the batch is published', async () => {
    let state: State = { status: 'in_progress', signature_status: 'not_started', done: 1, total: 2 };
    const { calls } = renderApp({
      path: '/generating-op/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: routes(
        () => state,
        () => {
          state = { status: 'ready_for_signature', signature_status: 'in_progress', done: 2, total: 2 };
        },
      ),
    });
    const user = userEvent.setup();
    const bar = await screen.findByRole('progressbar', { name: 'Progression de la génération de Kinshasa-Est 2025' });
    expect(bar).toHaveAttribute('aria-valuenow', '50');
    expect(screen.getByTestId('generating-meter')).toHaveTextContent('1 / 2 (50 %)');
    expect(screen.getByTestId('generating-live')).toHaveTextContent('Génération en cours : 1 sur 2.');
    expect(screen.getByText('La génération continue sur le serveur même si vous quittez cette page.')).toBeInTheDocument();
    expect(within(screen.getByTestId('generating-header')).getByText('En cours')).toBeInTheDocument();

    state = { status: 'ready_for_signature', signature_status: 'not_started', done: 2, total: 2 };
    const apply = await screen.findByRole('button', { name: 'Appliquer la signature' }, { timeout: 4000 });
    expect(bar).toHaveAttribute('aria-valuenow', '100');
    expect(screen.getByTestId('generating-live')).toHaveTextContent('prêts pour la signature');
    const preview = screen.getByTestId('generating-preview');
    expect(within(preview).getByRole('link', { name: 'Voir les diplômes du lot' })).toHaveAttribute('href', '/show/12');
    expect(await within(preview).findByRole('button', { name: /Télécharger un exemple/ })).toBeInTheDocument();

    await user.click(apply);
    expect(await screen.findByText(/Signature en cours : les diplômes seront publiés/)).toBeInTheDocument();
    expect(calls.filter((c) => c.url.pathname === '/api/generations/12/apply-signature')).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('generating-progress')).toHaveAttribute('data-signature-status', 'in_progress'), { timeout: 4000 });

    state = { status: 'completed', signature_status: 'finished', done: 2, total: 2 };
    const done = await screen.findByTestId('generating-done', undefined, { timeout: 4000 });
    expect(done).toHaveTextContent('Lot publié');
    expect(within(done).getByRole('link', { name: 'Voir le lot' })).toHaveAttribute('href', '/show/12');
    await waitFor(() => expect(within(done).getByRole('heading', { name: 'Lot publié' })).toHaveFocus());
    expect(screen.getByTestId('generating-live')).toHaveTextContent('Lot publié : diplômes signés et vérifiables.');

    // Published: the polling stops.
    const polls = calls.filter((c) => c.url.pathname === '/api/generations/12/status').length;
    await new Promise((resolve) => setTimeout(resolve, 1800));
    expect(calls.filter((c) => c.url.pathname === '/api/generations/12/status').length).toBe(polls);
  }, 15000);

  it('shows why a generation failed, with the way to relaunch', async () => {
    renderApp({
      path: '/generating-op/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: routes(() => ({ status: 'failed', signature_status: 'not_started', done: 1, total: 2, last_error: 'Le rendu du PDF a échoué' })),
    });
    const failed = await screen.findByTestId('generating-failed');
    expect(failed).toHaveTextContent('Le rendu du PDF a échoué');
    expect(within(failed).getByRole('link', { name: 'Relancer la génération' })).toHaveAttribute('href', '/otp-generation/12');
  });

  it('says when the batch does not exist', async () => {
    renderApp({
      path: '/generating-op/13',
      signedIn: { profile: makeProfile(['root']) },
      routes: { 'GET /api/generations/13/status': () => jsonResponse({ code: 'not_found', message: 'Introuvable' }, 404) },
    });
    expect(await screen.findByTestId('batch-not-found')).toBeInTheDocument();
  });

  it("offers neither the signature nor a preview download when the batch's abilities say no, whatever the role and status", async () => {
    renderApp({
      path: '/generating-op/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: routes(
        () => ({ status: 'ready_for_signature', signature_status: 'not_started', done: 2, total: 2 }),
        undefined,
        () => ({ view: true, sign: false, download_one: false }),
      ),
    });
    const sign = await screen.findByTestId('generating-sign');
    await waitFor(() => expect(within(sign).getByRole('link', { name: 'Voir les diplômes du lot' })).toBeInTheDocument());
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(screen.getByText('Kinshasa-Est 2025')).toBeInTheDocument());
    expect(within(sign).queryByRole('button', { name: 'Appliquer la signature' })).not.toBeInTheDocument();
    expect(within(sign).queryByRole('button', { name: /Télécharger un exemple/ })).not.toBeInTheDocument();
  });

  it('offers the relaunch of a failed batch only when its abilities say launch', async () => {
    renderApp({
      path: '/generating-op/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: routes(
        () => ({ status: 'failed', signature_status: 'not_started', done: 1, total: 2, last_error: 'Le rendu du PDF a échoué' }),
        undefined,
        () => ({ view: true, launch: false }),
      ),
    });
    const failed = await screen.findByTestId('generating-failed');
    await waitFor(() => expect(screen.getByText('Kinshasa-Est 2025')).toBeInTheDocument());
    expect(within(failed).queryByRole('link', { name: 'Relancer la génération' })).not.toBeInTheDocument();
  });

  it('says why in place of the signature when the server refuses it for a retired key (French, then English)', async () => {
    const retired = { sign: { key: 'field.batch_signing_key_retired', params: { kid: 'oldKid123' } } };
    const ready = () => ({ status: 'ready_for_signature', signature_status: 'not_started', done: 2, total: 2 });
    const first = renderApp({
      path: '/generating-op/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: routes(ready, undefined, () => ({ view: true, sign: false, cancel: true }), retired),
    });
    const note = await screen.findByTestId('sign-refused');
    expect(note).toHaveTextContent(/^Ce lot a été produit avec la clé oldKid123, retirée depuis : .*Annulez ce lot/);
    expect(within(screen.getByTestId('generating-sign')).queryByRole('button', { name: 'Appliquer la signature' })).not.toBeInTheDocument();
    first.unmount();

    const { i18n } = await import('@/lib/i18n');
    await i18n.changeLanguage('en');
    try {
      renderApp({
        path: '/generating-op/12',
        signedIn: { profile: makeProfile(['root']) },
        routes: routes(ready, undefined, () => ({ view: true, sign: false, cancel: true }), retired),
      });
      expect(await screen.findByTestId('sign-refused')).toHaveTextContent(/^This batch was produced with key oldKid123, retired since: .*Cancel this batch/);
      expect(screen.queryByRole('button', { name: 'Apply the signature' })).not.toBeInTheDocument();
    } finally {
      await i18n.changeLanguage('fr');
    }
  });

  it("offers the signature when the batch's abilities say sign", async () => {
    renderApp({
      path: '/generating-op/12',
      signedIn: { profile: makeProfile(['admin']) },
      routes: routes(
        () => ({ status: 'ready_for_signature', signature_status: 'not_started', done: 2, total: 2 }),
        undefined,
        () => ({ view: true, sign: true }),
      ),
    });
    expect(await screen.findByRole('button', { name: 'Appliquer la signature' })).toBeInTheDocument();
  });
});
