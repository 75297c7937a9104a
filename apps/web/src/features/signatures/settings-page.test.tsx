import type { SignatureView } from '@sceau/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

const ministry: SignatureView = {
  kind: 'ministry',
  name: 'Tony Mwaba',
  title: "Ministre de l'Éducation nationale",
  image_url: '/api/signatures/ministry/image?v=abc123',
  width: 300,
  height: 120,
  updated_at: '2026-03-02T10:30:00.000Z',
  updated_by: 'Aline Mukendi',
};

type Abilities = { add: boolean; replace: boolean; remove: boolean };
/** What the server answers a national admin (add and replace, no signatures.delete) unless told. */
const NATIONAL_ADMIN: Abilities = { add: true, replace: true, remove: false };

function routes(extra: Parameters<typeof renderApp>[0]['routes'] = {}, abilities: Abilities = NATIONAL_ADMIN) {
  return {
    'GET /api/signatures/state': () => jsonResponse({ data: { ministry, inspector_general: null, jury: null }, abilities }),
    'GET /api/signatures/ministry/image': () => new Response(new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), { status: 200 }),
    ...extra,
  };
}

function png(name = 'signature.png', size = 2048) {
  return new File([new Uint8Array(size)], name, { type: 'image/png' });
}

beforeEach(() => {
  let n = 0;
  URL.createObjectURL = vi.fn(() => `blob:test/${++n}`);
  URL.revokeObjectURL = vi.fn();
});

describe('official signatures page', () => {
  it('shows each signature on file, fetched with the token, and says when there is none', async () => {
    const { calls } = renderApp({ path: '/settings', signedIn: { profile: makeProfile(['admin']) }, routes: routes() });
    const card = await screen.findByTestId('signature-ministry');
    expect(card).toHaveTextContent('Tony Mwaba');
    expect(card).toHaveTextContent("Ministre de l'Éducation nationale");
    expect(card).toHaveTextContent('Aline Mukendi');
    expect(await within(card).findByRole('img', { name: 'Signature de Tony Mwaba' })).toHaveAttribute('src', 'blob:test/1');
    const imageCall = calls.find((c) => c.url.pathname === '/api/signatures/ministry/image')!;
    expect(imageCall.url.searchParams.get('v')).toBe('abc123');
    expect(new Headers(imageCall.init.headers).get('Authorization')).toBe('Bearer test-token');
    expect(screen.getByTestId('signature-jury')).toHaveTextContent('Aucune signature enregistrée.');
  });

  it('uploads a signature as multipart with its fields', async () => {
    const { calls } = renderApp({
      path: '/settings',
      signedIn: { profile: makeProfile(['admin']) },
      routes: routes({ 'POST /api/signatures': () => jsonResponse({ data: { message: 'Signature enregistrée.' } }) }),
    });
    const user = userEvent.setup();
    const card = await screen.findByTestId('signature-jury');
    await user.type(within(card).getByLabelText('Nom du signataire'), 'Paul Kasongo');
    await user.type(within(card).getByLabelText('Titre'), 'Président du jury');
    const file = png();
    await user.upload(within(card).getByLabelText('Image de la signature'), file);
    expect(within(card).getByRole('img', { name: "Aperçu de l'image choisie" })).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Enregistrer la signature' }));
    expect(await screen.findByText('Signature enregistrée.')).toBeInTheDocument();

    const call = calls.find((c) => c.method === 'POST' && c.url.pathname === '/api/signatures')!;
    const body = call.init.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(body.get('kind')).toBe('jury');
    expect(body.get('name')).toBe('Paul Kasongo');
    expect(body.get('title')).toBe('Président du jury');
    expect((body.get('image') as File).name).toBe('signature.png');
    expect(new Headers(call.init.headers).get('Content-Type')).toBeNull();
  });

  it('refuses a file of the wrong type or too large before sending it', async () => {
    const { calls } = renderApp({ path: '/settings', signedIn: { profile: makeProfile(['admin']) }, routes: routes() });
    const user = userEvent.setup({ applyAccept: false });
    const card = await screen.findByTestId('signature-jury');
    const input = within(card).getByLabelText('Image de la signature');
    await user.upload(input, new File(['%PDF'], 'scan.pdf', { type: 'application/pdf' }));
    expect(within(card).getByText("L'image doit être un fichier PNG ou JPEG")).toBeInTheDocument();
    await user.upload(input, png('big.png', 2 * 1024 * 1024 + 1));
    expect(within(card).getByText("L'image ne doit pas dépasser 2 Mo")).toBeInTheDocument();
    await user.type(within(card).getByLabelText('Nom du signataire'), 'Paul Kasongo');
    await user.type(within(card).getByLabelText('Titre'), 'Président du jury');
    await user.click(within(card).getByRole('button', { name: 'Enregistrer la signature' }));
    expect(within(card).getByText('Un fichier est requis')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('takes a dropped file', async () => {
    renderApp({ path: '/settings', signedIn: { profile: makeProfile(['admin']) }, routes: routes() });
    const card = await screen.findByTestId('signature-jury');
    const zone = within(card).getByTestId('signature-jury-dropzone');
    const { fireEvent } = await import('@testing-library/react');
    fireEvent.drop(zone, { dataTransfer: { files: [png('dropped.png')] } });
    expect(await within(card).findByText(/dropped\.png/)).toBeInTheDocument();
  });

  it('lets root delete a signature after confirming; admin has no delete button', async () => {
    const admin = renderApp({ path: '/settings', signedIn: { profile: makeProfile(['admin']) }, routes: routes() });
    const adminCard = await screen.findByTestId('signature-ministry');
    expect(within(adminCard).queryByRole('button', { name: 'Supprimer' })).toBeNull();
    admin.unmount();
    sessionStorage.clear();
    localStorage.clear();

    const { calls } = renderApp({
      path: '/settings',
      signedIn: { profile: makeProfile(['root']) },
      routes: routes({ 'DELETE /api/signatures/ministry': () => jsonResponse({ data: { message: 'Signature supprimée.' } }) }, { add: true, replace: true, remove: true }),
    });
    const user = userEvent.setup();
    const card = await screen.findByTestId('signature-ministry');
    await user.click(within(card).getByRole('button', { name: 'Supprimer' }));
    const dialog = screen.getByRole('dialog', { name: 'Supprimer la signature' });
    await user.click(within(dialog).getByRole('button', { name: 'Supprimer' }));
    expect(await screen.findByText('Signature supprimée.')).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url.pathname === '/api/signatures/ministry')).toBe(true));
  });

  it('a scoped admin reads the signatures but is offered no form nor deletion when the abilities say no', async () => {
    renderApp({ path: '/settings', signedIn: { profile: makeProfile(['admin']) }, routes: routes({}, { add: false, replace: false, remove: false }) });
    const card = await screen.findByTestId('signature-ministry');
    expect(card).toHaveTextContent('Tony Mwaba');
    expect(within(card).queryByRole('form')).toBeNull();
    expect(within(card).queryByLabelText('Nom du signataire')).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Supprimer' })).toBeNull();
    expect(within(screen.getByTestId('signature-jury')).queryByLabelText('Nom du signataire')).toBeNull();
  });

  it('offers adding where none is on file and deleting where the abilities say so, without replacing', async () => {
    renderApp({ path: '/settings', signedIn: { profile: makeProfile(['admin']) }, routes: routes({}, { add: true, replace: false, remove: true }) });
    const card = await screen.findByTestId('signature-ministry');
    expect(within(card).queryByLabelText('Nom du signataire')).toBeNull();
    expect(within(card).getByRole('button', { name: 'Supprimer' })).toBeInTheDocument();
    expect(within(screen.getByTestId('signature-jury')).getByLabelText('Nom du signataire')).toBeInTheDocument();
  });
});
