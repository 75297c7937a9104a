import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, generationItems, generations } from '../../db/schema.ts';
import type { FileStorage } from '../../lib/storage.ts';
import { PhotoZipService } from './photo-zip.ts';
import { originalKeyOf } from '../../lib/photo-files.ts';
import { actorOf, bearer, createImportTest, csv, csvFile, multipart, portrait, row, schoolUser, zip, type ImportTest, type UploadFile } from './imports-test-support.ts';

/** A 360 × 480 portrait encoded by heif-enc (x265): an iPhone's HEIC, small. */
const HEIC = readFileSync(new URL('./fixtures/portrait.heic', import.meta.url));

let t: ImportTest;
let admin: Record<string, string>;
let validateur: Record<string, string>;
let e1User: Record<string, string>;
let e2User: Record<string, string>;

beforeAll(async () => {
  t = await createImportTest();
  admin = await bearer(t, 'admin@sceau.example');
  validateur = await bearer(t, 'validateur@sceau.example');
  e1User = await schoolUser(t, 'photos-e1@ecole.example', t.schools.e1);
  e2User = await schoolUser(t, 'photos-e2@ecole.example', t.schools.e2);
});
afterAll(() => t.close());

const zipFile = (data: Buffer): UploadFile => ({ name: 'photos', filename: 'photos.zip', type: 'application/zip', data });

async function check(files: UploadFile[], headers = admin) {
  const body = multipart({ template: t.templateId, session_id: t.sessionId, province_id: t.provinceId }, files);
  const res = await t.app.inject({ method: 'POST', url: '/api/check-import-file', headers: { ...headers, ...body.headers }, payload: body.payload });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

/** A batch of `codes` imported without photos (pending validation). */
async function importedBatch(codes: string[], headers = admin): Promise<number> {
  const data = await check([csvFile(csv(codes.map((c) => row(c))))], headers);
  expect(data.errors).toEqual([]);
  const started = await t.app.inject({ method: 'POST', url: '/api/start-import-process', headers, payload: { generation_id: data.generation_id, title: 'Lot photos' } });
  await t.services.imports.job.handle({ importationId: started.json().data.importation_id }, { id: 'test' });
  return data.generation_id;
}

function sendZip(generationId: number, data: Buffer | null, headers = admin, lang = 'fr') {
  const body = multipart({}, data ? [zipFile(data)] : []);
  return t.app.inject({ method: 'POST', url: `/api/generations/${generationId}/photos`, headers: { ...headers, ...body.headers, 'accept-language': lang }, payload: body.payload });
}

const small = () =>
  sharp({ create: { width: 60, height: 80, channels: 3, background: '#c96' } })
    .jpeg()
    .toBuffer();

describe('photos in a list check, row by row', () => {
  it('reads HEIC and GIF, refuses what it cannot read naming the row and the file, names every row without a photo, warns of small photos', async () => {
    const gif = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#c96' } })
      .gif()
      .toBuffer();
    const photos = await zip({
      'IMG/20260007000001.HEIC': HEIC,
      '20260007000002.gif': gif,
      '20260007000003.jpg': await small(),
      '20260007000004.pdf': Buffer.from('%PDF-1.7 not a photo'),
      '20260007000005.heic': Buffer.concat([HEIC.subarray(0, 40), Buffer.alloc(100, 3)]),
    });
    const codes = ['20260007000001', '20260007000002', '20260007000003', '20260007000004', '20260007000005', '20260007000006'];
    const data = await check([csvFile(csv(codes.map((c) => row(c)))), zipFile(photos)]);
    expect(data.errors.map((e: { row: number; column: string; code: string; message: string }) => [e.row, e.column, e.code, e.message])).toEqual([
      [5, 'photo', 'photo_unreadable', "Le fichier « 20260007000004.pdf » n'est pas une image"],
      [6, 'photo', 'photo_unreadable', expect.stringContaining('« 20260007000005.heic » : HEIC illisible')],
    ]);
    expect(data.photos).toEqual({
      files: 5,
      matched: 3,
      missing: [{ row: 7, candidate_code: '20260007000006' }],
      warnings: [{ row: 4, candidate_code: '20260007000003', file: '20260007000003.jpg', code: 'photo_too_small', message: expect.stringContaining('imprimée floue') }],
    });
  });
});

describe('a photos zip added to a batch before launch', () => {
  it('gives each photo named by a code to its candidate (HEIC, landscape), reports unmatched and refused files, keeps the original, audits once', async () => {
    const id = await importedBatch(['20260007100001', '20260007100002', '20260007100003', '20260007100004']);
    const [rejected] = await t.ctx.db
      .update(generationItems)
      .set({ rejected: true })
      .where(and(eq(generationItems.generationId, id), eq(generationItems.candidateCode, '20260007100004')))
      .returning();
    const landscape = await portrait(30, 6000, 4000);
    const res = await sendZip(
      id,
      await zip({
        'photos/20260007100001.heic': HEIC,
        '20260007100002.JPG': landscape,
        '20260007100003.png': Buffer.from('not a png'),
        '20260007100004.jpg': await portrait(50),
        '20269999999999.jpg': await portrait(70),
        'notes.txt': Buffer.from('notes'),
      }),
    );
    expect(res.statusCode).toBe(200);
    const report = res.json().data;
    expect(report).toMatchObject({
      message: '2 photos ajoutées : elles attendent leur validation.',
      generation_id: id,
      files: 6,
      added_count: 2,
      unmatched_count: 2,
      refused_count: 2,
      without_photo: 1,
    });
    expect(report.added.map((a: { file: string; candidate_code: string; warnings: { code: string }[] }) => [a.file, a.candidate_code, a.warnings.map((w) => w.code)])).toEqual([
      ['20260007100002.JPG', '20260007100002', ['photo_landscape']],
      ['photos/20260007100001.heic', '20260007100001', []],
    ]);
    expect(report.unmatched.map((u: { file: string }) => u.file)).toEqual(['20269999999999.jpg', 'notes.txt']);
    expect(report.refused.map((r: { file: string; code: string; message: string }) => [r.file, r.code, r.message])).toEqual([
      ['20260007100003.png', 'photo_unreadable', expect.stringContaining('20260007100003.png')],
      ['20260007100004.jpg', 'candidate_rejected', expect.stringContaining('est rejeté')],
    ]);

    const items = await t.ctx.db.select().from(generationItems).where(eq(generationItems.generationId, id)).orderBy(generationItems.candidateCode);
    expect(items.map((i) => [i.candidateCode, i.photoKey !== null, i.photoStatus])).toEqual([
      ['20260007100001', true, 'pending'],
      ['20260007100002', true, 'pending'],
      ['20260007100003', false, 'pending'],
      ['20260007100004', false, rejected!.photoStatus],
    ]);
    // The 300 × 400 copy cropped centre-top, and the original kept beside it, bounded.
    const photo = (await t.services.storage.get(items[1]!.photoKey!))!;
    expect(await sharp(photo).metadata()).toMatchObject({ width: 300, height: 400, format: 'jpeg' });
    const original = (await t.services.storage.get(originalKeyOf(items[1]!.photoKey!)))!;
    expect(await sharp(original).metadata()).toMatchObject({ width: 1600, height: 1067 });
    expect(await sharp((await t.services.storage.get(originalKeyOf(items[0]!.photoKey!)))!).metadata()).toMatchObject({ width: 360, height: 480 });

    const audit = await t.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'generation.photos_added'), eq(auditLog.subjectId, String(id))));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({ files: 6, added: 2, unmatched: 2, refused: 2 });

    // The English report.
    const en = await sendZip(id, await zip({ '20260007100003.jpg': await small() }), admin, 'en');
    expect(en.json().data).toMatchObject({ message: '1 photo added: it awaits validation.', without_photo: 0 });
    expect(en.json().data.added[0].warnings).toEqual([
      { code: 'photo_too_small', message: 'Photo “20260007100003.jpg” too small (under 300 × 400 pixels): it would print blurred' },
    ]);
  });

  it('serves the original to the editor, which crops from it rather than from the 300 × 400 copy', async () => {
    const id = await importedBatch(['20260007500001']);
    expect((await sendZip(id, await zip({ '20260007500001.jpg': await portrait(30, 6000, 4000) }))).statusCode).toBe(200);
    const [item] = await t.ctx.db.select().from(generationItems).where(eq(generationItems.generationId, id));
    const original = await t.app.inject({ method: 'GET', url: `/api/validations/photos/${id}/items/${item!.id}/photo/original`, headers: validateur });
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('image/jpeg');
    expect(await sharp(original.rawPayload).metadata()).toMatchObject({ width: 1600, height: 1067 });
    // Outside the scope, as unknown as a missing one.
    expect((await t.app.inject({ method: 'GET', url: `/api/validations/photos/${id}/items/${item!.id}/photo/original`, headers: e2User })).statusCode).toBe(404);
    // A crop in the original's pixels: outside the stored copy's 300 × 400, inside the original's 1600 × 1067.
    const crop = { x: 1000, y: 0, w: 600, h: 800 };
    const onCopy = await t.app.inject({ method: 'POST', url: '/api/validations/photos/validate', headers: validateur, payload: { item: item!.id, edits: { crop } } });
    expect(onCopy.statusCode).toBe(422);
    const onOriginal = await t.app.inject({
      method: 'POST',
      url: '/api/validations/photos/validate',
      headers: validateur,
      payload: { item: item!.id, edits: { source: 'original', crop } },
    });
    expect(onOriginal.statusCode).toBe(200);
    const [edited] = await t.ctx.db.select().from(generationItems).where(eq(generationItems.id, item!.id));
    expect(edited!.photoStatus).toBe('validated');
    expect(await sharp((await t.services.storage.get(edited!.photoKey!))!).metadata()).toMatchObject({ width: 300, height: 400 });
    // The original stays the original: a second edit crops from it again.
    expect((await t.app.inject({ method: 'GET', url: `/api/validations/photos/${id}/items/${item!.id}/photo/original`, headers: validateur })).statusCode).toBe(200);
  });

  it('takes the zip as a finished resumable upload of the caller (ADR 0150), and releases it', async () => {
    const id = await importedBatch(['20260007600001']);
    const photos = await zip({ '20260007600001.jpg': await portrait(140) });
    const tus = { 'tus-resumable': '1.0.0' };
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { ...admin, ...tus, 'upload-length': String(photos.length), 'upload-metadata': `kind ${Buffer.from('photos').toString('base64')}` },
    });
    const location = created.headers.location as string;
    const patched = await t.app.inject({
      method: 'PATCH',
      url: location,
      headers: { ...admin, ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: photos,
    });
    expect(patched.statusCode).toBe(204);
    const uploadId = location.split('/').pop()!;
    // Another account that may add photos to this batch cannot use it: to them it does not exist.
    const body = (fields: Record<string, string>) => multipart(fields, []);
    const other = body({ photos_upload: uploadId });
    const stranger = await t.app.inject({ method: 'POST', url: `/api/generations/${id}/photos`, headers: { ...e1User, ...other.headers }, payload: other.payload });
    expect(stranger.statusCode).toBe(422);
    expect(stranger.json().errors.photos).toEqual(['Ce fichier envoyé est introuvable ou a expiré. Choisissez-le de nouveau.']);
    const mine = body({ photos_upload: uploadId });
    const res = await t.app.inject({ method: 'POST', url: `/api/generations/${id}/photos`, headers: { ...admin, ...mine.headers }, payload: mine.payload });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.added).toHaveLength(1);
    expect((await t.app.inject({ method: 'HEAD', url: location, headers: { ...admin, ...tus } })).statusCode).toBe(404);
  });

  it('sends a batch that was ready back to validation', async () => {
    const id = await importedBatch(['20260007200001']);
    await t.ctx.db.update(generationItems).set({ photoStatus: 'validated', dataStatus: 'validated' }).where(eq(generationItems.generationId, id));
    await t.ctx.db.update(generations).set({ status: 'ready_for_generation' }).where(eq(generations.id, id));
    expect((await sendZip(id, await zip({ '20260007200001.jpg': await portrait(90) }))).statusCode).toBe(200);
    const [batch] = await t.ctx.db.select().from(generations).where(eq(generations.id, id));
    expect(batch!.status).toBe('pending_validation');
  });

  it('is for the batch’s scope and those who make batches, never after launch nor for a draft', async () => {
    const id = await importedBatch(['20260007300001'], e1User);
    const photos = await zip({ '20260007300001.jpg': await portrait(120) });
    // Inside the scope: the school's own user.
    expect((await sendZip(id, photos, e1User)).statusCode).toBe(200);
    // Outside: the other school's user (as if the batch did not exist), and without the permission.
    expect((await sendZip(id, photos, e2User)).statusCode).toBe(404);
    expect((await sendZip(id, photos, validateur)).statusCode).toBe(403);
    expect((await sendZip(999_999_999, photos)).statusCode).toBe(404);
    // Without a zip, or not a zip.
    expect((await sendZip(id, null)).json().errors.photos).toBeDefined();
    expect((await sendZip(id, Buffer.from('not a zip'))).statusCode).toBe(422);
    // After launch: refused, nothing changed.
    for (const status of ['in_progress', 'ready_for_signature', 'completed'] as const) {
      await t.ctx.db.update(generations).set({ status }).where(eq(generations.id, id));
      expect((await sendZip(id, photos)).statusCode).toBe(409);
    }
    // A draft takes its zip with its list check.
    const draft = await check([csvFile(csv([row('20260007300002')]))]);
    expect((await sendZip(draft.generation_id, photos)).statusCode).toBe(409);
  });

  it('is bounded as the list import: an entry that inflates past its cap is refused before anything is read', async () => {
    const id = await importedBatch(['20260007400001']);
    const bomb = await zip({ '20260007400001.jpg': Buffer.alloc(33 * 1024 * 1024) });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const res = await sendZip(id, bomb);
    expect(res.statusCode).toBe(413);
    expect(res.json().errors.photos).toBeDefined();
    const [item] = await t.ctx.db.select().from(generationItems).where(eq(generationItems.generationId, id));
    expect(item!.photoKey).toBeNull();
  });
});

describe('a photos zip changes every candidate or none (ADR 0060, amendment of 2026-11-27)', () => {
  const codes = ['20260007900001', '20260007900002'];

  /** Every file under the batch's photo folder, by key, with its bytes. */
  async function photoFiles(id: number): Promise<Record<string, Buffer>> {
    const root = t.ctx.config.filesDir;
    const entries = await readdir(path.join(root, 'photos', String(id)), { recursive: true, withFileTypes: true }).catch(() => []);
    const files: Record<string, Buffer> = {};
    for (const e of entries) if (e.isFile()) files[path.relative(root, path.join(e.parentPath, e.name))] = await readFile(path.join(e.parentPath, e.name));
    return files;
  }
  const rows = (id: number) =>
    t.ctx.db
      .select({ code: generationItems.candidateCode, photoKey: generationItems.photoKey, photoStatus: generationItems.photoStatus })
      .from(generationItems)
      .where(eq(generationItems.generationId, id))
      .orderBy(generationItems.candidateCode);

  let id: number;
  beforeAll(async () => {
    id = await importedBatch(codes);
    // Each candidate with a photo and its original (both photos larger than the box).
    expect((await sendZip(id, await zip({ [`${codes[0]}.jpg`]: await portrait(10, 600, 800), [`${codes[1]}.jpg`]: await portrait(20, 900, 1200) }))).statusCode).toBe(200);
  });

  it('leaves every photo and original byte for byte, and no new file, when its transaction fails', async () => {
    const before = await photoFiles(id);
    const rowsBefore = await rows(id);
    expect(Object.keys(before)).toHaveLength(4);
    // The batch leaves validation (a launch) while the zip's files are written: the transaction refuses it.
    const storage = t.services.storage;
    const put = storage.put;
    storage.put = async (key, data) => {
      await t.ctx.db.update(generations).set({ status: 'in_progress' }).where(eq(generations.id, id));
      return put.call(storage, key, data);
    };
    try {
      const res = await sendZip(id, await zip({ [`${codes[0]}.jpg`]: await portrait(200, 900, 1200), [`${codes[1]}.jpg`]: await portrait(250, 600, 800) }));
      expect(res.statusCode).toBe(409);
    } finally {
      storage.put = put;
      await t.ctx.db.update(generations).set({ status: 'pending_validation' }).where(eq(generations.id, id));
    }
    expect(await rows(id)).toEqual(rowsBefore);
    expect(await photoFiles(id)).toEqual(before);
  });

  it('replaces each photo and its original once it commits, and leaves no superseded file', async () => {
    const before = await photoFiles(id);
    const res = await sendZip(id, await zip({ [`${codes[0]}.jpg`]: await portrait(300, 900, 1200), [`${codes[1]}.jpg`]: await portrait(330, 600, 800) }));
    expect(res.statusCode).toBe(200);
    const after = await photoFiles(id);
    const now = await rows(id);
    // Exactly each candidate's photo and the original beside it, all new.
    expect(Object.keys(after).sort()).toEqual(now.flatMap((r) => [r.photoKey!, originalKeyOf(r.photoKey!)]).sort());
    for (const key of Object.keys(before)) expect(after[key]).toBeUndefined();
    const heights = await Promise.all(now.map(async (r) => (await sharp(after[originalKeyOf(r.photoKey!)]!).metadata()).height));
    expect(heights).toEqual([1200, 800]);
  });

  it('logs a superseded file it could not delete, and the photos are still added', async () => {
    const before = await rows(id);
    // The store refuses every deletion (a permission changed, a bucket policy).
    const storage = Object.create(t.services.storage) as FileStorage;
    storage.delete = async () => {
      throw new Error('EACCES: permission denied');
    };
    const warn = vi.fn();
    const actor = await actorOf(t.ctx.db, 'admin@sceau.example');
    const outcome = await new PhotoZipService(t.ctx.db, storage, { warn }).addPhotos(actor, id, await zip({ [`${codes[0]}.jpg`]: await portrait(90, 900, 1200) }));
    expect(outcome.added).toHaveLength(1);
    const old = before[0]!.photoKey!;
    expect((await rows(id))[0]!.photoKey).not.toBe(old);
    // The photo and its original, left behind, each named for an operator to find.
    expect(warn).toHaveBeenCalledWith({ err: new Error('EACCES: permission denied'), key: old }, expect.any(String));
    expect(warn).toHaveBeenCalledWith({ err: new Error('EACCES: permission denied'), key: originalKeyOf(old) }, expect.any(String));
    expect(await t.services.storage.get(old)).not.toBeNull();
    expect(await t.services.storage.get(originalKeyOf(old))).not.toBeNull();
  });
});
