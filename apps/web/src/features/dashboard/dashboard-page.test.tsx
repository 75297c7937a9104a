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
  makeGeneration({
    id: 11,
    title: null,
    status: 'in_progress',
    signature_status: 'not_started',
    progress: { done: 30, total: 120 },
    counts: { items: 120, rejected: 3, diplomas: 0 },
    anchor: null,
    published_at: null,
  }),
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
      jsonResponse({
        data: [
          { id: 3, name: 'Session 2025', year: 2025, is_current: true },
          { id: 2, name: 'Session 2024', year: 2024, is_current: false },
        ],
      }),
    'GET /api/generations/stats': (url: URL) => jsonResponse({ data: url.searchParams.get('session') === '2' ? emptyStats : stats }),
  };
}

const counts = (batches: number, diplomas: number, published: number, revoked: number) => ({ batches, diplomas, published, revoked });
const stats = {
  session: null,
  totals: counts(5, 1250, 900, 12),
  by_session: [
    { session: { id: 2, name: 'Session 2024', year: 2024 }, ...counts(2, 900, 888, 12) },
    { session: { id: 3, name: 'Session 2025', year: 2025 }, ...counts(3, 350, 12, 0) },
  ],
  by_province: [
    { province: { id: 1, name: 'Kinshasa-Est' }, ...counts(4, 1249, 900, 12) },
    { province: { id: 2, name: 'Kongo-Central 1' }, ...counts(1, 1, 0, 0) },
  ],
  by_status: GENERATION_STATUSES.map((status) =>
    status === 'completed'
      ? { status, ...counts(3, 912, 900, 12) }
      : status === 'ready_for_signature'
        ? { status, ...counts(1, 338, 0, 0) }
        : status === 'failed'
          ? { status, ...counts(1, 0, 0, 0) }
          : { status, ...counts(0, 0, 0, 0) },
  ),
};
const emptyStats = {
  ...stats,
  session: { id: 2, name: 'Session 2024' },
  totals: counts(0, 0, 0, 0),
  by_session: [],
  by_province: [],
  by_status: GENERATION_STATUSES.map((status) => ({ status, ...counts(0, 0, 0, 0) })),
};

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

  it('leads from a batch whose list is being imported to the import’s progress', async () => {
    const draft = makeGeneration({
      id: 13,
      title: 'Lot en import',
      status: 'created',
      signature_status: 'not_started',
      counts: { items: 0, rejected: 0, diplomas: 0 },
      anchor: null,
      published_at: null,
    });
    renderApp({
      path: '/dashboard',
      signedIn: { profile: makeProfile(['admin']) },
      routes: {
        ...routes([draft, ...batches]),
        'GET /api/importations': () =>
          jsonResponse({
            data: [
              {
                id: 44,
                generation_id: 13,
                status: 'running',
                rows_total: 10,
                rows_done: 4,
                percent: 40,
                error: null,
                kind: 'list',
                created_at: '2026-03-01T08:00:00.000Z',
                finished_at: null,
                generation: { id: 13, title: 'Lot en import', template_id: draft.template_id, status: 'created' },
              },
            ],
          }),
      },
    });
    const link = await screen.findByTestId('batch-import-13');
    expect(link).toHaveTextContent('Import en cours (40 %) : suivre');
    expect(link).toHaveAttribute('href', `/check-file/${draft.template_id}?importation=44`);
    expect(within(screen.getByTestId('batch-row-12')).queryByRole('link', { name: /Import en cours/ })).not.toBeInTheDocument();
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

    await waitFor(() => expect(within(screen.getByTestId('my-batches')).getByRole('option', { name: 'Session 2024' })).toBeInTheDocument());
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

describe('dashboard: what the scope has issued', () => {
  it('charts diplomas by session and province and batches by status, each with its figures in text and a table', async () => {
    renderApp({ path: '/dashboard', signedIn: { profile: makeProfile(['admin']) }, routes: routes() });
    const charts = await screen.findByTestId('issued-charts');
    expect(within(charts).getByRole('heading', { name: 'Ce que votre périmètre a délivré' })).toBeInTheDocument();
    expect(await within(charts).findByTestId('issued-total-diplomas')).toHaveTextContent(/1\s?250 diplômes générés/);
    expect(within(charts).getByTestId('issued-total-revoked')).toHaveTextContent('12 diplômes révoqués');

    const bySession = within(charts).getByRole('figure', { name: 'Diplômes par session' });
    expect(within(bySession).getByTestId('chart-session-2')).toHaveTextContent('Session 2024900 diplômes · 888 publié(s) · 12 révoqué(s)');
    // The bars are drawn to scale of the largest row, and hidden from screen readers (the text says it all).
    const track = within(bySession).getByTestId('chart-session-3').querySelector('.chart__track')!;
    expect(track).toHaveAttribute('aria-hidden', 'true');
    const widths = [...track.querySelectorAll<HTMLElement>('.chart__bar')].map((bar) => bar.style.width);
    expect(widths).toHaveLength(2);
    expect(parseFloat(widths[0]!)).toBeCloseTo((12 / 900) * 100, 3);
    expect(parseFloat(widths[1]!)).toBeCloseTo((338 / 900) * 100, 3);

    const byProvince = within(charts).getByRole('figure', { name: 'Diplômes par province éducationnelle' });
    expect(within(byProvince).getByTestId('chart-province-2')).toHaveTextContent('Kongo-Central 11 diplôme · 0 publié(s) · 0 révoqué(s)');
    // The same figures as a table.
    const table = within(byProvince).getByRole('table', { hidden: true });
    expect(within(table).getByRole('rowheader', { name: 'Kinshasa-Est', hidden: true }).closest('tr')).toHaveTextContent(/Kinshasa-Est4\s?1\s?24990012/);

    // Only the statuses that have batches.
    const byStatus = within(charts).getByRole('figure', { name: 'Lots par statut' });
    expect(
      within(byStatus)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Prêt pour la signature1 lot · 338 diplôme(s)', 'Terminé3 lots · 912 diplôme(s)', 'Échoué1 lot · 0 diplôme(s)']);
  });

  it('limits the figures to a session', async () => {
    const { calls } = renderApp({ path: '/dashboard', signedIn: { profile: makeProfile(['admin']) }, routes: routes() });
    const user = userEvent.setup();
    await screen.findByTestId('chart-session-2');
    await waitFor(() => expect(within(screen.getByTestId('issued-charts')).getByRole('option', { name: 'Session 2024' })).toBeInTheDocument());
    await user.selectOptions(screen.getByLabelText('Session des chiffres'), '2');
    expect(await screen.findByTestId('issued-empty')).toHaveTextContent('Aucun lot de la Session 2024 dans votre périmètre.');
    expect(calls.filter((c) => c.url.pathname === '/api/generations/stats').map((c) => c.url.searchParams.get('session'))).toEqual([null, '2']);
  });

  it('is offered to whoever may see batches, not to an account without a batch permission', async () => {
    const validateur = renderApp({ path: '/dashboard', signedIn: { profile: makeProfile(['validateur']) }, routes: routes() });
    expect(await screen.findByTestId('chart-status')).toBeInTheDocument();
    validateur.unmount();
    const { calls } = renderApp({ path: '/dashboard', signedIn: { profile: makeProfile([]) }, routes: routes() });
    await screen.findByRole('heading', { name: /Bienvenue/ });
    expect(screen.queryByTestId('issued-charts')).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/generations/stats')).toBe(false);
  });

  it('reads English', async () => {
    await changeLocale('en');
    renderApp({ path: '/dashboard', signedIn: { profile: makeProfile(['admin']) }, routes: routes() });
    expect(await screen.findByRole('figure', { name: 'Diplomas by educational province' })).toBeInTheDocument();
    expect(screen.getByTestId('chart-session-2')).toHaveTextContent('900 diplomas · 888 published · 12 revoked');
    expect(screen.getAllByText('Show the table of figures')).toHaveLength(3);
  });
});

describe('dashboard: a member of the public who registered', () => {
  it('offers what the account can do (verify, check a result, contact), no empty back office and no staff call', async () => {
    const { calls } = renderApp({ path: '/dashboard', signedIn: { profile: makeProfile([]) }, routes: routes() });
    expect(await screen.findByRole('heading', { name: /Bienvenue/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Vérifier un diplôme/ })).toHaveAttribute('href', '/verification');
    expect(screen.getByRole('link', { name: /Consulter mon résultat/ })).toHaveAttribute('href', '/student-check');
    expect(within(screen.getByRole('main')).getByRole('link', { name: /Nous contacter/ })).toHaveAttribute('href', '/contact');
    expect(screen.queryByText(resources.fr.web.dashboard.noAccess)).toBeNull();
    expect(calls.some((c) => c.url.pathname.startsWith('/api/generations'))).toBe(false);
  });

  it('reads English', async () => {
    await changeLocale('en');
    try {
      renderApp({ path: '/dashboard', signedIn: { profile: makeProfile([]) }, routes: routes() });
      expect(await screen.findByRole('heading', { name: 'What would you like to do?' })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: /Check my result/ })).toHaveAttribute('href', '/student-check');
    } finally {
      await changeLocale('fr');
    }
  });
});
