import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { makeGeneration, makeItem, pageMeta } from '@/test/generations';
import { renderApp } from '@/test/render-app';

afterEach(() => {
  vi.restoreAllMocks();
});

type State = { status: string; signature_status: string; done: number; total: number; last_error?: string | null };

function routes(get: () => State, onApply: () => void = () => undefined) {
  return {
    'GET /api/generations/12/status': () => {
      const s = get();
      return jsonResponse({
        data: { id: 12, status: s.status, signature_status: s.signature_status, progress: { done: s.done, total: s.total, percent: s.total ? Math.round((s.done / s.total) * 1000) / 10 : 0 }, last_error: s.last_error ?? null },
      });
    },
    'GET /api/generations/12': () => {
      const s = get();
      const batch = makeGeneration({ status: s.status as 'in_progress', signature_status: s.signature_status as 'not_started', anchor: null, counts: { items: 2, rejected: 0, diplomas: s.done } });
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
});
