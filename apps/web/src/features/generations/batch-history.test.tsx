import type { BatchHistoryEntryView, GenerationView } from '@sceau/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { makeAbilities, makeGeneration, pageMeta } from '@/test/generations';
import { renderApp } from '@/test/render-app';

const ENTRIES: BatchHistoryEntryView[] = [
  {
    id: 9,
    at: '2026-03-04T10:15:00.000Z',
    actor: null,
    actor_kind: 'system',
    action: 'generation.status_changed',
    candidate_code: null,
    details: { from: 'in_progress', to: 'ready_for_signature' },
  },
  {
    id: 8,
    at: '2026-03-03T09:00:00.000Z',
    actor: 'Grâce Tshisekedi',
    actor_kind: 'staff',
    action: 'validation.photo_rejected',
    candidate_code: '20260000000042',
    details: { from: 'pending', reason: 'Photo floue' },
  },
  { id: 7, at: '2026-03-02T09:00:00.000Z', actor: 'Grâce Tshisekedi', actor_kind: 'staff', action: 'validation.data_validated_all', candidate_code: null, details: { count: 480 } },
  { id: 6, at: '2026-03-01T09:00:00.000Z', actor: 'Jean Kabila', actor_kind: 'staff', action: 'generation.future_step', candidate_code: null, details: {} },
];

function routes(batch: GenerationView, asked: URL[]) {
  return {
    [`GET /api/generations/${batch.id}`]: () => jsonResponse({ data: { ...batch, items: [] }, meta: pageMeta(0) }),
    [`GET /api/generations/${batch.id}/broadcast`]: () => jsonResponse({ data: null }),
    'GET /api/centres': () => jsonResponse({ data: [] }),
    [`GET /api/generations/${batch.id}/history`]: (url: URL) => {
      asked.push(url);
      const kind = url.searchParams.get('kind');
      const data = ENTRIES.filter((e) => !kind || (kind === 'validation' ? e.action.startsWith('validation.') : e.action.startsWith('generation.')));
      return jsonResponse({ data, meta: { current_page: 1, last_page: 1, per_page: 20, total: data.length } });
    },
  };
}

afterEach(async () => {
  await changeLocale('fr');
});

describe("a batch's history on its page", () => {
  it('says who did what and when, in words, newest first, and filters by part', async () => {
    const asked: URL[] = [];
    const batch = makeGeneration({ abilities: makeAbilities({ view: true, view_history: true }) });
    renderApp({ path: `/show/${batch.id}`, signedIn: { profile: makeProfile(['validateur']) }, routes: routes(batch, asked) });
    const section = await screen.findByTestId('batch-history');
    expect(within(section).getByRole('heading', { name: 'Historique du lot' })).toBeInTheDocument();
    const entries = await within(section).findAllByRole('listitem');
    expect(entries).toHaveLength(4);
    expect(entries[0]).toHaveTextContent('Statut du lot changé');
    expect(entries[0]).toHaveTextContent('En cours → Prêt pour la signature');
    expect(entries[0]).toHaveTextContent('La plateforme');
    expect(entries[1]).toHaveTextContent('Candidat rejeté pour sa photo');
    expect(entries[1]).toHaveTextContent('candidat 20260000000042');
    expect(entries[1]).toHaveTextContent('Motif : Photo floue');
    expect(entries[1]).toHaveTextContent('Grâce Tshisekedi');
    expect(entries[2]).toHaveTextContent('Données en attente toutes validées');
    expect(entries[2]).toHaveTextContent('480 candidats');
    // An action this page has no words for yet still shows, by its code.
    expect(entries[3]).toHaveTextContent('generation.future_step');
    expect(asked[0]!.searchParams.get('per_page')).toBe('20');

    await userEvent.selectOptions(within(section).getByLabelText('Partie'), 'validation');
    await waitFor(() => expect(within(section).getAllByRole('listitem')).toHaveLength(2));
    expect(asked.at(-1)!.searchParams.get('kind')).toBe('validation');
  });

  it('reads in English, and says when a part has nothing yet', async () => {
    await changeLocale('en');
    const batch = makeGeneration({ abilities: makeAbilities({ view: true, view_history: true }) });
    const asked: URL[] = [];
    const all = routes(batch, asked);
    renderApp({
      path: `/show/${batch.id}`,
      signedIn: { profile: makeProfile(['validateur']) },
      routes: { ...all, [`GET /api/generations/${batch.id}/history`]: () => jsonResponse({ data: [], meta: { current_page: 1, last_page: 1, per_page: 20, total: 0 } }) },
    });
    const section = await screen.findByTestId('batch-history');
    expect(within(section).getByRole('heading', { name: 'Batch history' })).toBeInTheDocument();
    expect(await within(section).findByTestId('batch-history-empty')).toHaveTextContent("Nothing has been recorded in this batch's history");
  });

  it('shows a broadcast just requested without a reload', async () => {
    const asked: URL[] = [];
    let entries: BatchHistoryEntryView[] = [];
    const batch = makeGeneration({ abilities: makeAbilities({ view: true, view_history: true, broadcast: true }) });
    renderApp({
      path: `/show/${batch.id}`,
      signedIn: { profile: makeProfile(['root']) },
      routes: {
        ...routes(batch, asked),
        [`GET /api/generations/${batch.id}/history`]: () => jsonResponse({ data: entries, meta: { current_page: 1, last_page: 1, per_page: 20, total: entries.length } }),
        [`POST /api/generations/${batch.id}/broadcast`]: () => {
          entries = [
            {
              id: 20,
              at: '2026-03-05T08:00:00.000Z',
              actor: 'Odette Mbuyi',
              actor_kind: 'staff',
              action: 'generation.broadcast_requested',
              candidate_code: null,
              details: { candidates: 2 },
            },
          ];
          const queued = { id: 4, generation_id: batch.id, status: 'queued', total: 2, sent: 0, skipped: 0, failed: 0, created_at: '2026-03-05T08:00:00.000Z', finished_at: null };
          return jsonResponse({ data: { message: 'Les notifications de diffusion ont été envoyées avec succès.', broadcast: queued } }, 202);
        },
      },
    });
    const section = await screen.findByTestId('batch-history');
    expect(await within(section).findByTestId('batch-history-empty')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(within(await screen.findByTestId('batch-broadcast')).getByRole('button', { name: 'Diffuser aux candidats' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Diffuser le lot aux candidats' })).getByRole('button', { name: 'Diffuser' }));
    const entry = await within(section).findByRole('listitem');
    expect(entry).toHaveTextContent('Diffusion aux candidats demandée');
    expect(entry).toHaveTextContent('2 candidats');
    expect(entry).toHaveTextContent('Odette Mbuyi');
  });

  it('is not shown to whom the server does not grant it', async () => {
    const asked: URL[] = [];
    const batch = makeGeneration({ abilities: makeAbilities({ view: true }) });
    renderApp({ path: `/show/${batch.id}`, signedIn: { profile: makeProfile(['validateur']) }, routes: routes(batch, asked) });
    expect(await screen.findByTestId('batch-header')).toBeInTheDocument();
    expect(screen.queryByTestId('batch-history')).not.toBeInTheDocument();
    expect(asked).toHaveLength(0);
  });
});
