import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@/lib/config';
import { jsonResponse } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

const DIPLOMA_ID = 'AbCdEfGhIjKlMnOpQrStUv';
const sessions = () =>
  jsonResponse({
    data: [
      { id: 1, name: 'Session 2025', year: 2025, is_current: false },
      { id: 2, name: 'Session 2026', year: 2026, is_current: true },
    ],
  });

type Routes = Parameters<typeof renderApp>[0]['routes'];

async function open(routes: Routes = {}, path = '/student-check') {
  const app = renderApp({ path, routes: { 'GET /api/sessions': sessions, ...routes } });
  await screen.findByRole('heading', { level: 1, name: 'Espace candidat' });
  // The current session is chosen once the list has arrived.
  await screen.findByRole('option', { name: 'Session 2026' });
  return { ...app, user: userEvent.setup() };
}

async function fill(user: ReturnType<typeof userEvent.setup>, overrides: Partial<Record<string, string>> = {}) {
  const values = {
    Nom: 'Ngalula',
    Postnom: 'Kabamba',
    Prénom: 'Élodie',
    'Code candidat': '20260000000001',
    Téléphone: '812345678',
    'Nom complet d’un premier camarade': 'Mukendi Tshibangu Patrick',
    'Nom complet d’un second camarade': 'Mbuyamba Tshilombo Marie-Élodie',
    ...overrides,
  };
  await user.type(screen.getByLabelText('Nom'), values.Nom);
  await user.type(screen.getByLabelText('Postnom'), values.Postnom);
  await user.type(screen.getByLabelText('Prénom'), values.Prénom);
  await user.type(screen.getByLabelText('Code candidat'), values['Code candidat']);
  if (values.Téléphone) await user.type(screen.getByLabelText('Téléphone'), values.Téléphone);
  await user.type(screen.getByLabelText('Date de naissance'), '2007-03-14');
  await user.type(screen.getByLabelText(/premier camarade/), values['Nom complet d’un premier camarade']);
  await user.type(screen.getByLabelText(/second camarade/), values['Nom complet d’un second camarade']);
}

function formOf(call: { init: RequestInit }): Record<string, string> {
  return Object.fromEntries([...(call.init.body as FormData).entries()].map(([k, v]) => [k, String(v)]));
}

const recognised = (overrides: object = {}) =>
  jsonResponse({
    data: {
      recognised: true,
      candidate: { fullname: 'Ngalula Kabamba Élodie', session: 'Session 2026' },
      result: { passed: true, percentage: 72.5 },
      diploma_status: 'available',
      diploma_id: DIPLOMA_ID,
      ...overrides,
    },
  });

describe('candidate check (/student-check, /mon-{product})', () => {
  it('requires every field (spec section 5) before calling the server', async () => {
    const { user, calls } = await open();
    await user.selectOptions(screen.getByLabelText('Session'), '');
    await user.click(screen.getByRole('button', { name: 'Rechercher mon diplôme' }));
    for (const label of ['Nom', 'Postnom', 'Prénom', 'Code candidat', 'Date de naissance', /premier camarade/, /second camarade/]) {
      const field = screen.getByLabelText(label);
      expect(field, String(label)).toHaveAttribute('aria-invalid', 'true');
      expect(field.getAttribute('aria-describedby')).toMatch(/-error/);
    }
    expect(screen.getAllByText('Ce champ est requis').length).toBeGreaterThanOrEqual(7);
    // The phone is optional (spec section 5): nothing to say about an empty one.
    expect(screen.queryByText('Le numéro de téléphone est requis')).toBeNull();
    expect(screen.getByLabelText('Téléphone')).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Choisissez la session')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('checks the 14-digit code, the names and two different classmates other than oneself', async () => {
    const { user, calls } = await open();
    await fill(user, {
      'Code candidat': '2026000',
      Postnom: 'Kab4mba',
      'Nom complet d’un premier camarade': 'Patrick',
      'Nom complet d’un second camarade': 'élodie NGALULA kabamba',
    });
    await user.click(screen.getByRole('button', { name: 'Rechercher mon diplôme' }));
    expect(await screen.findByText('Le code candidat doit compter exactement 14 chiffres')).toBeInTheDocument();
    expect(screen.getByText("Utilisez uniquement des lettres, des espaces, des apostrophes ou des traits d'union")).toBeInTheDocument();
    expect(screen.getByText('Écrivez le nom complet : au moins deux noms')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.clear(screen.getByLabelText('Code candidat'));
    await user.type(screen.getByLabelText('Code candidat'), '20260000000001');
    await user.clear(screen.getByLabelText('Postnom'));
    await user.type(screen.getByLabelText('Postnom'), 'Kabamba');
    await user.clear(screen.getByLabelText(/premier camarade/));
    await user.type(screen.getByLabelText(/premier camarade/), 'Elodie Ngalula Kabamba');
    await user.click(screen.getByRole('button', { name: 'Rechercher mon diplôme' }));
    expect(await screen.findAllByText('Indiquez un camarade, pas vous-même')).toHaveLength(2);

    await user.clear(screen.getByLabelText(/premier camarade/));
    await user.type(screen.getByLabelText(/premier camarade/), 'Mukendi Tshibangu Patrick');
    await user.clear(screen.getByLabelText(/second camarade/));
    await user.type(screen.getByLabelText(/second camarade/), 'patrick mukendi TSHIBANGU');
    await user.click(screen.getByRole('button', { name: 'Rechercher mon diplôme' }));
    expect(await screen.findByText('Indiquez deux camarades différents')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('sends the v2 multipart fields (names joined) and leads to the diploma when it is published', async () => {
    const { user, calls, router } = await open({
      'POST /api/v2/verify-candidate': () => recognised(),
      [`GET /api/verify/${DIPLOMA_ID}`]: () =>
        jsonResponse({ data: { verdict: 'authentic', verdict_label: 'Authentique', source: 'link', checks: [], diploma: { id: DIPLOMA_ID } } }),
    });
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Rechercher mon diplôme' }));

    const result = await screen.findByTestId('candidate-result');
    const call = calls.find((c) => c.method === 'POST')!;
    expect(call.url.pathname).toBe('/api/v2/verify-candidate');
    expect(new Headers(call.init.headers).get('Authorization')).toBeNull();
    expect(formOf(call)).toEqual({
      fullname: 'Ngalula Kabamba Élodie',
      'api-token': DEFAULT_CONFIG.candidateCheckToken,
      code: '20260000000001',
      birthdate: '2007-03-14',
      fullname_collegue_1: 'Mukendi Tshibangu Patrick',
      fullname_collegue_2: 'Mbuyamba Tshilombo Marie-Élodie',
      session_id: '2',
      phone: '+243812345678',
    });
    expect(within(result).getByRole('heading', { name: 'Candidat reconnu' })).toHaveFocus();
    expect(result).toHaveTextContent('Ngalula Kabamba Élodie');
    expect(result).toHaveTextContent('Session 2026');
    expect(result).toHaveTextContent(/Admis — 72,5\s%/);

    const link = within(result).getByRole('link', { name: 'Voir mon diplôme' });
    expect(link).toHaveAttribute('href', `/view-certificate?id=${DIPLOMA_ID}`);
    await user.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: 'Mon diplôme' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/view-certificate');
    expect(router.state.location.search).toBe(`?id=${DIPLOMA_ID}`);
  });

  it('sends no phone when none is given (it is optional)', async () => {
    const { user, calls } = await open({ 'POST /api/v2/verify-candidate': () => recognised() });
    await fill(user, { Téléphone: '' });
    await user.click(screen.getByRole('button', { name: 'Rechercher mon diplôme' }));
    await screen.findByTestId('candidate-result');
    expect(formOf(calls.find((c) => c.method === 'POST')!)).not.toHaveProperty('phone');
  });

  it('accepts a national number typed with its 0 (0812345678) and sends it as +243812345678', async () => {
    const { user, calls } = await open({ 'POST /api/v2/verify-candidate': () => recognised() });
    await fill(user, { Téléphone: '0812345678' });
    await user.click(screen.getByRole('button', { name: 'Rechercher mon diplôme' }));
    await screen.findByTestId('candidate-result');
    expect(formOf(calls.find((c) => c.method === 'POST')!).phone).toBe('+243812345678');
  });

  it('says when the diploma is not published yet, and when the candidate did not pass', async () => {
    let answer = recognised({ diploma_status: 'pending', diploma_id: null });
    const { user } = await open({ 'POST /api/v2/verify-candidate': () => answer });
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Rechercher mon diplôme' }));
    const result = await screen.findByTestId('candidate-result');
    expect(result).toHaveTextContent("Votre diplôme n'est pas encore publié");
    expect(within(result).queryByRole('link', { name: 'Voir mon diplôme' })).toBeNull();

    answer = recognised({ result: { passed: false, percentage: 41 }, diploma_status: 'none', diploma_id: null });
    await user.click(screen.getByRole('button', { name: 'Rechercher mon diplôme' }));
    await waitFor(() => expect(screen.getByTestId('candidate-result')).toHaveTextContent(/Non admis — 41\s%/));
    expect(screen.getByTestId('candidate-result')).toHaveTextContent('sans admission');
  });

  it('says plainly when the candidate is not recognised, and when too many attempts were made', async () => {
    let status = 200;
    const { user } = await open({
      'POST /api/v2/verify-candidate': () =>
        status === 200 ? jsonResponse({ data: { recognised: false } }) : jsonResponse({ code: 'rate_limited', message: 'Trop de tentatives. Réessayez dans 3540 secondes.' }, 429),
    });
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Rechercher mon diplôme' }));
    const refused = await screen.findByTestId('candidate-not-recognised');
    expect(refused).toHaveTextContent("Nous n'avons pas pu vous identifier");
    expect(refused).toHaveFocus();

    status = 429;
    await user.click(screen.getByRole('button', { name: 'Rechercher mon diplôme' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('La vérification a échoué : Trop de tentatives. Réessayez dans 3540 secondes.');
    expect(screen.queryByTestId('candidate-not-recognised')).toBeNull();
  });

  it('says why the check failed in the language chosen after it appeared, the server’s reason as it came', async () => {
    const { user } = await open({
      'POST /api/v2/verify-candidate': () => jsonResponse({ code: 'rate_limited', message: 'Trop de tentatives. Réessayez dans 3540 secondes.' }, 429),
    });
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Rechercher mon diplôme' }));
    expect(await screen.findByTestId('candidate-error')).toHaveTextContent('La vérification a échoué : Trop de tentatives. Réessayez dans 3540 secondes.');
    const { i18n } = await import('@/lib/i18n');
    await act(() => i18n.changeLanguage('en'));
    expect(await screen.findByTestId('candidate-error')).toHaveTextContent('Verification failed: Trop de tentatives. Réessayez dans 3540 secondes.');
  });

  it('puts the server’s field messages under their fields', async () => {
    const { user } = await open({
      'POST /api/v2/verify-candidate': () => jsonResponse({ code: 'validation_failed', message: 'Données invalides', errors: { birthdate: ['Date de naissance invalide'] } }, 422),
    });
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Rechercher mon diplôme' }));
    expect(await screen.findByText('Date de naissance invalide')).toBeInTheDocument();
    expect(screen.getByLabelText('Date de naissance')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('Données invalides');
  });

  it('is also /mon-{product}, in English', async () => {
    const { i18n } = await import('@/lib/i18n');
    await i18n.changeLanguage('en');
    renderApp({ path: '/mon-exetat', routes: { 'GET /api/sessions': sessions } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Candidates' })).toBeInTheDocument();
    expect(screen.getByLabelText('Middle name')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Find my diploma' })).toBeInTheDocument();
  });
});
