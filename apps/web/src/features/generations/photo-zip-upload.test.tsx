import type { GenerationView, PhotoZipReport } from '@sceau/contracts';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PhotoCheckNotes } from '@/features/generations/photo-check-notes';
import { changeLocale, i18n } from '@/lib/i18n';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { makeAbilities, makeGeneration, pageMeta } from '@/test/generations';
import { renderApp } from '@/test/render-app';
import { UploadXhr } from '@/test/upload-xhr';

afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLocale('fr');
});

const pending = (addPhotos: boolean): GenerationView =>
  makeGeneration({ status: 'pending_validation', abilities: makeAbilities({ view: true, import_list: true, add_photos: addPhotos }) });

function openBatch(batch: GenerationView) {
  return renderApp({
    path: `/show/${batch.id}`,
    signedIn: { profile: makeProfile(['admin']) },
    routes: {
      [`GET /api/generations/${batch.id}`]: () => jsonResponse({ data: { ...batch, items: [] }, meta: pageMeta(0) }),
      [`GET /api/generations/${batch.id}/broadcast`]: () => jsonResponse({ data: null }),
      'GET /api/centres': () => jsonResponse({ data: [] }),
    },
  });
}

const report: PhotoZipReport = {
  message: '2 photos ajoutées : elles attendent leur validation.',
  generation_id: 1,
  files: 5,
  added: [
    { file: '20260001000001.heic', candidate_code: '20260001000001', item_id: 11, warnings: [] },
    {
      file: '20260001000002.jpg',
      candidate_code: '20260001000002',
      item_id: 12,
      warnings: [{ code: 'photo_too_small', message: 'Photo « 20260001000002.jpg » trop petite (moins de 300 × 400 pixels) : elle serait imprimée floue' }],
    },
  ],
  added_count: 2,
  unmatched: [{ file: 'notes.txt', message: '« notes.txt » : aucun candidat de ce lot n’a ce code' }],
  unmatched_count: 1,
  refused: [
    { file: '20260001000003.heic', candidate_code: '20260001000003', code: 'photo_unreadable', message: 'La photo « 20260001000003.heic » : HEIC illisible' },
    { file: '20260001000004.pdf', candidate_code: '20260001000004', code: 'photo_unreadable', message: 'Le fichier « 20260001000004.pdf » n’est pas une image' },
  ],
  refused_count: 2,
  without_photo: 3,
};

describe('the batch page’s photos zip', () => {
  it('sends the zip with its progress, then shows what became of every file', async () => {
    vi.stubGlobal('XMLHttpRequest', UploadXhr);
    const batch = pending(true);
    openBatch(batch);
    const section = await screen.findByTestId('photo-zip');
    expect(within(section).getByRole('heading', { name: 'Ajouter des photos' })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.upload(within(section).getByLabelText('Fichier zip des photos'), new File([new Uint8Array(4096)], 'photos.zip', { type: 'application/zip' }));
    await user.click(within(section).getByRole('button', { name: 'Envoyer les photos' }));
    await waitFor(() => expect(UploadXhr.last?.body).toBeInstanceOf(FormData));
    const xhr = UploadXhr.last!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe(`/api/generations/${batch.id}/photos`);
    expect((xhr.body as FormData).get('photos')).toBeInstanceOf(File);

    xhr.progress(1024, 4096);
    const bar = await screen.findByTestId('photo-zip-progress');
    expect(bar).toHaveTextContent('25 % envoyés');
    expect(within(bar).getByRole('progressbar')).toHaveAttribute('value', '25');
    xhr.progress(4096, 4096);
    await waitFor(() => expect(bar).toHaveTextContent('Lecture des photos par le serveur…'));

    xhr.respond(200, { data: report });
    const shown = await screen.findByTestId('photo-zip-report');
    expect(within(shown).getByRole('status')).toHaveTextContent('2 photos ajoutées');
    expect(within(shown).getByTestId('photo-zip-added')).toHaveTextContent('2');
    expect(within(shown).getByTestId('photo-zip-refused')).toHaveTextContent('2');
    expect(within(shown).getByTestId('photo-zip-without')).toHaveTextContent('3');
    const refused = within(shown).getByTestId('photo-zip-refused-list');
    expect(refused).toHaveTextContent('HEIC illisible');
    expect(refused).toHaveTextContent('« 20260001000004.pdf » n’est pas une image');
    expect(within(shown).getByTestId('photo-zip-warnings')).toHaveTextContent('20260001000002 — Photo « 20260001000002.jpg » trop petite');
    expect(within(shown).getByTestId('photo-zip-unmatched-list')).toHaveTextContent('notes.txt');
    expect(screen.queryByTestId('photo-zip-progress')).not.toBeInTheDocument();
  });

  it('says why the server refused the zip (after launch), and asks for a file first', async () => {
    vi.stubGlobal('XMLHttpRequest', UploadXhr);
    openBatch(pending(true));
    const section = await screen.findByTestId('photo-zip');
    const user = userEvent.setup();
    await user.click(within(section).getByRole('button', { name: 'Envoyer les photos' }));
    expect(within(section).getByRole('alert')).toHaveTextContent('Choisissez un fichier zip.');
    await user.upload(within(section).getByLabelText('Fichier zip des photos'), new File([new Uint8Array(10)], 'photos.zip'));
    await user.click(within(section).getByRole('button', { name: 'Envoyer les photos' }));
    await waitFor(() => expect(UploadXhr.last?.body).toBeInstanceOf(FormData));
    UploadXhr.last!.respond(409, { code: 'conflict', message: 'Ce lot est déjà lancé.' });
    await waitFor(() => expect(within(section).getByRole('alert')).toHaveTextContent('Ce lot est déjà lancé.'));
  });

  it('refuses a zip over the limit, and says it in the language chosen afterwards, its size too', async () => {
    openBatch(pending(true));
    const section = await screen.findByTestId('photo-zip');
    const user = userEvent.setup();
    const zip = new File([new Uint8Array(10)], 'photos.zip');
    Object.defineProperty(zip, 'size', { value: 200 * 1024 * 1024 + 1 });
    await user.upload(within(section).getByLabelText('Fichier zip des photos'), zip);
    await user.click(within(section).getByRole('button', { name: 'Envoyer les photos' }));
    expect(within(section).getByRole('alert')).toHaveTextContent('Le fichier zip ne doit pas dépasser 200 Mo.');
    await act(() => i18n.changeLanguage('en'));
    await waitFor(() => expect(within(section).getByRole('alert')).toHaveTextContent('The zip file must not exceed 200 MB.'));
  });

  it('is not offered to who may not add photos (the server’s add_photos)', async () => {
    openBatch(pending(false));
    expect(await screen.findByTestId('batch-header')).toBeInTheDocument();
    expect(screen.queryByTestId('photo-zip')).not.toBeInTheDocument();
  });

  it('speaks English', async () => {
    await changeLocale('en');
    openBatch(pending(true));
    const section = await screen.findByTestId('photo-zip');
    expect(within(section).getByRole('heading', { name: 'Add photos' })).toBeInTheDocument();
    expect(within(section).getByLabelText('Photos zip file')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Send the photos' })).toBeInTheDocument();
  });
});

describe('the list check’s photos, row by row', () => {
  it('names each row without a photo and each photo to check', async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <PhotoCheckNotes
          photos={{
            files: 3,
            matched: 2,
            missing: [{ row: 4, candidate_code: '20260001000003' }],
            warnings: [{ row: 3, candidate_code: '20260001000002', file: 'b.jpg', code: 'photo_landscape', message: 'Photo « b.jpg » en paysage' }],
          }}
        />
      </I18nextProvider>,
    );
    expect(screen.getByTestId('check-photo-missing')).toHaveTextContent("Ligne 4 : 20260001000003 n'a pas de photo dans le zip");
    expect(screen.getByTestId('check-photo-warnings')).toHaveTextContent('Ligne 3 — 20260001000002 — Photo « b.jpg » en paysage');
  });
});
