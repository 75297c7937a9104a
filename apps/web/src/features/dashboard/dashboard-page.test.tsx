import { GENERATION_STATUSES, SIGNATURE_STATUSES } from '@sceau/contracts';
import { resources } from '@sceau/i18n';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { makeGeneration, pageMeta } from '@/test/generations';
import { renderApp } from '@/test/render-app';

const batches = [
  makeGeneration({ id: 12 }),
  makeGeneration({ id: 11, title: null, status: 'in_progress', signature_status: 'not_started', progress: { done: 30, total: 120 }, counts: { items: 120, rejected: 3, diplomas: 0 }, anchor: null, published_at: null }),
  makeGeneration({ id: 10, title: 'Lot échoué', status: 'failed', signature_status: 'not_started', counts: { items: 5, rejected: 0, diplomas: 0 }, anchor: null }),
];

function routes(list = batches) {
  return {
    'GET /api/generations/by-user': (url: URL) => {
      const search = url.searchParams.get('search');
      const data = search ? list.filter((b) => b.title?.includes(search)) : list;
      return jsonResponse({ data, meta: pageMeta(data.length, Number(url.searchParams.get('per_page') ?? 10)) });
    },
    'GET /api/sessions': () =>
      jsonResponse({ data: [{ id: 3, name: 'Session 2025', year: 2025, is_current: true }, { id: 2, name: 'Session 2024', year: 2024, is_current: false }] }),
  };
}

describe('dashboard: my batches', () => {
  it('lists the batches with translated statuses, progress, counts and links to each', async () => {
    renderApp({ path: '/dashboard', signedIn: { profile: makeProfile(['admin']) }, routes: routes() });
    const published = await screen.findByTestId('batch-row-12');
    expect(within(published).getByRole('link', { name: 'Kinshasa-Est 2025' })).toHaveAttribute('href', '/show/12');
    expect(published).toHaveTextContent('Terminé');
    expect(published).toHaveTextContent('Signature terminée');

    const running = screen.getByTestId('batch-row-11');
    // No title: type, session and province make one.
    expect(within(running).getByRole('link', { name: "Diplôme d'État · Session 2025 · Kinshasa-Est" })).toHaveAttribute('href', '/show/11');
    expect(running).toHaveTextContent('En cours');
    expect(running).toHaveTextContent('Signature non commencée');
    expect(within(running).getByRole('progressbar')).toHaveAttribute('value', '30');
    expect(running).toHaveTextContent('30 / 120 (25 %)');
    expect(running).toHaveTextContent('dont 3 rejeté(s)');
    expect(screen.getByTestId('batch-row-10')).toHaveTextContent('Échoué');

    expect(await screen.findByTestId('counter-batches')).toHaveTextContent('3');
    expect(screen.getByTestId('counter-published')).toHaveTextContent('1');
    expect(screen.getByTestId('counter-diplomas')).toHaveTextContent('2');
  });

  it('searches (debounced) and filters by session through the API, from the first page', async () => {
    const { calls } = renderApp({ path: '/dashboard', signedIn: { profile: makeProfile(['admin']) }, routes: routes() });
    const user = userEvent.setup();
    await screen.findByTestId('batch-row-12');
    await user.type(screen.getByLabelText('Rechercher un lot'), 'échoué');
    await waitFor(() => expect(screen.queryByTestId('batch-row-12')).not.toBeInTheDocument());
    expect(screen.getByTestId('batch-row-10')).toBeInTheDocument();
    const searches = calls.filter((c) => c.url.pathname === '/api/generations/by-user' && c.url.searchParams.has('search'));
    // One call for the whole word, not one per key.
    expect(searches.map((c) => c.url.searchParams.get('search'))).toEqual(['échoué']);
    expect(searches[0]!.url.searchParams.get('page')).toBe('1');

    await waitFor(() => expect(screen.getByRole('option', { name: 'Session 2024' })).toBeInTheDocument());
    await user.selectOptions(screen.getByLabelText('Session'), '2');
    await waitFor(() => {
      const last = calls.filter((c) => c.url.pathname === '/api/generations/by-user').at(-1)!.url.searchParams;
      expect([last.get('session'), last.get('search'), last.get('page')]).toEqual(['2', 'échoué', '1']);
    });
  });

  it('invites to start a certificate when there is no batch, only to whom may create one', async () => {
    renderApp({ path: '/dashboard', signedIn: { profile: makeProfile(['admin']) }, routes: routes([]) });
    const empty = await screen.findByTestId('batches-empty');
    expect(within(empty).getByRole('link', { name: 'Commencer un diplôme' })).toHaveAttribute('href', '/certificates');
  });

  it('offers no creation to a validator', async () => {
    renderApp({ path: '/dashboard', signedIn: { profile: makeProfile(['validateur']) }, routes: routes([]) });
    const empty = await screen.findByTestId('batches-empty');
    expect(within(empty).queryByRole('link')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Commencer un diplôme' })).not.toBeInTheDocument();
  });

  it('reads English', async () => {
    await changeLocale('en');
    renderApp({ path: '/dashboard', signedIn: { profile: makeProfile(['admin']) }, routes: routes() });
    expect(await screen.findByRole('heading', { name: 'My batches' })).toBeInTheDocument();
    const running = await screen.findByTestId('batch-row-11');
    expect(running).toHaveTextContent('In progress');
    expect(running).toHaveTextContent('Signature not started');
    expect(within(running).getByRole('link', { name: 'State diploma · Session 2025 · Kinshasa-Est' })).toBeInTheDocument();
  });

  it('names every batch and signature status in both languages', () => {
    for (const lang of ['fr', 'en'] as const) {
      const generations = (resources[lang].web as { generations: { status: Record<string, string>; signature: Record<string, string> } }).generations;
      for (const status of GENERATION_STATUSES) expect(typeof generations.status[status], `${lang} ${status}`).toBe('string');
      for (const status of SIGNATURE_STATUSES) expect(typeof generations.signature[status], `${lang} ${status}`).toBe('string');
    }
  });
});
