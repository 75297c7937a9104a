// The file-only half of a list's check, stored at upload beside the list, is reused by the start and
// by the job only when it was made from exactly these bytes (ADR 0111); the database half always runs.
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationItems, generations, importations } from '../../db/schema.ts';
import { bearer, createImportTest, csv, csvFile, multipart, row, zip, type ImportTest } from './imports-test-support.ts';

let t: ImportTest;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createImportTest();
  admin = await bearer(t, 'admin@sceau.example');
});
afterAll(() => t.close());

/** A list of `codes` with a zip holding a fitted photo for each, checked (draft); its stored check's key. */
async function checkedDraft(codes: string[], headers = admin) {
  const photo = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#8a9bb0' } })
    .jpeg({ quality: 80 })
    .toBuffer();
  const photos = await zip(Object.fromEntries(codes.map((c) => [`${c}.jpg`, photo])));
  const body = multipart({ template: t.templateId, session_id: t.sessionId, province_id: t.provinceId }, [
    csvFile(csv(codes.map((c) => row(c, { photo: `${c}.jpg` })))),
    { name: 'photos', filename: 'photos.zip', type: 'application/zip', data: photos },
  ]);
  const checked = await t.app.inject({ method: 'POST', url: '/api/check-import-file', headers: { ...headers, ...body.headers }, payload: body.payload });
  expect(checked.statusCode).toBe(200);
  const generationId = checked.json().data.generation_id as number;
  const [batch] = await t.ctx.db.select().from(generations).where(eq(generations.id, generationId));
  const checkKey = `${batch!.sourceFileKey!.slice(0, batch!.sourceFileKey!.lastIndexOf('/'))}/check.json`;
  return { generationId, checkKey };
}

async function importIt(generationId: number, title: string) {
  const started = await t.app.inject({ method: 'POST', url: '/api/start-import-process', headers: admin, payload: { generation_id: generationId, title } });
  expect(started.statusCode).toBe(202);
  const importationId = started.json().data.importation_id as number;
  await t.services.imports.job.handle({ importationId }, { id: `run-${importationId}` });
  const [done] = await t.ctx.db.select().from(importations).where(eq(importations.id, importationId));
  expect(done!.status).toBe('completed');
}

/** Rewrites the stored check: `change` edits its parsed JSON. */
async function editStoredCheck(key: string, change: (stored: { sessionYear: number; read: { read: { values: { lastName: string } | null }[] } }) => void) {
  const stored = JSON.parse((await t.services.storage.get(key))!.toString('utf8'));
  change(stored);
  await t.services.storage.put(key, Buffer.from(JSON.stringify(stored)));
}

const lastNames = async (generationId: number) =>
  (await t.ctx.db.select({ last: generationItems.lastName }).from(generationItems).where(eq(generationItems.generationId, generationId))).map((r) => r.last);

describe('the stored check of a list', () => {
  it('is what the start and the job use when the list and zip are those it was made from, and is removed once imported', async () => {
    const { generationId, checkKey } = await checkedDraft(['20267000000001', '20267000000002']);
    // Marked so that its use shows: the names it holds are what gets imported.
    await editStoredCheck(checkKey, (stored) => {
      for (const r of stored.read.read) r.values!.lastName = 'Depuis le contrôle';
    });
    await importIt(generationId, 'Lot réutilisé');
    expect(await lastNames(generationId)).toEqual(['Depuis le contrôle', 'Depuis le contrôle']);
    expect(await t.services.storage.get(checkKey)).toBeNull();
    // Photos were extracted from the zip by the names the check found.
    const items = await t.ctx.db.select().from(generationItems).where(eq(generationItems.generationId, generationId));
    for (const item of items) expect(await t.services.storage.get(item.photoKey!)).not.toBeNull();
  });

  it('is ignored (the list is read and checked again) when it was made for another session year, or is unreadable', async () => {
    const first = await checkedDraft(['20267000000011']);
    await editStoredCheck(first.checkKey, (stored) => {
      stored.sessionYear -= 1;
      for (const r of stored.read.read) r.values!.lastName = 'Périmé';
    });
    await importIt(first.generationId, 'Lot relu');
    expect(await lastNames(first.generationId)).toEqual(['Kabongo']);

    const second = await checkedDraft(['20267000000012']);
    await t.services.storage.put(second.checkKey, Buffer.from('{ not json'));
    await importIt(second.generationId, 'Lot relu 2');
    expect(await lastNames(second.generationId)).toEqual(['Kabongo']);
  });

  it('never spares the database half: a candidate imported by another batch since the upload is refused at the start', async () => {
    const a = await checkedDraft(['20267000000021']);
    // Another user's draft (a check by the same user would reuse `a`'s draft: ADR 0143).
    const b = await checkedDraft(['20267000000021'], await bearer(t, 'root@sceau.example'));
    await importIt(a.generationId, 'Premier lot');
    const started = await t.app.inject({ method: 'POST', url: '/api/start-import-process', headers: admin, payload: { generation_id: b.generationId, title: 'Second lot' } });
    expect(started.statusCode).toBe(422);
    const none = await t.ctx.db
      .select()
      .from(generationItems)
      .where(and(eq(generationItems.generationId, b.generationId)));
    expect(none).toHaveLength(0);
  });
});
