import type { ValidationBatchView, ValidationItemView } from '@sceau/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { makeAbilities, pageMeta } from '@/test/generations';
import { renderApp } from '@/test/render-app';

function makeBatch(overrides: Partial<ValidationBatchView> = {}): ValidationBatchView {
  return {
    id: 12,
    title: 'Kinshasa-Est 2025',
    status: 'pending_validation',
    session: { id: 3, name: 'Session 2025' },
    province: { id: 5, name: 'Kinshasa-Est' },
    institution: null,
    centre: null,
    created_at: '2026-03-01T08:00:00.000Z',
    counts: {
      items: 3,
      photos: { pending: 2, validated: 1, rejected: 0 },
      data: { pending: 3, validated: 0, rejected: 0 },
      candidates: { pending: 3, validated: 0, rejected: 0 },
    },
    open: true,
    abilities: makeAbilities({ view: true, view_rejected: true, validate_photos: true, validate_data: true }),
    ...overrides,
  };
}

function makeVItem(id: number, overrides: Partial<ValidationItemView> = {}): ValidationItemView {
  return {
    id,
    generation_id: 12,
    candidate_code: `1234567890${String(id).padStart(4, '0')}`,
    last_name: 'MUKENDI',
    middle_name: 'KABONGO',
    first_name: 'Aline',
    birth_date: '2006-05-14',
    birth_place: 'Kinshasa',
    gender: 'F',
    option: { id: 1, name: 'Scientifique' },
    institution: { id: 21, name: 'Institut Bosangani' },
    centre: { id: 31, name: 'Centre Gombe' },
    photo_status: 'pending',
    data_status: 'pending',
    status: 'pending',
    photo_url: `/api/validations/photos/12/items/${id}/photo?v=1`,
    rejected: false,
    rejection_reason: null,
    rejected_by: null,
    rejected_at: null,
    updated_at: '2026-03-01T08:00:00.000Z',
    ...overrides,
  };
}

const aline = makeVItem(501);
const jean = makeVItem(502, { last_name: 'ILUNGA', middle_name: null, first_name: 'Jean', gender: 'M' });
const paul = makeVItem(503, { last_name: 'KASONGO', middle_name: null, first_name: 'Paul', photo_status: 'validated' });
const items = [aline, jean, paul];

function changed(generation: Partial<ValidationBatchView> = {}, skipped: number[] = []) {
  return () => jsonResponse({ data: { message: 'Validation enregistrée.', items: [], skipped, generation: makeBatch(generation) } });
}

function photoRoutes(extra: Record<string, (url: URL, init: RequestInit) => Response> = {}) {
  const routes: Record<string, (url: URL, init: RequestInit) => Response> = {
    'GET /api/validations/photos/12': () => jsonResponse({ data: items, meta: pageMeta(items.length), generation: makeBatch() }),
  };
  for (const item of items)
    routes[`GET /api/validations/photos/12/items/${item.id}/photo`] = () =>
      new Response(new Blob(['jpeg'], { type: 'image/jpeg' }), { status: 200, headers: { 'Content-Type': 'image/jpeg' } });
  return { ...routes, ...extra };
}

const bodyOf = (calls: { method: string; url: URL; init: RequestInit }[], method: string, path: string) => {
  const call = calls.find((c) => c.method === method && c.url.pathname === path);
  return call ? JSON.parse(String(call.init.body)) : undefined;
};

const validator = { profile: makeProfile(['validateur']) };

beforeEach(() => {
  let n = 0;
  Object.assign(URL, { createObjectURL: vi.fn(() => `blob:photo-${++n}`), revokeObjectURL: vi.fn() });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('/validate-picture', () => {
  it('shows the batch and the photos fetched with the token, and validates a selection', async () => {
    const { calls } = renderApp({
      path: '/validate-picture/12',
      signedIn: validator,
      routes: photoRoutes({ 'POST /api/validations/photos/validate': changed({ status: 'ready_for_generation' }) }),
    });
    const header = await screen.findByTestId('validation-header');
    expect(within(header).getByRole('heading', { level: 1, name: 'Validation des photos' })).toBeInTheDocument();
    expect(header).toHaveTextContent('Kinshasa-Est 2025');
    expect(screen.getByTestId('count-pending')).toHaveTextContent('2 en attente');
    const photo = await screen.findByRole('img', { name: 'Photo de MUKENDI KABONGO Aline' });
    expect(photo.getAttribute('src')).toMatch(/^blob:photo-/);
    const photoCall = calls.find((c) => c.url.pathname === '/api/validations/photos/12/items/501/photo')!;
    expect(new Headers(photoCall.init.headers).get('Authorization')).toBe('Bearer test-token');

    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Sélectionner MUKENDI KABONGO Aline' }));
    await user.click(screen.getByRole('checkbox', { name: 'Sélectionner ILUNGA Jean' }));
    expect(screen.getByText('2 candidats sélectionnés')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Valider la sélection' }));
    await waitFor(() => expect(bodyOf(calls, 'POST', '/api/validations/photos/validate')).toEqual({ items: [501, 502] }));
    const ready = await screen.findByTestId('validation-ready');
    // A validator cannot launch: the notice leads to the batch.
    expect(within(ready).getByRole('link', { name: 'Voir le lot' })).toHaveAttribute('href', '/show/12');
  });

  it('leads one who may generate to the launch once the batch is ready', async () => {
    renderApp({
      path: '/validate-picture/12',
      signedIn: { profile: makeProfile(['admin']) },
      routes: photoRoutes({ 'POST /api/validations/photos/validate': changed({ status: 'ready_for_generation' }) }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Valider ILUNGA Jean' }));
    const ready = await screen.findByTestId('validation-ready');
    expect(within(ready).getByRole('link', { name: 'Lancer la génération' })).toHaveAttribute('href', '/otp-generation/12');
  });

  it('says a batch outside the scope is not found, under the page title', async () => {
    renderApp({ path: '/validate-picture/99', signedIn: validator });
    expect(await screen.findByTestId('batch-not-found')).toHaveTextContent('Lot introuvable');
    expect(screen.getByRole('heading', { level: 1, name: 'Validation des photos' })).toBeInTheDocument();
  });

  it('requires a reason to reject', async () => {
    const { calls } = renderApp({ path: '/validate-picture/12', signedIn: validator, routes: photoRoutes({ 'POST /api/validations/photos/reject': changed() }) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Rejeter MUKENDI KABONGO Aline' }));
    const dialog = screen.getByRole('dialog', { name: 'Rejeter le candidat' });
    await user.click(within(dialog).getByRole('button', { name: 'Rejeter' }));
    expect(within(dialog).getByText('Le motif est requis (au moins 3 caractères).')).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/validations/photos/reject')).toBe(false);
    await user.type(within(dialog).getByLabelText('Motif du rejet'), 'Photo floue');
    await user.click(within(dialog).getByRole('button', { name: 'Rejeter' }));
    await waitFor(() => expect(bodyOf(calls, 'POST', '/api/validations/photos/reject')).toEqual({ item: 501, reason: 'Photo floue' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('posts the editor’s settings', async () => {
    const { calls } = renderApp({ path: '/validate-picture/12', signedIn: validator, routes: photoRoutes({ 'POST /api/validations/photos/validate': changed() }) });
    await screen.findByRole('img', { name: 'Photo de MUKENDI KABONGO Aline' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Modifier la photo de MUKENDI KABONGO Aline' }));
    const dialog = screen.getByRole('dialog', { name: 'Modifier la photo de MUKENDI KABONGO Aline' });
    const brightness = within(dialog).getByRole('slider', { name: /Luminosité/ });
    fireEvent.change(brightness, { target: { value: '150' } });
    expect(brightness).toHaveAttribute('aria-valuetext', '150 %');
    fireEvent.change(within(dialog).getByRole('slider', { name: /Teinte/ }), { target: { value: '-20' } });
    expect(within(dialog).getByRole('img', { name: 'Aperçu de la photo de MUKENDI KABONGO Aline' }).style.filter).toContain('brightness(150%)');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Recadrer la photo' }));
    for (const [label, value] of [
      ['Gauche (x)', '10'],
      ['Haut (y)', '20'],
      ['Largeur (w)', '200'],
      ['Hauteur (h)', '260'],
    ] as const) {
      fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
    }
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer et valider' }));
    await waitFor(() =>
      expect(bodyOf(calls, 'POST', '/api/validations/photos/validate')).toEqual({
        item: 501,
        edits: { brightness: 150, contrast: 100, hue: -20, width: 300, height: 400, crop: { x: 10, y: 20, w: 200, h: 260 } },
      }),
    );
  });

  it('edits from the candidate’s original when one is kept (ADR 0147): the original is shown, the edits say so', async () => {
    const { calls } = renderApp({
      path: '/validate-picture/12',
      signedIn: validator,
      routes: photoRoutes({
        'POST /api/validations/photos/validate': changed(),
        'GET /api/validations/photos/12/items/501/photo/original': () =>
          new Response(new Blob(['original'], { type: 'image/jpeg' }), { status: 200, headers: { 'Content-Type': 'image/jpeg' } }),
      }),
    });
    await screen.findByRole('img', { name: 'Photo de MUKENDI KABONGO Aline' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Modifier la photo de MUKENDI KABONGO Aline' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/validations/photos/12/items/501/photo/original')).toBe(true));
    const dialog = screen.getByRole('dialog', { name: 'Modifier la photo de MUKENDI KABONGO Aline' });
    const preview = await within(dialog).findByRole('img', { name: 'Aperçu de la photo de MUKENDI KABONGO Aline' });
    // The original's object URL, not the stored photo's (created first, for the card).
    const cardSrc = screen.getByRole('img', { name: 'Photo de MUKENDI KABONGO Aline' }).getAttribute('src');
    expect(preview.getAttribute('src')).not.toBe(cardSrc);
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer et valider' }));
    await waitFor(() => expect(bodyOf(calls, 'POST', '/api/validations/photos/validate')).toMatchObject({ item: 501, edits: { source: 'original' } }));
  });

  it('edits the stored photo when no original is kept (404)', async () => {
    const { calls } = renderApp({ path: '/validate-picture/12', signedIn: validator, routes: photoRoutes({ 'POST /api/validations/photos/validate': changed() }) });
    await screen.findByRole('img', { name: 'Photo de MUKENDI KABONGO Aline' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Modifier la photo de MUKENDI KABONGO Aline' }));
    const dialog = screen.getByRole('dialog', { name: 'Modifier la photo de MUKENDI KABONGO Aline' });
    await within(dialog).findByRole('img', { name: 'Aperçu de la photo de MUKENDI KABONGO Aline' });
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer et valider' }));
    await waitFor(() => expect(bodyOf(calls, 'POST', '/api/validations/photos/validate')).toBeDefined());
    expect(bodyOf(calls, 'POST', '/api/validations/photos/validate').edits.source).toBeUndefined();
  });

  it('draws the crop on the photo: moved and resized with the keyboard, mirrored in the fields, then posted', async () => {
    // jsdom lays nothing out: the photo under the crop is 260 × 346.67 px on screen (a 300 × 400 photo).
    Object.assign(HTMLElement.prototype, { scrollTo: () => undefined });
    const rect = HTMLElement.prototype.getBoundingClientRect;
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      if (this.classList.contains('ReactCrop__child-wrapper'))
        return { x: 0, y: 0, top: 0, left: 0, right: 260, bottom: 346.67, width: 260, height: 346.67, toJSON: () => ({}) } as DOMRect;
      return rect.call(this);
    });
    const { calls } = renderApp({ path: '/validate-picture/12', signedIn: validator, routes: photoRoutes({ 'POST /api/validations/photos/validate': changed() }) });
    await screen.findByRole('img', { name: 'Photo de MUKENDI KABONGO Aline' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Modifier la photo de MUKENDI KABONGO Aline' }));
    const dialog = screen.getByRole('dialog', { name: 'Modifier la photo de MUKENDI KABONGO Aline' });
    expect(within(dialog).queryByTestId('photo-cropper')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Recadrer la photo' }));
    const cropper = within(dialog).getByTestId('photo-cropper');
    expect(within(cropper).getByRole('img', { name: "Photo d'origine de MUKENDI KABONGO Aline, sur laquelle tracer le recadrage" })).toBeInTheDocument();

    // The right handle then the bottom one, with Shift: 10 screen pixels narrower, then shorter.
    within(cropper).getByRole('button', { name: 'Poignée droite : redimensionner avec les flèches' }).focus();
    await user.keyboard('{Shift>}{ArrowLeft}{/Shift}');
    within(cropper).getByRole('button', { name: 'Poignée bas : redimensionner avec les flèches' }).focus();
    await user.keyboard('{Shift>}{ArrowUp}{/Shift}');
    // The area itself, two pixels to the right.
    within(cropper).getByRole('group', { name: 'Zone de recadrage : déplacez-la avec les flèches' }).focus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(within(dialog).getByLabelText('Largeur (w)')).toHaveValue(288);
    expect(within(dialog).getByLabelText('Hauteur (h)')).toHaveValue(388);
    expect(within(dialog).getByLabelText('Gauche (x)')).toHaveValue(2);
    expect(within(cropper).getByTestId('photo-crop-value')).toHaveTextContent('Zone gardée : 288 × 388 px, à 2 px du bord gauche et 0 px du haut');

    // A typed value moves the rectangle too.
    fireEvent.change(within(dialog).getByLabelText('Haut (y)'), { target: { value: '12' } });
    const selection = cropper.querySelector<HTMLElement>('.ReactCrop__crop-selection')!;
    expect(parseFloat(selection.style.top)).toBeCloseTo(3, 5);

    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer et valider' }));
    await waitFor(() => expect(bodyOf(calls, 'POST', '/api/validations/photos/validate')).toMatchObject({ item: 501, edits: { crop: { x: 2, y: 12, w: 288, h: 388 } } }));
  });

  it('sends a photo for a candidate imported without one, and shows the server’s refusal in the dialog', async () => {
    const withoutPhoto = makeVItem(505, { last_name: 'LUZOLO', middle_name: null, first_name: 'Joël', photo_url: null });
    let attempts = 0;
    const { calls } = renderApp({
      path: '/validate-picture/12',
      signedIn: validator,
      routes: photoRoutes({
        'GET /api/validations/photos/12': () => jsonResponse({ data: [...items, withoutPhoto], meta: pageMeta(4), generation: makeBatch() }),
        'POST /api/validations/photos/505/upload': () =>
          ++attempts === 1
            ? jsonResponse({ code: 'validation_failed', message: 'Données invalides', errors: { photo: ["L'image doit mesurer au moins 100 × 100 pixels"] } }, 422)
            : jsonResponse({ data: { message: 'Photo enregistrée : elle attend sa validation.', items: [], skipped: [], generation: makeBatch() } }),
      }),
    });
    const user = userEvent.setup();
    const card = await screen.findByTestId('photo-card-505');
    expect(card).toHaveTextContent('Pas de photo');
    // Neither validated nor edited without a photo; only added (cards with a photo offer no upload).
    expect(within(card).queryByRole('button', { name: /^Valider|^Modifier/ })).not.toBeInTheDocument();
    expect(within(screen.getByTestId('photo-card-501')).queryByRole('button', { name: /Ajouter une photo/ })).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Ajouter une photo pour LUZOLO Joël' }));
    const dialog = screen.getByRole('dialog', { name: 'Ajouter une photo' });
    await user.click(within(dialog).getByRole('button', { name: 'Envoyer la photo' }));
    expect(within(dialog).getByText('Choisissez une photo.')).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/validations/photos/505/upload')).toBe(false);

    const file = new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], 'joel.jpg', { type: 'image/jpeg' });
    await user.upload(within(dialog).getByLabelText(/^Photo/), file);
    expect(within(dialog).getByRole('img', { name: 'Aperçu de la photo choisie pour LUZOLO Joël' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Envoyer la photo' }));
    expect(await within(dialog).findByText("L'image doit mesurer au moins 100 × 100 pixels")).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Envoyer la photo' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const sent = calls.filter((c) => c.url.pathname === '/api/validations/photos/505/upload');
    expect(sent).toHaveLength(2);
    const body = sent[1]!.init.body as FormData;
    expect((body.get('photo') as File).name).toBe('joel.jpg');
    expect(await screen.findByText('Photo enregistrée : elle attend sa validation.')).toBeInTheDocument();
  });

  it('filters by the schools, centres and options of the whole batch, not only of the page shown', async () => {
    const { calls } = renderApp({
      path: '/validate-picture/12',
      signedIn: validator,
      routes: photoRoutes({
        'GET /api/validations/12/filters': () =>
          jsonResponse({
            data: {
              institutions: [
                { id: 21, name: 'Institut Bosangani' },
                { id: 22, name: 'Lycée Movenda' },
              ],
              centres: [
                { id: 31, name: 'Centre Gombe' },
                { id: 32, name: 'Centre Lemba' },
              ],
              options: [
                { id: 1, name: 'Scientifique' },
                { id: 2, name: 'Pédagogie générale' },
              ],
            },
          }),
      }),
    });
    const user = userEvent.setup();
    await screen.findByTestId('photo-card-501');
    const school = screen.getByLabelText('Établissement');
    // Lycée Movenda has no candidate on this page: it is offered all the same.
    await waitFor(() =>
      expect(
        within(school)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Tous les établissements', 'Institut Bosangani', 'Lycée Movenda']),
    );
    expect(within(screen.getByLabelText('Centre')).getAllByRole('option')).toHaveLength(3);
    expect(within(screen.getByLabelText('Option')).getByRole('option', { name: 'Pédagogie générale' })).toBeInTheDocument();
    await user.selectOptions(school, '22');
    await user.selectOptions(screen.getByLabelText('Option'), '2');
    await waitFor(() => {
      const last = calls.filter((c) => c.url.pathname === '/api/validations/photos/12').at(-1)!.url.searchParams;
      expect([last.get('institution'), last.get('option'), last.get('page')]).toEqual(['22', '2', '1']);
    });
    expect(calls.filter((c) => c.url.pathname === '/api/validations/12/filters')).toHaveLength(1);
  });

  it('hides the actions when the batch is closed', async () => {
    renderApp({
      path: '/validate-picture/12',
      signedIn: validator,
      routes: photoRoutes({
        'GET /api/validations/photos/12': () =>
          jsonResponse({ data: items, meta: pageMeta(3), generation: makeBatch({ status: 'in_progress', open: false, abilities: makeAbilities({ view: true }) }) }),
      }),
    });
    expect(await screen.findByTestId('validation-closed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Valider|Rejeter|Modifier/ })).not.toBeInTheDocument();
  });

  it('offers no photo action on an open batch whose abilities say validate_photos: false', async () => {
    renderApp({
      path: '/validate-picture/12',
      signedIn: validator,
      routes: photoRoutes({
        'GET /api/validations/photos/12': () =>
          jsonResponse({ data: items, meta: pageMeta(3), generation: makeBatch({ abilities: makeAbilities({ view: true, validate_data: true }) }) }),
      }),
    });
    expect(await screen.findByTestId('photo-card-501')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Valider|Rejeter|Modifier/ })).not.toBeInTheDocument();
  });
});

describe('/validate-data', () => {
  const dataRoutes = (extra: Record<string, (url: URL, init: RequestInit) => Response> = {}) => ({
    'GET /api/validations/data/12': () => jsonResponse({ data: items, meta: pageMeta(3), generation: makeBatch() }),
    ...extra,
  });

  it('sends only the fields changed', async () => {
    const { calls } = renderApp({ path: '/validate-data/12', signedIn: validator, routes: dataRoutes({ 'POST /api/validations/data/validate': changed() }) });
    const user = userEvent.setup();
    const row = await screen.findByTestId('data-row-501');
    expect(row).toHaveTextContent('Féminin');
    await user.click(within(row).getByRole('button', { name: 'Modifier les données de MUKENDI KABONGO Aline' }));
    const dialog = screen.getByRole('dialog');
    const first = within(dialog).getByLabelText('Prénom');
    await user.clear(first);
    await user.type(first, 'Alina');
    await user.click(within(dialog).getByRole('radio', { name: 'Masculin' }));
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer et valider' }));
    await waitFor(() => expect(bodyOf(calls, 'POST', '/api/validations/data/validate')).toEqual({ item: 501, first_name: 'Alina', gender: 'M' }));
  });

  it('shows the server’s field errors next to the fields', async () => {
    renderApp({
      path: '/validate-data/12',
      signedIn: validator,
      routes: dataRoutes({
        'POST /api/validations/data/validate': () =>
          jsonResponse({ code: 'validation_failed', message: 'Données invalides', errors: { birth_date: ['Date de naissance invalide'] } }, 422),
      }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Modifier les données de ILUNGA Jean' }));
    const dialog = screen.getByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Date de naissance'), { target: { value: '2006-02-28' } });
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer et valider' }));
    expect(await within(dialog).findByText('Date de naissance invalide')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Date de naissance')).toHaveAttribute('aria-invalid', 'true');
  });

  it('validates one candidate, a selection, and rejects with DELETE', async () => {
    const { calls } = renderApp({
      path: '/validate-data/12',
      signedIn: validator,
      routes: dataRoutes({ 'POST /api/validations/data/validate': changed(), 'DELETE /api/validations/data/reject': changed() }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Valider KASONGO Paul' }));
    await waitFor(() => expect(bodyOf(calls, 'POST', '/api/validations/data/validate')).toEqual({ items: [503] }));
    await user.click(screen.getByRole('button', { name: 'Rejeter ILUNGA Jean' }));
    await user.type(screen.getByLabelText('Motif du rejet'), 'Nom erroné');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Rejeter' }));
    await waitFor(() => expect(bodyOf(calls, 'DELETE', '/api/validations/data/reject')).toEqual({ item: 502, reason: 'Nom erroné' }));
  });
});

/** The rejected list's batch, with the abilities its reopen buttons read. */
function batchWith(abilities: Parameters<typeof makeAbilities>[0]) {
  return makeBatch({ abilities: makeAbilities({ view: true, view_rejected: true, ...abilities }) });
}

describe('/student-reject', () => {
  it('lists the rejected candidates and reopens the rejected side', async () => {
    const rejected = makeVItem(504, {
      last_name: 'MBUYI',
      middle_name: null,
      first_name: 'Rose',
      photo_status: 'rejected',
      status: 'rejected',
      rejected: true,
      rejection_reason: 'Photo floue',
      rejected_by: { id: 7, name: 'Mukendi Aline' },
      rejected_at: '2026-03-01T09:00:00.000Z',
    });
    const { calls } = renderApp({
      path: '/student-reject/12',
      signedIn: validator,
      routes: {
        'GET /api/generations/12/items/rejected': () =>
          jsonResponse({ data: [rejected], meta: pageMeta(1), generation: batchWith({ validate_photos: true, validate_data: true }) }),
        'POST /api/validations/photos/reopen': changed(),
      },
    });
    const row = await screen.findByTestId('rejected-row-504');
    expect(row).toHaveTextContent('MBUYI Rose');
    expect(row).toHaveTextContent('Photo floue');
    expect(row).toHaveTextContent('Mukendi Aline');
    expect(within(row).queryByRole('button', { name: /Rouvrir les données/ })).not.toBeInTheDocument();
    await userEvent.setup().click(within(row).getByRole('button', { name: 'Rouvrir la photo de MBUYI Rose' }));
    await waitFor(() => expect(bodyOf(calls, 'POST', '/api/validations/photos/reopen')).toEqual({ item: 504 }));
  });
  it("offers no reopening of a side the batch's abilities do not allow, whatever the role", async () => {
    const rejected = makeVItem(505, {
      last_name: 'MBUYI',
      middle_name: null,
      first_name: 'Rose',
      photo_status: 'rejected',
      data_status: 'rejected',
      status: 'rejected',
      rejected: true,
    });
    renderApp({
      path: '/student-reject/12',
      signedIn: validator,
      routes: {
        'GET /api/generations/12/items/rejected': () =>
          jsonResponse({ data: [rejected], meta: pageMeta(1), generation: batchWith({ validate_photos: false, validate_data: true }) }),
      },
    });
    const row = await screen.findByTestId('rejected-row-505');
    expect(await within(row).findByRole('button', { name: 'Rouvrir les données de MBUYI Rose' })).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Rouvrir la photo de MBUYI Rose' })).not.toBeInTheDocument();
  });
});

describe('/validated', () => {
  it('shows each batch’s progress and links to its pages', async () => {
    renderApp({
      path: '/validated',
      signedIn: validator,
      routes: {
        'GET /api/validations': () =>
          jsonResponse({ data: [makeBatch({ counts: { ...makeBatch().counts, candidates: { pending: 2, validated: 0, rejected: 1 } } })], meta: pageMeta(1) }),
      },
    });
    const card = await screen.findByTestId('validation-batch-12');
    expect(within(card).getByRole('progressbar', { name: 'Photos validées du lot Kinshasa-Est 2025' })).toHaveAttribute('aria-valuenow', '33');
    expect(within(card).getByRole('link', { name: 'Valider les photos du lot Kinshasa-Est 2025' })).toHaveAttribute('href', '/validate-picture/12');
    expect(within(card).getByRole('link', { name: 'Valider les données du lot Kinshasa-Est 2025' })).toHaveAttribute('href', '/validate-data/12');
    expect(within(card).getByRole('link', { name: 'Candidats rejetés du lot Kinshasa-Est 2025' })).toHaveAttribute('href', '/student-reject/12');
    expect(within(card).getByRole('link', { name: 'Voir le lot Kinshasa-Est 2025' })).toHaveAttribute('href', '/show/12');
  });
});

describe('validation at scale', () => {
  const allDone = (count: number) => () =>
    jsonResponse({ data: { message: `${count} photos validées.`, count, without_photo: 1, generation: makeBatch({ status: 'ready_for_generation' }) } });

  it('validates every pending photo of the current search after showing the count, then names the result', async () => {
    const { calls } = renderApp({
      path: '/validate-picture/12',
      signedIn: validator,
      routes: photoRoutes({
        'GET /api/validations/photos/12/pending': (url) => jsonResponse({ data: { count: url.searchParams.get('search') ? 1 : 2, without_photo: 1 } }),
        'POST /api/validations/photos/12/validate-all': allDone(1),
      }),
    });
    const user = userEvent.setup();
    await screen.findByTestId('photo-card-501');
    await user.type(screen.getByLabelText('Rechercher'), 'ilunga');
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/validations/photos/12' && c.url.searchParams.get('search') === 'ilunga')).toBe(true));
    await user.click(screen.getByRole('button', { name: 'Valider tous les candidats en attente du filtre' }));
    const dialog = screen.getByRole('dialog', { name: 'Valider toutes les photos en attente' });
    expect(await within(dialog).findByTestId('validate-all-count')).toHaveTextContent('1 photo en attente sera validée telle quelle. Seuls les candidats correspondant');
    expect(within(dialog).getByText('1 candidat sans photo reste en attente : ajoutez sa photo.')).toBeInTheDocument();
    expect(calls.find((c) => c.url.pathname === '/api/validations/photos/12/pending')!.url.searchParams.get('search')).toBe('ilunga');
    // Nothing is sent before the confirmation.
    expect(calls.some((c) => c.url.pathname === '/api/validations/photos/12/validate-all')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Valider 1 candidat' }));
    await waitFor(() => expect(bodyOf(calls, 'POST', '/api/validations/photos/12/validate-all')).toEqual({ search: 'ilunga' }));
    expect(await screen.findByText('1 photos validées.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByTestId('validation-ready')).toBeInTheDocument();
  });

  it('offers nothing to confirm when no pending candidate matches, and no button without the ability', async () => {
    renderApp({
      path: '/validate-data/12',
      signedIn: validator,
      routes: {
        'GET /api/validations/data/12': () => jsonResponse({ data: items, meta: pageMeta(3), generation: makeBatch() }),
        'GET /api/validations/data/12/pending': () => jsonResponse({ data: { count: 0, without_photo: 0 } }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Valider tous les candidats en attente' }));
    const dialog = screen.getByRole('dialog', { name: 'Valider toutes les fiches en attente' });
    expect(await within(dialog).findByText('Aucun candidat en attente ne correspond au filtre actuel.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Rien à valider' })).toBeDisabled();
  });

  it('hides "validate all" from one who may not validate that side', async () => {
    renderApp({
      path: '/validate-data/12',
      signedIn: validator,
      routes: {
        'GET /api/validations/data/12': () =>
          jsonResponse({ data: items, meta: pageMeta(3), generation: makeBatch({ abilities: makeAbilities({ view: true, validate_photos: true }) }) }),
      },
    });
    await screen.findByTestId('data-row-501');
    expect(screen.queryByTestId('validate-all')).not.toBeInTheDocument();
  });

  it('asks for 20, 50 or 100 candidates a page, from the first page', async () => {
    const { calls } = renderApp({ path: '/validate-picture/12', signedIn: validator, routes: photoRoutes() });
    const user = userEvent.setup();
    await screen.findByTestId('photo-card-501');
    const size = screen.getByLabelText('Candidats par page');
    expect(
      within(size)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['20', '50', '100']);
    expect(calls.find((c) => c.url.pathname === '/api/validations/photos/12')!.url.searchParams.get('per_page')).toBe('20');
    await user.selectOptions(size, '100');
    await waitFor(() => {
      const last = calls.filter((c) => c.url.pathname === '/api/validations/photos/12').at(-1)!.url.searchParams;
      expect([last.get('per_page'), last.get('page')]).toEqual(['100', '1']);
    });
  });

  it('moves between photos with j/k and the arrows, validates with v, rejects with r, and leaves typing alone', async () => {
    const { calls } = renderApp({
      path: '/validate-picture/12',
      signedIn: validator,
      routes: photoRoutes({ 'POST /api/validations/photos/validate': changed() }),
    });
    const user = userEvent.setup();
    await screen.findByTestId('photo-card-501');
    // Typed in the search field: no move.
    await user.type(screen.getByLabelText('Rechercher'), 'j');
    expect(screen.getByTestId('photo-card-501')).not.toHaveAttribute('aria-current');
    await user.clear(screen.getByLabelText('Rechercher'));
    (document.activeElement as HTMLElement).blur();

    await user.keyboard('j');
    expect(screen.getByTestId('photo-card-501')).toHaveAttribute('aria-current', 'true');
    expect(screen.getByTestId('photo-card-501')).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByTestId('photo-card-502')).toHaveAttribute('aria-current', 'true');
    expect(screen.getByTestId('photo-card-501')).not.toHaveAttribute('aria-current');
    await user.keyboard('v');
    await waitFor(() => expect(bodyOf(calls, 'POST', '/api/validations/photos/validate')).toEqual({ item: 502 }));
    await user.keyboard('k');
    expect(screen.getByTestId('photo-card-501')).toHaveFocus();
    await user.keyboard('r');
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('MUKENDI KABONGO Aline');
    // Typed in the dialog: a reason, not a shortcut.
    await user.keyboard('v');
    expect(within(dialog).getByLabelText('Motif du rejet')).toHaveValue('v');
    expect(calls.filter((c) => c.url.pathname === '/api/validations/photos/validate')).toHaveLength(1);
  });

  it('lists the shortcuts, opened with ? too, on the data page where v validates the current row', async () => {
    const { calls } = renderApp({
      path: '/validate-data/12',
      signedIn: validator,
      routes: {
        'GET /api/validations/data/12': () => jsonResponse({ data: items, meta: pageMeta(3), generation: makeBatch() }),
        'POST /api/validations/data/validate': changed(),
      },
    });
    const user = userEvent.setup();
    const help = await screen.findByTestId('shortcut-help');
    expect(help).not.toHaveAttribute('open');
    expect(help).toHaveTextContent('valider le candidat en cours');
    await user.keyboard('?');
    expect(help).toHaveAttribute('open');
    await user.keyboard('jjj');
    expect(screen.getByTestId('data-row-503')).toHaveAttribute('aria-current', 'true');
    await user.keyboard('v');
    await waitFor(() => expect(bodyOf(calls, 'POST', '/api/validations/data/validate')).toEqual({ items: [503] }));
    expect(within(screen.getByTestId('data-row-503')).getByRole('button', { name: 'Valider KASONGO Paul' })).toHaveAttribute('aria-keyshortcuts', 'v');
  });
});
