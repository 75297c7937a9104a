import type { BroadcastView, GenerationItemView, GenerationView } from '@sceau/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { makeAbilities, makeGeneration, makeItem, pageMeta } from '@/test/generations';
import { renderApp } from '@/test/render-app';
import * as saving from '@/lib/save-file';

const aline = makeItem({ id: 501 });
const jean = makeItem({
  id: 502,
  last_name: 'ILUNGA',
  middle_name: null,
  first_name: 'Jean-Pierre',
  percentage: 64,
  institution: { id: 22, name: "Lycée d'Arts" },
  centre: { id: 32, name: 'Centre Lemba' },
  diploma: { id: 'Rev0000000000000000502', serial: 'DE-2025-0000502-6', has_pdf: true, revoked: true, downloads: 3 },
});
const rejected = makeItem({
  id: 503,
  last_name: 'KASONGO',
  first_name: 'Paul',
  middle_name: null,
  photo_status: 'rejected',
  rejected: true,
  rejection_reason: 'Photo floue',
  diploma: null,
});

/** What the server's policy answers each role on the published batch of makeGeneration() (national accounts). */
const PUBLISHED = {
  root: makeAbilities({ view: true, view_rejected: true, download_all: true, download_one: true, share_by_email: true, broadcast: true, revoke: true }),
  admin: makeAbilities({ view: true, view_rejected: true, revoke: true }),
  backoffice_manager: makeAbilities({ view: true, view_rejected: true, download_all: true, download_one: true, share_by_email: true }),
};
const published = (role: keyof typeof PUBLISHED) => makeGeneration({ abilities: PUBLISHED[role] });

function routes(batch: GenerationView = makeGeneration(), items: GenerationItemView[] = [aline, jean, rejected]) {
  return {
    [`GET /api/generations/${batch.id}`]: (url: URL) => {
      const search = url.searchParams.get('search');
      const centre = url.searchParams.get('centre');
      const data = items.filter((item) => (!search || item.last_name.toLowerCase().includes(search.toLowerCase())) && (!centre || item.centre.id === Number(centre)));
      return jsonResponse({ data: { ...batch, items: data }, meta: pageMeta(data.length) });
    },
    'GET /api/centres': () =>
      jsonResponse({
        data: [
          { id: 31, code: 'C31', name: 'Centre Gombe', city: 'Kinshasa', educ_province_id: 5 },
          { id: 32, code: 'C32', name: 'Centre Lemba', city: 'Kinshasa', educ_province_id: 5 },
        ],
      }),
    'GET /api/institutions/32': () => jsonResponse({ data: [{ id: 22, code: 'I22', name: "Lycée d'Arts", city: 'Kinshasa', country_id: 1, centre_id: 32, educ_province_id: 5 }] }),
    [`GET /api/generations/${batch.id}/broadcast`]: () => jsonResponse({ data: null }),
  };
}

function broadcastView(overrides: Partial<BroadcastView> = {}): BroadcastView {
  return { id: 4, generation_id: 12, status: 'queued', total: 2, sent: 0, skipped: 0, failed: 0, created_at: '2026-03-03T09:00:00.000Z', finished_at: null, ...overrides };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('batch detail', () => {
  it('shows the batch, its anchoring proof and its candidates', async () => {
    renderApp({ path: '/show/12', signedIn: { profile: makeProfile(['validateur']) }, routes: routes() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Kinshasa-Est 2025' })).toBeInTheDocument();
    const header = screen.getByTestId('batch-header');
    expect(header).toHaveTextContent('Terminé');
    expect(header).toHaveTextContent('Signature terminée');
    expect(screen.getByTestId('batch-count-diplomas')).toHaveTextContent('2');
    const anchor = screen.getByTestId('batch-anchor');
    expect(anchor).toHaveTextContent('31337');
    expect(anchor).toHaveTextContent('42');
    expect(screen.getByTestId('anchor-tx')).toHaveTextContent('0xc4c4c4…c4c4c4');
    expect(within(anchor).getByRole('button', { name: 'Copier le hash de la transaction' })).toBeInTheDocument();

    const table = screen.getByRole('table', { name: 'Candidats du lot Kinshasa-Est 2025' });
    const first = within(table).getByTestId('candidate-row-501');
    expect(within(first).getByRole('rowheader')).toHaveTextContent('MUKENDI KABONGO Aline');
    expect(first).toHaveTextContent(aline.candidate_code);
    expect(first).toHaveTextContent('Scientifique');
    expect(first).toHaveTextContent('Institut Bosangani');
    expect(first).toHaveTextContent(/72,5\s%/);
    expect(first).toHaveTextContent('Photo : validée');
    expect(within(first).getByRole('link', { name: /Page de vérification du diplôme de MUKENDI KABONGO Aline/ })).toHaveAttribute('href', `/verify/${aline.diploma!.id}`);
    expect(screen.getByTestId('candidate-row-502')).toHaveTextContent('Révoqué');
    const third = screen.getByTestId('candidate-row-503');
    expect(third).toHaveTextContent('Rejeté');
    expect(third).toHaveTextContent('Photo floue');
    expect(within(third).queryByRole('link')).not.toBeInTheDocument();

    // A validator neither downloads nor revokes.
    expect(screen.queryByRole('button', { name: /Télécharger/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Révoquer/ })).not.toBeInTheDocument();
  });

  it('downloads a diploma as a file fetched with the token, under the server’s name', async () => {
    const createObjectURL = vi.fn(() => 'blob:diploma');
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const saved: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });
    const { calls } = renderApp({
      path: '/show/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: {
        ...routes(published('root')),
        'GET /api/items/501': () =>
          new Response('%PDF-1.7', { status: 200, headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="diplome-12345678900501.pdf"' } }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Télécharger le diplôme de MUKENDI KABONGO Aline' }));
    await waitFor(() => expect(saved).toEqual([{ href: 'blob:diploma', download: 'diplome-12345678900501.pdf' }]));
    const download = calls.find((c) => c.url.pathname === '/api/items/501')!;
    expect(new Headers(download.init.headers).get('Authorization')).toBe('Bearer test-token');
    expect(createObjectURL).toHaveBeenCalledTimes(1);
  });

  it("offers a candidate's SPÉCIMEN before the diplomas exist, to those the batch allows, not for a rejected candidate", async () => {
    const saved: string[] = [];
    vi.spyOn(saving, 'saveFile').mockImplementation((_blob, name) => void saved.push(name));
    const ready = makeGeneration({ status: 'ready_for_generation', signature_status: 'not_started', abilities: makeAbilities({ view: true, launch: true, preview: true }) });
    const waiting = makeItem({ id: 601, diploma: null });
    const { calls } = renderApp({
      path: '/show/12',
      signedIn: { profile: makeProfile(['admin']) },
      routes: {
        ...routes(ready, [waiting, rejected]),
        'GET /api/generations/12/specimen': () =>
          new Response('%PDF-1.7', { status: 200, headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'inline; filename="specimen-601.pdf"' } }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Voir le spécimen du diplôme de MUKENDI KABONGO Aline' }));
    await waitFor(() => expect(saved).toEqual(['specimen-601.pdf']));
    expect(calls.find((c) => c.url.pathname === '/api/generations/12/specimen')!.url.searchParams.get('item')).toBe('601');
    expect(within(screen.getByTestId('candidate-row-503')).queryByRole('button', { name: /spécimen/i })).not.toBeInTheDocument();
  });

  it('says why a generated batch cannot be signed (a retired key) where the way to the signature would be, beside the cancellation', async () => {
    const stuck = makeGeneration({
      status: 'ready_for_signature',
      signature_status: 'not_started',
      anchor: null,
      abilities: makeAbilities({ view: true, cancel: true }),
      refusals: { sign: { key: 'field.batch_signing_key_retired', params: { kid: 'oldKid123' } } },
    });
    renderApp({ path: '/show/12', signedIn: { profile: makeProfile(['admin']) }, routes: routes(stuck) });
    expect(await screen.findByTestId('sign-refused')).toHaveTextContent(/^Ce lot a été produit avec la clé oldKid123, retirée depuis/);
    const actions = screen.getByTestId('batch-actions');
    expect(within(actions).getByRole('button', { name: 'Annuler le lot' })).toBeInTheDocument();
    expect(within(actions).queryByRole('link', { name: /Suivre/ })).not.toBeInTheDocument();
  });

  it('says why a download failed', async () => {
    renderApp({
      path: '/show/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: { ...routes(published('root')), 'GET /api/items/501': () => jsonResponse({ code: 'not_found', message: 'Ressource introuvable' }, 404) },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Télécharger le diplôme de MUKENDI KABONGO Aline' }));
    expect(await screen.findByText('Ressource introuvable')).toBeInTheDocument();
  });

  it('offers no download without generation.download.one (admin), but revocation of a published diploma', async () => {
    renderApp({ path: '/show/12', signedIn: { profile: makeProfile(['admin']) }, routes: routes(published('admin')) });
    const first = await screen.findByTestId('candidate-row-501');
    expect(screen.queryByRole('button', { name: /Télécharger/ })).not.toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Révoquer le diplôme de MUKENDI KABONGO Aline' })).toBeInTheDocument();
    // Already revoked: no second revocation.
    expect(within(screen.getByTestId('candidate-row-502')).queryByRole('button', { name: /Révoquer/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Révoquer le lot' })).toBeInTheDocument();
    // The serial printed on the diploma, when it has one, named for screen readers.
    expect(within(screen.getByTestId('candidate-row-502')).getByTestId('diploma-serial')).toHaveTextContent('N° de série DE-2025-0000502-6');
    expect(within(first).queryByTestId('diploma-serial')).not.toBeInTheDocument();
  });

  it('shows a batch revoked earlier as revoked, and offers no second revocation', async () => {
    // Revoked: the server's abilities no longer include revoke, sharing nor broadcast.
    const revoked = makeGeneration({
      revoked_at: '2026-03-05T09:00:00.000Z',
      revocation_reason: 'Session annulée',
      abilities: makeAbilities({ view: true, download_all: true, download_one: true }),
    });
    renderApp({ path: '/show/12', signedIn: { profile: makeProfile(['root']) }, routes: routes(revoked) });
    await screen.findByTestId('candidate-row-501');
    expect(screen.queryByRole('button', { name: 'Révoquer le lot' })).not.toBeInTheDocument();
    expect(screen.getByTestId('batch-actions')).toHaveTextContent('Lot révoqué');
  });

  it('downloads the whole batch as a zip for who may download many', async () => {
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:zip'), revokeObjectURL: vi.fn() });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { calls } = renderApp({
      path: '/show/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: {
        ...routes(published('root')),
        'GET /api/generations/12/export-zip': () =>
          new Response('PK', { status: 200, headers: { 'Content-Type': 'application/zip', 'Content-Disposition': 'attachment; filename="diplomes-lot-12.zip"' } }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Télécharger le lot (zip)' }));
    await waitFor(() => expect(saved).toEqual(['diplomes-lot-12.zip']));
    expect(calls.some((c) => c.url.pathname === '/api/generations/12/export-zip')).toBe(true);
  });

  it('exports the rejected candidates (XLSX or CSV) for who may see rejections, and not without them', async () => {
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:rejected'), revokeObjectURL: vi.fn() });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const batch = makeGeneration({ abilities: PUBLISHED.admin });
    const { calls } = renderApp({
      path: '/show/12',
      signedIn: { profile: makeProfile(['admin']) },
      routes: {
        ...routes({ ...batch, counts: { ...batch.counts, rejected: 1 } }),
        'GET /api/generations/12/items/rejected/export': (url) =>
          new Response('PK', { status: 200, headers: { 'Content-Disposition': `attachment; filename="candidats-rejetes-lot-12.${url.searchParams.get('format')}"` } }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Exporter les rejetés (Excel)' }));
    await waitFor(() => expect(saved).toEqual(['candidats-rejetes-lot-12.xlsx']));
    await user.click(screen.getByRole('button', { name: 'Exporter les rejetés (CSV)' }));
    await waitFor(() => expect(saved).toEqual(['candidats-rejetes-lot-12.xlsx', 'candidats-rejetes-lot-12.csv']));
    const exports = calls.filter((c) => c.url.pathname === '/api/generations/12/items/rejected/export');
    expect(exports.map((c) => c.url.searchParams.get('format'))).toEqual(['xlsx', 'csv']);
    expect(new Headers(exports[0]!.init.headers).get('Authorization')).toBe('Bearer test-token');
  });

  it('offers no rejected export without the right to see rejections', async () => {
    const batch = makeGeneration({ abilities: makeAbilities({ view: true }) });
    renderApp({ path: '/show/12', signedIn: { profile: makeProfile(['admin']) }, routes: routes({ ...batch, counts: { ...batch.counts, rejected: 1 } }) });
    expect(await screen.findByTestId('batch-count-items')).toBeInTheDocument();
    expect(screen.queryByTestId('export-rejected-xlsx')).toBeNull();
  });

  it('cancels a batch before its signature, after confirmation; not offered once signing started', async () => {
    const ready = makeGeneration({
      status: 'ready_for_generation',
      signature_status: 'not_started',
      anchor: null,
      published_at: null,
      abilities: makeAbilities({ view: true, launch: true, cancel: true }),
    });
    const { calls } = renderApp({
      path: '/show/12',
      signedIn: { profile: makeProfile(['admin']) },
      routes: { ...routes(ready), 'DELETE /api/generations/12/cancel': () => jsonResponse({ data: { message: 'Lot annulé.' } }) },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Annuler le lot' }));
    const dialog = screen.getByRole('dialog', { name: 'Annuler le lot' });
    await user.click(within(dialog).getByRole('button', { name: 'Annuler le lot' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/generations/12/cancel' && c.init.method === 'DELETE')).toBe(true));
    expect(await screen.findByText('Lot annulé.')).toBeInTheDocument();
  });

  it('offers no revocation before publication', async () => {
    const running = makeGeneration({
      status: 'ready_for_signature',
      signature_status: 'in_progress',
      anchor: null,
      published_at: null,
      abilities: makeAbilities({ view: true, sign: true, download_all: true, download_one: true }),
    });
    renderApp({ path: '/show/12', signedIn: { profile: makeProfile(['root']) }, routes: routes(running) });
    await screen.findByTestId('candidate-row-501');
    expect(screen.queryByRole('button', { name: /Révoquer/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Annuler le lot' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('batch-anchor')).not.toBeInTheDocument();
    // What the status allows instead: following the generation.
    expect(screen.getByRole('link', { name: 'Suivre la génération' })).toHaveAttribute('href', '/generating-op/12');
  });

  it('offers the next step the transitions allow: relaunching a failed batch, with its last error', async () => {
    const failed = makeGeneration({
      status: 'failed',
      signature_status: 'not_started',
      anchor: null,
      published_at: null,
      last_error: 'Photo manquante pour 3 candidats',
      abilities: makeAbilities({ view: true, launch: true, cancel: true }),
    });
    renderApp({ path: '/show/12', signedIn: { profile: makeProfile(['admin']) }, routes: routes(failed, [rejected]) });
    expect(await screen.findByTestId('batch-last-error')).toHaveTextContent('Photo manquante pour 3 candidats');
    expect(screen.getByRole('link', { name: 'Relancer la génération' })).toHaveAttribute('href', '/otp-generation/12');
    expect(screen.queryByRole('button', { name: 'Révoquer le lot' })).not.toBeInTheDocument();
  });

  it('revokes a diploma with a reason of at least 5 characters and shows the server’s message', async () => {
    const bodies: unknown[] = [];
    const { calls } = renderApp({
      path: '/show/12',
      signedIn: { profile: makeProfile(['admin']) },
      routes: {
        ...routes(published('admin')),
        [`POST /api/diplomas/${aline.diploma!.id}/revoke`]: (_url, init) => {
          bodies.push(JSON.parse(String(init.body)));
          return jsonResponse({ data: { message: 'Révocation enregistrée' } }, 202);
        },
      },
    });
    const user = userEvent.setup();
    const opener = await screen.findByRole('button', { name: 'Révoquer le diplôme de MUKENDI KABONGO Aline' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Révoquer le diplôme' });
    const reason = within(dialog).getByLabelText('Motif de la révocation');
    expect(reason).toHaveFocus();

    await user.type(reason, 'Faux');
    await user.click(within(dialog).getByRole('button', { name: 'Révoquer le diplôme' }));
    expect(await within(dialog).findByText('Le motif doit contenir au moins 5 caractères')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(reason);
    await user.type(reason, 'Fraude avérée au jury');
    await user.click(within(dialog).getByRole('button', { name: 'Révoquer le diplôme' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Révocation enregistrée');
    expect(bodies).toEqual([{ reason: 'Fraude avérée au jury' }]);
    await user.click(within(dialog).getByText('Fermer', { selector: 'button' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the server’s refusal in the dialog', async () => {
    renderApp({
      path: '/show/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: {
        ...routes(published('root')),
        [`POST /api/diplomas/${aline.diploma!.id}/revoke`]: () => jsonResponse({ code: 'conflict', message: 'Ce diplôme est déjà révoqué.' }, 409),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Révoquer le diplôme de MUKENDI KABONGO Aline' }));
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByLabelText('Motif de la révocation'), 'Erreur de saisie');
    await user.click(within(dialog).getByRole('button', { name: 'Révoquer le diplôme' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Ce diplôme est déjà révoqué.');
  });

  it('revokes the whole batch after confirmation, then no longer offers it', async () => {
    const bodies: unknown[] = [];
    renderApp({
      path: '/show/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: {
        ...routes(published('root')),
        'POST /api/generations/12/revoke': (_url, init) => {
          bodies.push(JSON.parse(String(init.body)));
          return jsonResponse({ data: { message: 'Révocation enregistrée' } }, 202);
        },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Révoquer le lot' }));
    const dialog = screen.getByRole('dialog', { name: 'Révoquer le lot' });
    expect(dialog).toHaveTextContent('Les 2 diplôme(s) du lot « Kinshasa-Est 2025 »');
    await user.type(within(dialog).getByLabelText('Motif de la révocation'), 'Session annulée par le jury');
    await user.click(within(dialog).getByRole('button', { name: 'Révoquer le lot' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Révocation enregistrée');
    expect(bodies).toEqual([{ reason: 'Session annulée par le jury' }]);
    await user.click(within(dialog).getByText('Fermer', { selector: 'button' }));
    expect(screen.queryByRole('button', { name: 'Révoquer le lot' })).not.toBeInTheDocument();
    expect(screen.getByTestId('batch-actions')).toHaveTextContent('Lot révoqué');
  });

  it('filters by centre and school and searches, through the API', async () => {
    const { calls } = renderApp({ path: '/show/12', signedIn: { profile: makeProfile(['validateur']) }, routes: routes() });
    const user = userEvent.setup();
    await screen.findByTestId('candidate-row-501');
    await waitFor(() => expect(screen.getByRole('option', { name: 'Centre Lemba' })).toBeInTheDocument());
    await user.selectOptions(screen.getByLabelText('Centre'), '32');
    await waitFor(() => expect(screen.queryByTestId('candidate-row-501')).not.toBeInTheDocument());
    // The schools of the chosen centre come from the reference data.
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/institutions/32' && c.url.searchParams.get('centre') === '32')).toBe(true));
    await user.selectOptions(screen.getByLabelText('École'), '22');
    await user.type(screen.getByLabelText('Rechercher un candidat'), 'ilunga');
    await waitFor(() => {
      const last = calls.filter((c) => c.url.pathname === '/api/generations/12').at(-1)!.url.searchParams;
      expect([last.get('centre'), last.get('institution'), last.get('search'), last.get('page')]).toEqual(['32', '22', 'ilunga', '1']);
    });
    expect(calls.filter((c) => c.url.searchParams.get('search')?.startsWith('i')).map((c) => c.url.searchParams.get('search'))).toEqual(['ilunga']);
  });

  it('says the batch does not exist when the API answers 404 (another scope’s batch too)', async () => {
    renderApp({
      path: '/show/99',
      signedIn: { profile: makeProfile(['validateur']) },
      routes: { 'GET /api/generations/99': () => jsonResponse({ code: 'not_found', message: 'Ressource introuvable' }, 404) },
    });
    expect(await screen.findByRole('heading', { name: 'Lot introuvable' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Retour au tableau de bord' })).toHaveAttribute('href', '/dashboard');
  });

  it('broadcasts a published batch after confirmation, with the spec message as a toast, then follows it', async () => {
    let latest: BroadcastView | null = null;
    const { calls } = renderApp({
      path: '/show/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: {
        ...routes(published('root')),
        'GET /api/generations/12/broadcast': () => jsonResponse({ data: latest }),
        'POST /api/generations/12/broadcast': () => {
          latest = broadcastView({ status: 'running', total: 2, sent: 1 });
          return jsonResponse({ data: { message: 'Les notifications de diffusion ont été envoyées avec succès.', broadcast: broadcastView() } }, 202);
        },
      },
    });
    const panel = await screen.findByTestId('batch-broadcast');
    expect(panel).toHaveTextContent("Ce lot n'a pas encore été diffusé aux candidats.");
    const user = userEvent.setup();
    await user.click(within(panel).getByRole('button', { name: 'Diffuser aux candidats' }));
    const dialog = screen.getByRole('dialog', { name: 'Diffuser le lot aux candidats' });
    expect(dialog).toHaveTextContent('(2 diplômes)');
    expect(dialog).toHaveTextContent('valable 30 minutes');
    await user.click(within(dialog).getByRole('button', { name: 'Diffuser' }));
    expect(await screen.findByText('Les notifications de diffusion ont été envoyées avec succès.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.url.pathname === '/api/generations/12/broadcast' && c.init.method === 'POST')).toHaveLength(1);
    // Queued: no second broadcast until it ends.
    expect(within(panel).getByTestId('broadcast-status')).toHaveTextContent('En attente');
    expect(within(panel).getByRole('button', { name: 'Diffuser à nouveau' })).toBeDisabled();
  });

  it("shows the spec's failure message when the broadcast was not sent, and a refusal's reason", async () => {
    let answer = jsonResponse({ code: 'service_unavailable', message: "La diffusion n'a pas été envoyée. Veuillez réessayer plus tard." }, 503);
    renderApp({
      path: '/show/12',
      signedIn: { profile: makeProfile(['root']) },
      routes: { ...routes(published('root')), 'POST /api/generations/12/broadcast': () => answer },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Diffuser aux candidats' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Diffuser' }));
    expect(await screen.findByText("La diffusion n'a pas été envoyée. Veuillez réessayer plus tard.")).toBeInTheDocument();
    answer = jsonResponse({ code: 'conflict', message: 'Conflit', errors: { generation_id: ['Une diffusion de ce lot est déjà en cours'] } }, 409);
    await user.click(screen.getByRole('button', { name: 'Diffuser aux candidats' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Diffuser' }));
    expect(await screen.findByText('Une diffusion de ce lot est déjà en cours')).toBeInTheDocument();
  });

  it('shows the last broadcast to who may view the batch without offering one; nothing before publication', async () => {
    const done = broadcastView({ status: 'completed', total: 2, sent: 1, skipped: 1, finished_at: '2026-03-03T09:01:00.000Z' });
    renderApp({
      path: '/show/12',
      signedIn: { profile: makeProfile(['backoffice_manager']) },
      routes: { ...routes(published('backoffice_manager')), 'GET /api/generations/12/broadcast': () => jsonResponse({ data: done }) },
    });
    const status = await screen.findByTestId('broadcast-status');
    expect(status).toHaveTextContent('Terminée');
    expect(status).toHaveTextContent('1 candidat(s) notifié(s), 1 sans contact, 0 en échec, sur 2.');
    expect(screen.queryByRole('button', { name: /Diffuser/ })).not.toBeInTheDocument();
  });

  it('offers no broadcast nor sharing before publication', async () => {
    const signing = makeGeneration({
      status: 'ready_for_signature',
      signature_status: 'not_started',
      anchor: null,
      published_at: null,
      abilities: makeAbilities({ view: true, sign: true, cancel: true, download_all: true, download_one: true }),
    });
    renderApp({ path: '/show/12', signedIn: { profile: makeProfile(['root']) }, routes: routes(signing) });
    await screen.findByTestId('candidate-row-501');
    expect(screen.queryByTestId('batch-broadcast')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /par e-mail/ })).not.toBeInTheDocument();
  });

  it('sends one diploma by e-mail: the address is checked before sending, the server’s message shown', async () => {
    const { calls } = renderApp({
      path: '/show/12',
      signedIn: { profile: makeProfile(['backoffice_manager']) },
      routes: {
        ...routes(published('backoffice_manager')),
        'POST /api/items/by-mail': (_url, init) => {
          const body = JSON.parse(String(init.body)) as { email: string };
          return body.email === 'refuse@example.org'
            ? jsonResponse({ code: 'validation_failed', message: 'Données invalides', errors: { email: ["Saisissez une adresse e-mail valide pour l'envoi"] } }, 422)
            : jsonResponse({ data: { message: `Le diplôme a été envoyé à ${body.email}.` } });
        },
      },
    });
    const user = userEvent.setup();
    const row = await screen.findByTestId('candidate-row-501');
    // Not for a revoked diploma.
    expect(within(screen.getByTestId('candidate-row-502')).queryByRole('button', { name: /par e-mail/ })).not.toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Envoyer le diplôme de MUKENDI KABONGO Aline par e-mail' }));
    const dialog = screen.getByRole('dialog', { name: 'Envoyer le diplôme par e-mail' });
    const email = within(dialog).getByLabelText('Adresse e-mail du destinataire');
    expect(email).toHaveFocus();
    await user.type(email, 'pas-une-adresse');
    await user.click(within(dialog).getByRole('button', { name: 'Envoyer' }));
    expect(await within(dialog).findByText('Saisissez une adresse e-mail valide')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((c) => c.url.pathname === '/api/items/by-mail')).toBe(false);

    await user.clear(email);
    await user.type(email, 'refuse@example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Envoyer' }));
    expect(await within(dialog).findByText("Saisissez une adresse e-mail valide pour l'envoi")).toBeInTheDocument();

    await user.clear(email);
    await user.type(email, 'universite@example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Envoyer' }));
    expect(await screen.findByText('Le diplôme a été envoyé à universite@example.org.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const sent = calls.filter((c) => c.url.pathname === '/api/items/by-mail').at(-1)!;
    expect(JSON.parse(String(sent.init.body))).toEqual({ item_id: 501, email: 'universite@example.org' });
  });

  it('sends the zip by e-mail, only with generation.share.email', async () => {
    const { calls } = renderApp({
      path: '/show/12',
      signedIn: { profile: makeProfile(['backoffice_manager']) },
      routes: {
        ...routes(published('backoffice_manager')),
        'POST /api/generations/archive-by-mail': () =>
          jsonResponse({ data: { message: 'Le zip du lot va être préparé et envoyé à ambassade@example.org dans quelques instants.' } }, 202),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Envoyer le zip par e-mail' }));
    const dialog = screen.getByRole('dialog', { name: 'Envoyer le lot par e-mail' });
    expect(dialog).toHaveTextContent('moins de 10 Mo');
    await user.type(within(dialog).getByLabelText('Adresse e-mail du destinataire'), 'ambassade@example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Envoyer' }));
    expect(await screen.findByText('Le zip du lot va être préparé et envoyé à ambassade@example.org dans quelques instants.')).toBeInTheDocument();
    const sent = calls.find((c) => c.url.pathname === '/api/generations/archive-by-mail')!;
    expect(JSON.parse(String(sent.init.body))).toEqual({ generation_id: 12, email: 'ambassade@example.org' });
  });

  it('offers no sending by e-mail without generation.share.email (admin)', async () => {
    renderApp({ path: '/show/12', signedIn: { profile: makeProfile(['admin']) }, routes: routes(published('admin')) });
    await screen.findByTestId('candidate-row-501');
    expect(screen.queryByRole('button', { name: /par e-mail/ })).not.toBeInTheDocument();
    expect(screen.queryByTestId('batch-broadcast')).not.toBeInTheDocument();
  });

  it('reads English', async () => {
    await changeLocale('en');
    renderApp({ path: '/show/12', signedIn: { profile: makeProfile(['root']) }, routes: routes(published('root')) });
    const first = await screen.findByTestId('candidate-row-501');
    expect(within(first).getByRole('button', { name: "Download MUKENDI KABONGO Aline's diploma" })).toHaveTextContent('Download the PDF');
    expect(first).toHaveTextContent('Photo: validated');
    expect(first).toHaveTextContent('72.5%');
    expect(screen.getByTestId('batch-header')).toHaveTextContent('Completed');
    expect(screen.getByRole('button', { name: 'Broadcast to candidates' })).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Send the diploma of MUKENDI KABONGO Aline by e-mail' })).toBeInTheDocument();
  });

  describe("reads what the user may do from the batch's abilities, not from roles or status", () => {
    it('an admin whose batch abilities say revoke: false is offered no revocation, of the batch nor of a diploma', async () => {
      renderApp({ path: '/show/12', signedIn: { profile: makeProfile(['admin']) }, routes: routes(makeGeneration({ abilities: makeAbilities({ view: true }) })) });
      await screen.findByTestId('candidate-row-501');
      expect(screen.queryByRole('button', { name: /Révoquer/ })).not.toBeInTheDocument();
      expect(screen.queryByTestId('batch-actions')).not.toBeInTheDocument();
    });

    it('a validateur whose batch abilities allow downloading, sharing and revoking is offered them', async () => {
      renderApp({
        path: '/show/12',
        signedIn: { profile: makeProfile(['validateur']) },
        routes: routes(makeGeneration({ abilities: makeAbilities({ view: true, download_one: true, download_all: true, share_by_email: true, revoke: true }) })),
      });
      const first = await screen.findByTestId('candidate-row-501');
      expect(within(first).getByRole('button', { name: 'Télécharger le diplôme de MUKENDI KABONGO Aline' })).toBeInTheDocument();
      expect(within(first).getByRole('button', { name: 'Envoyer le diplôme de MUKENDI KABONGO Aline par e-mail' })).toBeInTheDocument();
      expect(within(first).getByRole('button', { name: 'Révoquer le diplôme de MUKENDI KABONGO Aline' })).toBeInTheDocument();
      // A revoked diploma is neither shared nor revoked again (its own state, sent with it).
      expect(within(screen.getByTestId('candidate-row-502')).queryByRole('button', { name: /Révoquer|par e-mail/ })).not.toBeInTheDocument();
      const actions = screen.getByTestId('batch-actions');
      expect(within(actions).getByRole('button', { name: 'Télécharger le lot (zip)' })).toBeInTheDocument();
      expect(within(actions).getByRole('button', { name: 'Envoyer le zip par e-mail' })).toBeInTheDocument();
      expect(within(actions).getByRole('button', { name: 'Révoquer le lot' })).toBeInTheDocument();
    });

    it('root is offered no download, zip, sharing nor broadcast when the abilities say no, even on a published batch', async () => {
      renderApp({ path: '/show/12', signedIn: { profile: makeProfile(['root']) }, routes: routes(makeGeneration({ abilities: makeAbilities({ view: true, revoke: true }) })) });
      await screen.findByTestId('candidate-row-501');
      expect(screen.queryByRole('button', { name: /Télécharger/ })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /par e-mail/ })).not.toBeInTheDocument();
      expect(screen.queryByTestId('batch-broadcast')).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Révoquer le lot' })).toBeInTheDocument();
    });

    it('offers the validation links each ability allows, and the rejected list', async () => {
      const pending = makeGeneration({
        status: 'pending_validation',
        signature_status: 'not_started',
        anchor: null,
        published_at: null,
        counts: { items: 3, rejected: 1, diplomas: 0 },
        abilities: makeAbilities({ view: true, validate_photos: true, validate_data: false, view_rejected: true }),
      });
      renderApp({ path: '/show/12', signedIn: { profile: makeProfile(['validateur']) }, routes: routes(pending, [rejected]) });
      const actions = await screen.findByTestId('batch-actions');
      expect(within(actions).getByRole('link', { name: 'Valider les photos' })).toHaveAttribute('href', '/validate-picture/12');
      expect(within(actions).queryByRole('link', { name: 'Valider les données' })).not.toBeInTheDocument();
      expect(within(actions).getByRole('link', { name: 'Candidats rejetés' })).toHaveAttribute('href', '/student-reject/12');
    });

    it('an admin is offered no launch nor cancellation of a ready batch when the abilities say no', async () => {
      const ready = makeGeneration({ status: 'ready_for_generation', signature_status: 'not_started', anchor: null, published_at: null, abilities: makeAbilities({ view: true }) });
      renderApp({ path: '/show/12', signedIn: { profile: makeProfile(['admin']) }, routes: routes(ready) });
      await screen.findByTestId('candidate-row-501');
      expect(screen.queryByRole('link', { name: /Lancer la génération/ })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Annuler le lot' })).not.toBeInTheDocument();
    });
  });
});
