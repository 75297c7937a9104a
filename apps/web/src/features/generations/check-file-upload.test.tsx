import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROGRESS_FROM_BYTES } from '@/features/generations/check-upload';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { issuingRoutes } from '@/test/issuing';
import { renderApp } from '@/test/render-app';
import { UploadXhr } from '@/test/upload-xhr';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const LIST_LABEL = 'Liste des candidats (CSV, XLSX ou ODS)';
const answer = (extra: Record<string, unknown> = {}) => ({
  data: {
    generation_id: 70,
    rows: 2,
    valid_rows: 2,
    errors: [],
    error_count: 0,
    format: 'ods',
    sheet: 'Liste',
    sheets: ['Instructions', 'Liste', 'Rattrapage'],
    ignored: [],
    photos: null,
    ...extra,
  },
});

async function fillForm(file: File) {
  const user = userEvent.setup();
  await waitFor(() => expect(screen.getByLabelText('Session')).toHaveValue('4'));
  await waitFor(() => expect(screen.getByLabelText('Province éducationnelle').querySelector('option[value="5"]')).not.toBeNull());
  await user.selectOptions(screen.getByLabelText('Province éducationnelle'), '5');
  await user.upload(screen.getByLabelText(LIST_LABEL), file);
  await user.click(screen.getByRole('button', { name: 'Vérifier le fichier' }));
  return user;
}

describe('/check-file with a workbook of several sheets', () => {
  it('names the sheet read, lists the lines left out, and checks another sheet when the user chooses it', async () => {
    const forms: FormData[] = [];
    renderApp({
      path: '/check-file/1',
      signedIn: { profile: makeProfile(['root']) },
      routes: {
        ...issuingRoutes(),
        'POST /api/check-import-file': (_url, init) => {
          const form = init.body as FormData;
          forms.push(form);
          return form.get('sheet') === 'Rattrapage'
            ? jsonResponse(answer({ rows: 3, valid_rows: 3, sheet: 'Rattrapage' }))
            : jsonResponse(answer({ ignored: [{ row: 9, text: 'Total · 2' }] }));
        },
      },
    });
    const user = await fillForm(new File(['PK'], 'liste.ods', { type: 'application/vnd.oasis.opendocument.spreadsheet' }));
    const result = await screen.findByTestId('check-result');
    const select = within(result).getByLabelText('Feuille lue');
    expect(select).toHaveValue('Liste');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Instructions', 'Liste', 'Rattrapage']);
    expect(forms[0]!.get('sheet')).toBeNull();
    const ignored = within(result).getByTestId('check-ignored');
    expect(ignored).toHaveTextContent('1 ligne laissée de côté sous les en-têtes');
    expect(ignored).toHaveTextContent('Ligne 9 : Total · 2');

    await user.selectOptions(select, 'Rattrapage');
    await waitFor(() => expect(screen.getByTestId('check-rows')).toHaveTextContent('3'));
    expect(forms[1]!.get('sheet')).toBe('Rattrapage');
    // The same draft takes the list read from the other sheet.
    expect(forms[1]!.get('generation_id')).toBe('70');
    expect(screen.getByLabelText('Feuille lue')).toHaveValue('Rattrapage');
    expect(screen.queryByTestId('check-ignored')).not.toBeInTheDocument();
  });

  it('names the one sheet read without a choice when the workbook has one', async () => {
    renderApp({
      path: '/check-file/1',
      signedIn: { profile: makeProfile(['root']) },
      routes: { ...issuingRoutes(), 'POST /api/check-import-file': () => jsonResponse(answer({ sheets: ['Liste'] })) },
    });
    await fillForm(new File(['PK'], 'liste.xlsx'));
    expect(await screen.findByTestId('check-sheet-read')).toHaveTextContent('Feuille lue : « Liste »');
    expect(screen.queryByLabelText('Feuille lue')).not.toBeInTheDocument();
  });
});

describe('/check-file with a large upload', () => {
  it('shows how much is sent (percent and size), then the server’s check, and takes the answer as the usual client does', async () => {
    vi.stubGlobal('XMLHttpRequest', UploadXhr);
    renderApp({ path: '/check-file/1', signedIn: { profile: makeProfile(['root']) }, routes: issuingRoutes() });
    await fillForm(new File([new Uint8Array(PROGRESS_FROM_BYTES + 10)], 'liste.xlsx'));
    await waitFor(() => expect(UploadXhr.last?.body).toBeInstanceOf(FormData));
    const xhr = UploadXhr.last!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/check-import-file');
    expect(xhr.headers.authorization).toMatch(/^Bearer /);
    expect(xhr.headers['x-requested-with']).toBe('XMLHttpRequest');

    xhr.progress(5 * 1024 * 1024, 20 * 1024 * 1024);
    const bar = await screen.findByTestId('upload-progress');
    expect(bar).toHaveTextContent('Envoi des fichiers…');
    expect(bar).toHaveTextContent(/25 % — 5(,0)? Mo sur 20(,0)? Mo/);
    expect(within(bar).getByRole('progressbar')).toHaveAttribute('value', '25');
    xhr.progress(20 * 1024 * 1024, 20 * 1024 * 1024);
    await waitFor(() => expect(bar).toHaveTextContent('Fichiers envoyés : vérification de la liste…'));

    xhr.respond(200, answer());
    expect(await screen.findByTestId('check-result')).toBeInTheDocument();
    expect(screen.queryByTestId('upload-progress')).not.toBeInTheDocument();
  });

  it('can be cancelled: the request is aborted and the user told nothing was saved; an error answer is translated as usual', async () => {
    vi.stubGlobal('XMLHttpRequest', UploadXhr);
    renderApp({ path: '/check-file/1', signedIn: { profile: makeProfile(['root']) }, routes: issuingRoutes() });
    const user = await fillForm(new File([new Uint8Array(PROGRESS_FROM_BYTES)], 'liste.xlsx'));
    await waitFor(() => expect(UploadXhr.last?.body).toBeInstanceOf(FormData));
    UploadXhr.last!.progress(1024, 4096);
    await user.click(await screen.findByRole('button', { name: "Annuler l'envoi" }));
    expect(UploadXhr.last!.aborted).toBe(true);
    expect(await screen.findByText("Envoi annulé : rien n'a été enregistré.")).toBeInTheDocument();
    expect(screen.queryByTestId('upload-progress')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Vérifier le fichier' }));
    await waitFor(() => expect(UploadXhr.last?.aborted).toBe(false));
    UploadXhr.last!.respond(413, { code: 'payload_too_large', message: 'Trop volumineux', errors: { file: ['La liste ne doit pas dépasser 20 Mo'] } });
    await waitFor(() => expect(screen.getByLabelText(LIST_LABEL)).toHaveAccessibleDescription(/La liste ne doit pas dépasser 20 Mo/));
  });
});
