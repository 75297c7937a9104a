import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { issuingRoutes } from '@/test/issuing';
import { renderApp } from '@/test/render-app';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('/certificates (step 1)', () => {
  it("lists the country's and schools' templates with a schematic preview, and goes to step 2", async () => {
    const { router, calls } = renderApp({ path: '/certificates', signedIn: { profile: makeProfile(['root']) }, routes: issuingRoutes() });
    const national = await screen.findByTestId('template-card-1');
    expect(within(national).getByRole('heading', { name: "Diplôme d'État" })).toBeInTheDocument();
    expect(national).toHaveTextContent('Modèle national — République démocratique du Congo');
    const preview = await within(national).findByRole('img', { name: "Aperçu schématique du modèle Diplôme d'État" });
    expect(preview).toHaveAttribute('data-title-colour', '#1d3461');
    const school = await screen.findByTestId('template-card-2');
    expect(school).toHaveTextContent("Modèle de l'école Lycée Lumière");
    expect(school).toHaveTextContent('Dérivé du modèle national');
    expect(await within(school).findByTestId('template-preview-2')).toHaveAttribute('data-border-colour', '#6d1f33');
    // The country's templates are asked for by the owner the national template names.
    expect(calls.some((c) => c.url.pathname === '/api/templates' && c.url.searchParams.get('owner') === '1_country')).toBe(true);

    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Type de document'), 'attestation_reussite');
    expect(screen.queryByTestId('template-card-1')).not.toBeInTheDocument();
    expect(screen.getByText('Aucun modèle de ce type.')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Type de document'), 'diplome_etat');

    await user.click(within(await screen.findByTestId('template-card-1')).getByRole('link', { name: "Choisir le modèle Diplôme d'État" }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/check-file/1'));
  });

  it("asks a school's staff for their school's templates", async () => {
    const profile = makeProfile(['admin'], { scope: { institution_id: 21, centre_id: null, province_id: 6 } });
    const { calls } = renderApp({ path: '/certificates', signedIn: { profile }, routes: issuingRoutes() });
    expect(await screen.findByTestId('template-card-2')).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/templates' && c.url.searchParams.get('owner') === '21_institution')).toBe(true);
  });

  it('shows templates without the choice to a user who may only view', async () => {
    renderApp({ path: '/certificates', signedIn: { profile: makeProfile(['validateur']) }, routes: issuingRoutes() });
    expect(await screen.findByTestId('template-card-1')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Choisir le modèle/ })).not.toBeInTheDocument();
    expect(screen.queryByTestId('from-registry')).not.toBeInTheDocument();
  });

  it('creates a batch from the national results, follows its import and opens it', async () => {
    let polls = 0;
    const { router, calls } = renderApp({
      path: '/certificates',
      signedIn: { profile: makeProfile(['root']) },
      routes: {
        ...issuingRoutes(),
        'POST /api/generations/import/from-exetatcd': () => jsonResponse({ data: { generation_id: 77, importation_id: 9, rows: 120, skipped: 2 } }, 202),
        'GET /api/importations/9/tracking': () => {
          polls += 1;
          return jsonResponse({
            data:
              polls < 2
                ? { id: 9, generation_id: 77, status: 'running', rows_total: 120, rows_done: 60, percent: 50, error: null }
                : { id: 9, generation_id: 77, status: 'completed', rows_total: 120, rows_done: 120, percent: 100, error: null },
          });
        },
      },
    });
    const user = userEvent.setup();
    const form = await screen.findByTestId('from-registry');
    await user.click(within(form).getByRole('button', { name: 'Créer le lot depuis les résultats' }));
    expect(within(form).getByText('La province éducationnelle est requise')).toBeInTheDocument();

    await waitFor(() => expect(within(form).getByLabelText('Session')).toHaveValue('4'));
    await user.selectOptions(within(form).getByLabelText('Province éducationnelle'), '6');
    await waitFor(() => expect(within(form).getAllByRole('option', { name: "Diplôme d'État" }).length).toBeGreaterThan(0));
    await user.selectOptions(within(form).getByLabelText('Modèle'), '1');
    await user.click(within(form).getByRole('button', { name: 'Créer le lot depuis les résultats' }));

    expect(await screen.findByTestId('registry-summary')).toHaveTextContent('120 candidats admis repris des résultats. 2 candidats laissés de côté');
    const post = calls.find((c) => c.method === 'POST' && c.url.pathname === '/api/generations/import/from-exetatcd')!;
    expect(JSON.parse(String(post.init.body))).toEqual({ template_id: 1, session_id: 4, province_id: 6 });
    expect(await screen.findByRole('progressbar', { name: "Progression de l'import" })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/show/77'), { timeout: 4000 });
  });

  it("shows the fields' errors in the language chosen after they appeared", async () => {
    renderApp({ path: '/certificates', signedIn: { profile: makeProfile(['root']) }, routes: issuingRoutes() });
    const user = userEvent.setup();
    const form = await screen.findByTestId('from-registry');
    await user.click(within(form).getByRole('button', { name: 'Créer le lot depuis les résultats' }));
    expect(within(form).getByText('La province éducationnelle est requise')).toBeInTheDocument();
    const box = screen.getByTestId('find-result');
    await user.type(within(box).getByLabelText('Code du candidat'), '123');
    await user.click(within(box).getByRole('button', { name: 'Rechercher' }));
    expect(within(box).getByText('Le code du candidat compte exactement 14 chiffres')).toBeInTheDocument();
    const { i18n } = await import('@/lib/i18n');
    await act(() => i18n.changeLanguage('en'));
    expect(await within(form).findByText('The educational province is required')).toBeInTheDocument();
    expect(within(box).getByText('The candidate code is exactly 14 digits')).toBeInTheDocument();
    expect(screen.queryByText('La province éducationnelle est requise')).not.toBeInTheDocument();
  });

  it("finds a candidate's result in the national results", async () => {
    const { calls } = renderApp({
      path: '/certificates',
      signedIn: { profile: makeProfile(['root']) },
      routes: {
        ...issuingRoutes(),
        'POST /api/generations/find-exetat': (_url, init) => {
          const body = JSON.parse(String(init.body)) as { matricule: string };
          if (body.matricule !== '20260000100001') return jsonResponse({ code: 'not_found', message: 'Aucun résultat pour ce code' }, 404);
          return jsonResponse({
            data: {
              candidate_code: '20260000100001',
              last_name: 'KABONGO',
              middle_name: 'WA ILUNGA',
              first_name: 'Marie-Claire',
              birth_date: '2007-03-14',
              birth_place: 'Kinshasa',
              gender: 'F',
              school: { code: 'KIN-FUN-C1-E1', name: 'Lycée Lumière' },
              centre: { code: 'KIN-FUN-C1', name: 'Centre Funa 1' },
              option: { code: 'LIT', name: 'Littéraire' },
              percentage: 72.5,
              passed: true,
              session: { id: 4, name: 'Session 2026', year: 2026 },
            },
          });
        },
      },
    });
    const user = userEvent.setup();
    const box = await screen.findByTestId('find-result');
    await waitFor(() => expect(within(box).getByLabelText('Session')).toHaveValue('4'));
    await user.type(within(box).getByLabelText('Code du candidat'), '123');
    await user.click(within(box).getByRole('button', { name: 'Rechercher' }));
    expect(within(box).getByText('Le code du candidat compte exactement 14 chiffres')).toBeInTheDocument();

    await user.clear(within(box).getByLabelText('Code du candidat'));
    await user.type(within(box).getByLabelText('Code du candidat'), '20260000100009');
    await user.click(within(box).getByRole('button', { name: 'Rechercher' }));
    expect(await within(box).findByTestId('find-result-error')).toHaveTextContent('Aucun résultat pour ce code');

    await user.clear(within(box).getByLabelText('Code du candidat'));
    await user.type(within(box).getByLabelText('Code du candidat'), '20260000100001');
    await user.click(within(box).getByRole('button', { name: 'Rechercher' }));
    const answer = await within(box).findByTestId('find-result-answer');
    expect(answer).toHaveTextContent('KABONGO WA ILUNGA Marie-Claire');
    expect(answer).toHaveTextContent('Lycée Lumière');
    expect(within(answer).getByTestId('find-result-outcome')).toHaveTextContent('Admis');
    const post = calls.filter((c) => c.url.pathname === '/api/generations/find-exetat').at(-1)!;
    expect(JSON.parse(String(post.init.body))).toEqual({ matricule: '20260000100001', session: 4 });
  });
});
