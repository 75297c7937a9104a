import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { issuingRoutes, provincePlaces } from '@/test/issuing';
import { renderApp } from '@/test/render-app';
import * as saving from '@/lib/save-file';
import { placesCsv, searchKey } from './province-places';

afterEach(() => {
  vi.restoreAllMocks();
});

async function chooseProvince() {
  const user = userEvent.setup();
  expect(await screen.findByRole('heading', { name: "Modèle : Diplôme d'État" })).toBeInTheDocument();
  await waitFor(() => expect(screen.getByLabelText('Session')).toHaveValue('4'));
  await waitFor(() => expect(within(screen.getByLabelText('Province éducationnelle')).getAllByRole('option').length).toBeGreaterThan(1));
  await user.selectOptions(screen.getByLabelText('Province éducationnelle'), '6');
  return user;
}

describe("/check-file: the province's schools, centres and options", () => {
  it('lists them with codes once a province is chosen, searches without accents, and downloads them as a CSV', async () => {
    const saved: { blob: Blob; name: string }[] = [];
    vi.spyOn(saving, 'saveFile').mockImplementation((blob, name) => void saved.push({ blob, name }));
    const { calls } = renderApp({ path: '/check-file/1', signedIn: { profile: makeProfile(['admin']) }, routes: issuingRoutes() });
    const user = await chooseProvince();
    const panel = await screen.findByTestId('province-places');
    expect(within(panel).getByRole('heading', { name: 'Écoles, centres et options : Kinshasa-Funa' })).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/reference-data/places' && c.url.searchParams.get('province') === '6')).toBe(true);
    const table = within(panel).getByTestId('places-schools');
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(within(table).getByText('KIN-FUN-C1-E1')).toBeInTheDocument();
    // No management for who does not keep the lists.
    expect(within(panel).queryByTestId('places-manage')).toBeNull();

    await user.type(within(panel).getByLabelText(/Chercher une école/), 'elikya');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).getByText('Lycée Élikya')).toBeInTheDocument();
    expect(within(panel).getByTestId('places-count')).toHaveTextContent('1 école');
    await user.clear(within(panel).getByLabelText(/Chercher une école/));
    await user.type(within(panel).getByLabelText(/Chercher une école/), 'nsele');
    await waitFor(() => expect(within(table).getByText("Complexe scolaire N'Sele")).toBeInTheDocument());

    await user.click(within(panel).getByTestId('places-download'));
    expect(saved[0]!.name).toBe('ecoles-KIN-FUN.csv');
    const text = await saved[0]!.blob.text();
    expect(text).toContain('type;code;nom;ville;province;centre;options');
    expect(text).toContain('ecole;KIN-FUN-C1-E1;Institut Saint-Joseph;Kinshasa;KIN-FUN;KIN-FUN-C1;BC LIT');
    expect(text).toContain('centre;KIN-FUN-C2;Centre Lycée Bosangani;Kinshasa;KIN-FUN;;');
  }, 20_000);

  it('lets national staff add a school, rename one and import a CSV, showing the server’s translated refusals', async () => {
    const sent: { method: string; path: string; body: unknown }[] = [];
    renderApp({
      path: '/check-file/1',
      signedIn: { profile: makeProfile(['admin']) },
      routes: {
        ...issuingRoutes(),
        'GET /api/reference-data/places': () => jsonResponse({ data: provincePlaces(6, true) }),
        'POST /api/reference-data/institutions': (_url, init) => {
          sent.push({ method: 'POST', path: 'institutions', body: JSON.parse(String(init.body)) });
          return sent.length === 1
            ? jsonResponse({ code: 'validation_failed', message: 'Données invalides', errors: { code: ['Le code KIN-FUN-C1-E1 est déjà celui d’une école ou d’un centre'] } }, 422)
            : jsonResponse({ data: { id: 30, code: 'KIN-FUN-C1-E9', name: 'Institut Tumaini', city: 'Kinshasa', country_id: 1, centre_id: 11, educ_province_id: 6 } });
        },
        'PATCH /api/reference-data/institutions/22': (_url, init) => {
          sent.push({ method: 'PATCH', path: 'institutions/22', body: JSON.parse(String(init.body)) });
          return jsonResponse({ data: { id: 22, code: 'KIN-FUN-C1-E2', name: 'Lycée Élikya de Funa', city: 'Kinshasa', country_id: 1, centre_id: 11, educ_province_id: 6 } });
        },
        'POST /api/reference-data/import': () =>
          jsonResponse(
            { code: 'validation_failed', message: 'Données invalides', errors: { file: ["Lignes à corriger : 1. Rien n'a été enregistré", 'Ligne 3 : option « ZZZ » inconnue'] } },
            422,
          ),
      },
    });
    const user = await chooseProvince();
    const manage = await screen.findByTestId('places-manage');
    const add = within(manage).getByTestId('places-add');
    await user.type(within(add).getByLabelText('Code'), 'KIN-FUN-C1-E1');
    await user.type(within(add).getByLabelText('Nom'), 'Institut Tumaini');
    await user.type(within(add).getByLabelText('Ville'), 'Kinshasa');
    await user.selectOptions(within(add).getByLabelText('Centre'), '11');
    await user.click(within(add).getByRole('button', { name: 'Ajouter' }));
    expect(await within(manage).findByTestId('places-add-errors')).toHaveTextContent('Le code KIN-FUN-C1-E1 est déjà celui');
    await user.clear(within(add).getByLabelText('Code'));
    await user.type(within(add).getByLabelText('Code'), 'kin-fun-c1-e9');
    await user.click(within(add).getByRole('button', { name: 'Ajouter' }));
    expect(await within(manage).findByTestId('places-done')).toHaveTextContent('KIN-FUN-C1-E9 est ajouté.');
    expect(sent[1]).toEqual({ method: 'POST', path: 'institutions', body: { code: 'kin-fun-c1-e9', name: 'Institut Tumaini', city: 'Kinshasa', centre_id: 11, option_ids: [] } });

    await user.click(screen.getByRole('button', { name: 'Renommer Lycée Élikya' }));
    const input = screen.getByLabelText('Nouveau nom');
    await user.clear(input);
    await user.type(input, 'Lycée Élikya de Funa');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(sent.some((s) => s.path === 'institutions/22')).toBe(true));
    expect(sent.find((s) => s.path === 'institutions/22')!.body).toEqual({ name: 'Lycée Élikya de Funa' });

    const importForm = within(manage).getByTestId('places-import');
    await user.click(within(importForm).getByRole('button', { name: "Importer ce fichier d'écoles et de centres" }));
    expect(within(importForm).getByTestId('places-import-errors')).toHaveTextContent('Choisissez un fichier CSV');
    await user.upload(within(importForm).getByLabelText(/Importer des écoles/), new File(['type;code;nom\n'], 'ecoles.csv', { type: 'text/csv' }));
    await user.click(within(importForm).getByRole('button', { name: "Importer ce fichier d'écoles et de centres" }));
    const errors = await within(importForm).findByTestId('places-import-errors');
    expect(
      within(errors)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(["Lignes à corriger : 1. Rien n'a été enregistré", 'Ligne 3 : option « ZZZ » inconnue']);
  }, 20_000);

  it('shows a refusal of the import in the language chosen after it appeared', async () => {
    renderApp({
      path: '/check-file/1',
      signedIn: { profile: makeProfile(['admin']) },
      routes: { ...issuingRoutes(), 'GET /api/reference-data/places': () => jsonResponse({ data: provincePlaces(6, true) }) },
    });
    const user = await chooseProvince();
    const importForm = within(await screen.findByTestId('places-manage')).getByTestId('places-import');
    await user.click(within(importForm).getByRole('button', { name: "Importer ce fichier d'écoles et de centres" }));
    expect(within(importForm).getByTestId('places-import-errors')).toHaveTextContent('Choisissez un fichier CSV');
    const { i18n } = await import('@/lib/i18n');
    await act(() => i18n.changeLanguage('en'));
    await waitFor(() => expect(within(importForm).getByTestId('places-import-errors')).toHaveTextContent('Choose a CSV file'));
  });

  it('folds text as the API does and writes the CSV in the import’s columns', () => {
    expect(searchKey("N'SÉLÉ-Kinkole")).toBe('nselekinkole');
    expect(searchKey('François')).toBe(searchKey('FRANCOIS'));
    const csv = placesCsv({ ...provincePlaces(6), schools: [{ ...provincePlaces(6).schools[0]!, name: 'Institut "La Sagesse"; Funa' }] });
    expect(csv.startsWith('\uFEFFtype;code;nom;ville;province;centre;options\r\n')).toBe(true);
    expect(csv).toContain('ecole;KIN-FUN-C1-E1;"Institut ""La Sagesse""; Funa";Kinshasa;KIN-FUN;KIN-FUN-C1;BC LIT');
  });
});
