// Resumable uploads (issue 15 item 4, ADR 0150), on the real app and database: the tus project's
// own client sends a list and a photos zip in pieces, a dropped upload resumes from the server's
// offset, the list check takes the finished uploads by id; and every bound and boundary holds
// (kind, length, per-account count, someone else's upload, an unfinished one, expiry).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Upload as TusClientUpload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createImportTest, csv, multipart, portrait, row, zip, type ImportTest } from './imports-test-support.ts';
import { ResumableUploads, UPLOADS_PER_ACCOUNT } from './resumable-uploads.ts';

let t: ImportTest;
let admin: Record<string, string>;
let validateur: Record<string, string>;
let base: string;

const TUS = { 'tus-resumable': '1.0.0' };
const meta = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

beforeAll(async () => {
  t = await createImportTest();
  admin = await bearer(t, 'admin@sceau.example');
  validateur = await bearer(t, 'validateur@sceau.example');
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

/** Sends `data` with tus-js-client in pieces of `chunkSize`, as the browser does; resolves to the upload's id. */
function send(data: Buffer, kind: 'list' | 'photos', filename: string, headers: Record<string, string>, chunkSize = 64 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const upload = new TusClientUpload(data, {
      endpoint: `${base}/api/uploads`,
      chunkSize,
      retryDelays: [],
      metadata: { kind, filename },
      headers,
      onError: reject,
      onSuccess: () => resolve(upload.url!.split('/').pop()!),
    });
    upload.start();
  });
}

const fields = (extra: Record<string, string | number>) => ({
  template: t.templateId,
  generation_type: 'diplome_etat',
  session_id: t.sessionId,
  province_id: t.provinceId,
  ...extra,
});

async function check(extra: Record<string, string | number>, headers = admin, files: Parameters<typeof multipart>[1] = []) {
  const body = multipart(fields(extra), files);
  return t.app.inject({ method: 'POST', url: '/api/check-import-file', headers: { ...headers, ...body.headers }, payload: body.payload });
}

const create = (headers: Record<string, string>, length: number | null, metadata: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: { ...headers, ...TUS, ...(length === null ? { 'upload-defer-length': '1' } : { 'upload-length': String(length) }), 'upload-metadata': meta(metadata) },
  });
const patch = (headers: Record<string, string>, location: string, offset: number, data: Buffer) =>
  t.app.inject({
    method: 'PATCH',
    url: location,
    headers: { ...headers, ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    payload: data,
  });
const head = (headers: Record<string, string>, location: string) => t.app.inject({ method: 'HEAD', url: location, headers: { ...headers, ...TUS } });

describe('resumable uploads of a list and its photos', () => {
  it('sends a list and a photos zip with the tus client in pieces; the check takes them by id, then they are gone', async () => {
    const list = csv([row('20260000700001'), row('20260000700002', { nom: 'Ékofo' })]);
    const photos = await zip({ '20260000700001.jpg': await portrait(30, 600, 800), '20260000700002.jpg': await portrait(200, 600, 800) });
    const listId = await send(list, 'list', 'liste.csv', admin, 256);
    const photosId = await send(photos, 'photos', 'photos.zip', admin, 16 * 1024);
    const res = await check({ file_upload: listId, photos_upload: photosId });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ rows: 2, valid_rows: 2, error_count: 0, photos: { matched: 2 } });
    expect((await head(admin, `/api/uploads/${listId}`)).statusCode).toBe(404);
    expect((await head(admin, `/api/uploads/${photosId}`)).statusCode).toBe(404);
  });

  it('resumes a dropped upload from the offset the server kept', async () => {
    const list = csv([row('20260000700011'), row('20260000700012')]);
    const created = await create(admin, list.length, { kind: 'list', filename: 'liste.csv' });
    expect(created.statusCode).toBe(201);
    const location = created.headers.location as string;
    expect(location).toMatch(/^\/api\/uploads\/[0-9a-f]{32}$/);
    expect((await patch(admin, location, 0, list.subarray(0, 100))).statusCode).toBe(204);
    // The connection dropped here; the browser asks where to resume.
    const resumed = await head(admin, location);
    expect(resumed.headers['upload-offset']).toBe('100');
    expect(resumed.headers['upload-length']).toBe(String(list.length));
    // A piece sent from the wrong offset is refused, the right one completes it.
    expect((await patch(admin, location, 50, list.subarray(50))).statusCode).toBe(409);
    expect((await patch(admin, location, 100, list.subarray(100))).statusCode).toBe(204);
    const res = await check({ file_upload: location.split('/').pop()! });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ rows: 2, valid_rows: 2 });
  });

  it('refuses an upload without its kind or length, past its limit or empty, with a translated text', async () => {
    const noKind = await create({ ...admin, 'x-locale': 'en' }, 10, { filename: 'liste.csv' });
    expect(noKind.statusCode).toBe(400);
    expect(noKind.body).toBe('Upload refused: say whether it is the list or the photos zip.');
    const deferred = await create(admin, null, { kind: 'list' });
    expect(deferred.statusCode).toBe(400);
    expect(deferred.body).toContain('la taille du fichier doit être annoncée');
    const tooLarge = await create(admin, 21 * 1024 * 1024, { kind: 'list' });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.body).toBe('La liste ne doit pas dépasser 20 Mo');
    expect((await create(admin, 300 * 1024 * 1024, { kind: 'photos' })).statusCode).toBe(413);
    expect((await create(admin, 0, { kind: 'list' })).statusCode).toBe(400);
    // Past the declared length, a piece is refused whole.
    const small = await create(admin, 4, { kind: 'list' });
    expect((await patch(admin, small.headers.location as string, 0, Buffer.from('0123456789'))).statusCode).toBe(413);
  });

  it("keeps each upload its owner's: someone else is told it does not exist, also in the check", async () => {
    const created = await create(admin, 10, { kind: 'list', owner: '1' });
    const location = created.headers.location as string;
    const root = await bearer(t, 'root@sceau.example');
    expect((await head(root, location)).statusCode).toBe(404);
    expect((await patch(root, location, 0, Buffer.from('0123456789'))).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: location, headers: { ...root, ...TUS } })).statusCode).toBe(404);
    // Who may not check lists at all is refused before any upload is looked up.
    expect((await head(validateur, location)).statusCode).toBe(403);
    expect((await head(admin, '/api/uploads/..%2F..%2Fetc%2Fpasswd')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'HEAD', url: location, headers: TUS })).statusCode).toBe(401);
    // The owner is the server's to write, whatever the client claimed.
    const stored = await t.services.uploads.store.getUpload(location.split('/').pop()!);
    expect(stored.metadata?.owner).not.toBe('1');
    // Unfinished: the check names the field and says why.
    const unfinished = await check({ file_upload: location.split('/').pop()! });
    expect(unfinished.statusCode).toBe(422);
    expect(unfinished.json().errors.file).toEqual(["L'envoi de ce fichier n'est pas terminé. Reprenez-le avant de vérifier la liste."]);
    expect((await patch(admin, location, 0, Buffer.from('0123456789'))).statusCode).toBe(204);
    // Finished, but a list is no photos zip.
    const wrongKind = await check({ photos_upload: location.split('/').pop()! }, admin, [
      { name: 'file', filename: 'l.csv', type: 'text/csv', data: csv([row('20260000700021')]) },
    ]);
    expect(wrongKind.statusCode).toBe(422);
    expect(wrongKind.json().errors.photos).toEqual(['Ce fichier envoyé est introuvable ou a expiré. Choisissez-le de nouveau.']);
    const both = await check({ file_upload: location.split('/').pop()! }, admin, [{ name: 'file', filename: 'l.csv', type: 'text/csv', data: csv([row('20260000700022')]) }]);
    expect(both.statusCode).toBe(422);
    expect(Object.keys(both.json().errors)).toEqual(['file_upload']);
    expect((await t.app.inject({ method: 'DELETE', url: location, headers: { ...admin, ...TUS } })).statusCode).toBe(204);
    expect((await head(admin, location)).statusCode).toBe(404);
  });

  it(`holds at most ${UPLOADS_PER_ACCOUNT} unfinished or unused uploads per account`, async () => {
    const other = await bearer(t, 'root@sceau.example');
    const made: string[] = [];
    for (let i = 0; i < UPLOADS_PER_ACCOUNT; i++) {
      const res = await create(other, 10, { kind: 'list' });
      expect(res.statusCode).toBe(201);
      made.push(res.headers.location as string);
    }
    const refused = await create({ ...other, 'x-locale': 'en' }, 10, { kind: 'list' });
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toBe(`You already have ${UPLOADS_PER_ACCOUNT} unfinished or unused uploads. Finish them or wait for them to expire.`);
    for (const location of made) await t.app.inject({ method: 'DELETE', url: location, headers: { ...other, ...TUS } });
    expect((await create(other, 10, { kind: 'list' })).statusCode).toBe(201);
  });

  it('forgets uploads past their expiry, finished or not', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sceau-uploads-'));
    try {
      const uploads = new ResumableUploads({ directory: dir, expiryHours: 1 });
      const { Upload } = await import('@tus/server');
      await uploads.store.create(new Upload({ id: 'a'.repeat(32), size: 3, offset: 0, metadata: { kind: 'list', owner: '1' }, creation_date: new Date().toISOString() }));
      expect(await uploads.sweep()).toBe(0);
      expect(await uploads.sweep(Date.now() + 2 * 3600_000)).toBe(1);
      await expect(uploads.store.getUpload('a'.repeat(32))).rejects.toBeTruthy();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
