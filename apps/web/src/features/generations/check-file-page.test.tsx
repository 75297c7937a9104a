import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { issuingRoutes } from '@/test/issuing';
import { renderApp } from '@/test/render-app';

afterEach(() => {
  vi.restoreAllMocks();
});

const LIST_LABEL = 'Liste des candidats (CSV, XLSX ou ODS)';

function csv(name = 'liste.csv') {
  return new File(['code_candidat;nom\n20260000100001;Kabongo\n'], name, { type: 'text/csv' });
}

describe('/check-file/{id} (step 2)', () => {
  it('checks the list (multipart), shows every problem, re-uploads into the same draft, then imports and follows to the batch', async () => {
    const checks: FormData[] = [];
    let polls = 0;
    const { router, calls } = renderApp({
      path: '/check-file/1',
      signedIn: { profile: makeProfile(['root']) },
      routes: {
        ...issuingRoutes(),
        'POST /api/check-import-file': (_url, init) => {
          const form = init.body as FormData;
          checks.push(form);
          if (checks.length === 1) {
            return jsonResponse({
              data: {
                generation_id: 55,
                rows: 3,
                valid_rows: 1,
                errors: [
                  { row: 2, column: 'code_candidat', code: 'code_format', message: 'Le code du candidat compte 14 chiffres' },
                  { row: 3, column: 'date_naissance', code: 'birth_date_format', message: 'Date de naissance illisible' },
                  { row: 1, column: null, code: 'missing_columns', message: 'Colonnes manquantes : sexe' },
                ],
                error_count: 3,
                format: 'csv',
                photos: { files: 2, matched: 1 },
              },
            });
          }
          return jsonResponse({ data: { generation_id: 55, rows: 3, valid_rows: 3, errors: [], error_count: 0, format: 'xlsx', photos: null, list_id: 'liste-2' } });
        },
        'POST /api/start-import-process': () => jsonResponse({ data: { importation_id: 31 } }, 202),
        'GET /api/importations/31/tracking': () => {
          polls += 1;
          return jsonResponse({
            data:
              polls < 2
                ? { id: 31, generation_id: 55, status: 'running', rows_total: 3, rows_done: 1, percent: 33, error: null }
                : { id: 31, generation_id: 55, status: 'completed', rows_total: 3, rows_done: 3, percent: 100, error: null },
          });
        },
      },
    });
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: "Modèle : Diplôme d'État" })).toBeInTheDocument();
    // The columns are documented on the page.
    const help = screen.getByTestId('columns-help');
    expect(within(help).getByRole('rowheader', { name: /code_candidat/ })).toBeInTheDocument();
    expect(within(help).getAllByText(/JJ\/MM\/AAAA/).length).toBeGreaterThan(0);
    expect(screen.getByText(/20 Mo au plus/)).toBeInTheDocument();

    // Required fields first.
    await user.click(screen.getByRole('button', { name: 'Vérifier le fichier' }));
    expect(screen.getByText('La province éducationnelle est requise')).toBeInTheDocument();
    expect(screen.getByText('Choisissez la liste des candidats')).toBeInTheDocument();

    await waitFor(() => expect(screen.getByLabelText('Session')).toHaveValue('4'));
    await user.selectOptions(screen.getByLabelText('Province éducationnelle'), '5');
    await user.upload(screen.getByLabelText(LIST_LABEL), csv());
    await user.upload(screen.getByLabelText(/Photos des candidats/), new File(['PK'], 'photos.zip', { type: 'application/zip' }));
    await user.click(screen.getByRole('button', { name: 'Vérifier le fichier' }));

    const result = await screen.findByTestId('check-result');
    const first = checks[0]!;
    expect(first.get('template')).toBe('1');
    expect(first.get('session_id')).toBe('4');
    expect(first.get('province_id')).toBe('5');
    expect((first.get('file') as File).name).toBe('liste.csv');
    expect((first.get('photos') as File).name).toBe('photos.zip');
    expect(first.get('generation_id')).toBeNull();
    const post = calls.find((c) => c.url.pathname === '/api/check-import-file')!;
    expect(new Headers(post.init.headers).get('Content-Type')).toBeNull();

    expect(within(result).getByTestId('check-rows')).toHaveTextContent('3');
    expect(within(result).getByTestId('check-valid-rows')).toHaveTextContent('1');
    expect(within(result).getByTestId('check-error-count')).toHaveTextContent('3');
    expect(within(result).getByTestId('check-photos')).toHaveTextContent('1 / 2');
    expect(within(result).getByTestId('check-verdict')).toHaveTextContent("3 problèmes à corriger avant l'import.");
    const table = within(result).getByRole('table', { name: 'Problèmes trouvés, par ligne et par colonne' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('2code_candidatLe code du candidat compte 14 chiffres');
    expect(rows[2]).toHaveTextContent('1fichierColonnes manquantes : sexe');
    expect(screen.queryByRole('button', { name: 'Importer' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Résultat de la vérification' })).toHaveFocus());

    // A corrected file replaces the draft's list.
    await user.upload(screen.getByLabelText(LIST_LABEL), csv('liste-corrigee.xlsx'));
    await user.click(screen.getByRole('button', { name: 'Vérifier à nouveau' }));
    await waitFor(() => expect(screen.getByTestId('check-error-count')).toHaveTextContent('0'));
    expect(checks[1]!.get('generation_id')).toBe('55');
    expect(screen.getByTestId('check-verdict')).toHaveTextContent('Aucun problème : les 3 candidats peuvent être importés.');

    await user.type(screen.getByLabelText('Titre du lot'), 'ab');
    await user.click(screen.getByRole('button', { name: 'Importer' }));
    expect(screen.getByText('Le titre compte de 3 à 200 caractères')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Titre du lot'), 'c — Kinshasa-Est');
    await user.click(screen.getByRole('button', { name: 'Importer' }));

    expect(await screen.findByRole('progressbar', { name: "Progression de l'import" })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?importation=31');
    const start = calls.find((c) => c.url.pathname === '/api/start-import-process')!;
    // The check's list is named: a draft holding another list since is refused (ADR 0143).
    expect(JSON.parse(String(start.init.body))).toEqual({ generation_id: 55, title: 'abc — Kinshasa-Est', list_id: 'liste-2' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/show/55'), { timeout: 4000 });
    expect(await screen.findByText('Liste importée : 3 candidats ajoutés au lot.')).toBeInTheDocument();
    // A long journey (two checks, an import followed to the batch): more than the default 5 s on a loaded machine.
  }, 20_000);

  it("shows the server's field errors next to their fields, and a failed import's translated error", async () => {
    let checked = 0;
    renderApp({
      path: '/check-file/1',
      signedIn: { profile: makeProfile(['root'], { scope: { institution_id: null, centre_id: null, province_id: 6 } }) },
      routes: {
        ...issuingRoutes(),
        'POST /api/check-import-file': () => {
          checked += 1;
          if (checked === 1)
            return jsonResponse({ code: 'validation_failed', message: 'Données invalides', errors: { file: ['Ce fichier n’est ni un CSV ni un classeur XLSX'] } }, 422);
          return jsonResponse({ data: { generation_id: 56, rows: 1, valid_rows: 1, errors: [], error_count: 0, format: 'csv', photos: null } });
        },
        'POST /api/start-import-process': () => jsonResponse({ data: { importation_id: 32 } }, 202),
        'GET /api/importations/32/tracking': () =>
          jsonResponse({
            data: { id: 32, generation_id: 56, status: 'failed', rows_total: 1, rows_done: 0, percent: 0, error: 'Le code 20260000100001 est déjà dans un autre lot' },
          }),
      },
    });
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByLabelText('Session')).toHaveValue('4'));
    // The user's province is chosen for them.
    await waitFor(() => expect(screen.getByLabelText('Province éducationnelle')).toHaveValue('6'));
    await user.upload(screen.getByLabelText(LIST_LABEL), csv('image.png'));
    await user.click(screen.getByRole('button', { name: 'Vérifier le fichier' }));
    const fileField = screen.getByLabelText(LIST_LABEL);
    await waitFor(() => expect(fileField).toHaveAttribute('aria-invalid', 'true'));
    expect(fileField).toHaveAccessibleDescription(/Ce fichier n’est ni un CSV ni un classeur XLSX/);

    await user.upload(screen.getByLabelText(LIST_LABEL), csv());
    await user.click(screen.getByRole('button', { name: 'Vérifier le fichier' }));
    await user.type(await screen.findByLabelText('Titre du lot'), 'Lot de test');
    await user.click(screen.getByRole('button', { name: 'Importer' }));
    expect(await screen.findByTestId('import-error')).toHaveTextContent('Le code 20260000100001 est déjà dans un autre lot');
    expect(screen.getByTestId('import-progress')).toHaveAttribute('data-import-status', 'failed');
    await user.click(screen.getByRole('button', { name: 'Revenir au fichier' }));
    // Back to the form for the same draft (its list is replaced by the next check).
    expect(await screen.findByRole('button', { name: 'Vérifier à nouveau' })).toBeInTheDocument();
  });

  it('finds a running import again when the user comes back, and lets them import another list meanwhile', async () => {
    const running = {
      id: 40,
      generation_id: 57,
      status: 'running',
      rows_total: 1200,
      rows_done: 300,
      percent: 25,
      error: null,
      kind: 'list',
      created_at: '2026-03-01T08:00:00.000Z',
      finished_at: null,
      generation: { id: 57, title: 'Lot Kinshasa-Est 2026', template_id: 1, status: 'created' },
    };
    const { router, calls } = renderApp({
      path: '/check-file/1',
      signedIn: { profile: makeProfile(['admin']) },
      routes: {
        ...issuingRoutes(),
        // Another template's import is not this page's.
        'GET /api/importations': () => jsonResponse({ data: [{ ...running, id: 41, generation: { ...running.generation, id: 58, template_id: 2 } }, running] }),
        'GET /api/importations/40/tracking': () =>
          jsonResponse({ data: { id: 40, generation_id: 57, status: 'running', rows_total: 1200, rows_done: 300, percent: 25, error: null } }),
      },
    });
    const progress = await screen.findByTestId('import-progress');
    expect(progress).toHaveTextContent('Lot Kinshasa-Est 2026');
    expect(await within(progress).findByText('300 / 1200 lignes (25 %)')).toBeInTheDocument();
    expect(progress).toHaveTextContent("L'import se poursuit sur le serveur même si vous quittez cette page");
    expect(calls.find((c) => c.url.pathname === '/api/importations')!.url.searchParams.get('active')).toBe('true');
    expect(screen.queryByRole('button', { name: 'Vérifier le fichier' })).not.toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Importer une autre liste pendant ce temps' }));
    expect(await screen.findByRole('button', { name: 'Vérifier le fichier' })).toBeInTheDocument();
    expect(screen.queryByTestId('import-progress')).not.toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it('follows the import its address names (from the dashboard, or after a reload), and names it there once started', async () => {
    const { router } = renderApp({
      path: '/check-file/1?importation=33',
      signedIn: { profile: makeProfile(['admin']) },
      routes: {
        ...issuingRoutes(),
        'GET /api/importations': () => jsonResponse({ data: [] }),
        'GET /api/importations/33/tracking': () =>
          jsonResponse({ data: { id: 33, generation_id: 59, status: 'completed', rows_total: 2, rows_done: 2, percent: 100, error: null } }),
      },
    });
    // Finished meanwhile: on to the batch.
    await waitFor(() => expect(router.state.location.pathname).toBe('/show/59'));
    expect(await screen.findByText('Liste importée : 2 candidats ajoutés au lot.')).toBeInTheDocument();
  });

  it('refuses a list over 20 MB before sending it', async () => {
    renderApp({ path: '/check-file/1', signedIn: { profile: makeProfile(['root']) }, routes: issuingRoutes() });
    const user = userEvent.setup();
    const big = csv('enorme.csv');
    Object.defineProperty(big, 'size', { value: 21 * 1024 * 1024 });
    await user.upload(await screen.findByLabelText(LIST_LABEL), big);
    expect(screen.getByText('« enorme.csv » dépasse la taille maximale de 20 Mo.')).toBeInTheDocument();
  });

  it('downloads the example list with the token', async () => {
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:example'), revokeObjectURL: vi.fn() });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { calls } = renderApp({
      path: '/check-file/1',
      signedIn: { profile: makeProfile(['root']) },
      routes: {
        ...issuingRoutes(),
        'GET /api/import/example': () => new Response('PK', { status: 200, headers: { 'Content-Disposition': 'attachment; filename="exemple-liste-candidats.xlsx"' } }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: "Télécharger l'exemple (XLSX)" }));
    await waitFor(() => expect(saved).toEqual(['exemple-liste-candidats.xlsx']));
    const call = calls.find((c) => c.url.pathname === '/api/import/example')!;
    expect(call.url.searchParams.get('format')).toBe('xlsx');
    expect(new Headers(call.init.headers).get('Authorization')).toBe('Bearer test-token');
  });

  it('downloads every error of the check as XLSX or CSV for the school, with the token', async () => {
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:errors'), revokeObjectURL: vi.fn() });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { calls } = renderApp({
      path: '/check-file/1',
      signedIn: { profile: makeProfile(['root']) },
      routes: {
        ...issuingRoutes(),
        'POST /api/check-import-file': () =>
          jsonResponse({
            data: {
              generation_id: 55,
              rows: 2,
              valid_rows: 1,
              errors: [{ row: 3, column: 'sexe', code: 'gender_invalid', message: 'Sexe illisible' }],
              error_count: 1,
              format: 'csv',
              photos: null,
            },
          }),
        'GET /api/check-import-file/55/errors': (url) =>
          new Response('PK', {
            status: 200,
            headers: { 'Content-Disposition': `attachment; filename="erreurs-liste-55.${url.searchParams.get('format')}"` },
          }),
      },
    });
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: "Modèle : Diplôme d'État" })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Session')).toHaveValue('4'));
    await waitFor(() => expect(within(screen.getByLabelText('Province éducationnelle')).getByRole('option', { name: /Kinshasa-Est/ })).toBeInTheDocument());
    await user.selectOptions(screen.getByLabelText('Province éducationnelle'), '5');
    await user.upload(screen.getByLabelText(LIST_LABEL), csv());
    await user.click(screen.getByRole('button', { name: 'Vérifier le fichier' }));
    const download = await screen.findByTestId('check-errors-download');
    await user.click(within(download).getByRole('button', { name: 'Télécharger les erreurs (Excel)' }));
    await waitFor(() => expect(saved).toEqual(['erreurs-liste-55.xlsx']));
    await user.click(within(download).getByRole('button', { name: 'Télécharger les erreurs (CSV)' }));
    await waitFor(() => expect(saved).toEqual(['erreurs-liste-55.xlsx', 'erreurs-liste-55.csv']));
    const exports = calls.filter((c) => c.url.pathname === '/api/check-import-file/55/errors');
    expect(exports.map((c) => c.url.searchParams.get('format'))).toEqual(['xlsx', 'csv']);
    expect(new Headers(exports[0]!.init.headers).get('Authorization')).toBe('Bearer test-token');
  });

  it('says when the template does not exist', async () => {
    renderApp({
      path: '/check-file/999',
      signedIn: { profile: makeProfile(['root']) },
      routes: { ...issuingRoutes(), 'GET /api/templates/999': () => jsonResponse({ code: 'not_found', message: 'Introuvable' }, 404) },
    });
    expect(await screen.findByTestId('template-not-found')).toHaveTextContent('Modèle introuvable');
  });
});
