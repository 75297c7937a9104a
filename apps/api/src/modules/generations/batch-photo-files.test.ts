// A batch's photos and the originals kept for the editor (ADR 0147) are deleted once nothing needs
// them, on the real app with the local file store (the S3 store: issuing-s3.test.ts): a photo
// replaced by an upload or a photos zip, and every photo of a cancelled batch. A key another candidate still names
// (here a published batch's) is kept, and so is everything of the published batch.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { generationItems } from '../../db/schema.ts';
import { demoPhoto } from '../../seed/demo-batch.ts';
import { createServices, type Services } from '../../services.ts';
import { insertTwoCandidateBatch } from '../../../test/batches.ts';
import { createTestApp, signIn, type TestContext } from '../../../test/helpers.ts';
import { originalKeyOf, originalPhotoKey, photoKey } from '../../lib/photo-files.ts';
import { multipart, portrait, zip } from '../imports/imports-test-support.ts';

let ctx: TestContext;
let services: Services;
let app: App;
let root: Record<string, string>;
/** A batch in validation, both candidates with a photo and its original as the import writes them. */
let open: { id: number; items: { id: number; code: string }[] };
/** A published batch: its first candidate's own photo, its second showing the open batch's second photo. */
let published: { id: number; own: string };

const items = (generationId: number) => ctx.db.select().from(generationItems).where(eq(generationItems.generationId, generationId)).orderBy(generationItems.id);
const stored = async (key: string) => (await services.storage.get(key)) !== null;

beforeAll(async () => {
  ctx = await createTestApp();
  services = createServices(ctx.db, ctx.config);
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  root = { authorization: `Bearer ${await signIn(ctx, 'root@sceau.example')}` };
  const batch = await insertTwoCandidateBatch(ctx.db, {
    status: 'pending_validation',
    codeBase: 20269600000000,
    candidate: async (id, i) => {
      const code = `${20269600000000 + id * 10 + i}`;
      await services.storage.put(photoKey(id, code), await demoPhoto(30 * i));
      await services.storage.put(originalPhotoKey(id, code), await portrait(30 * i, 600, 800));
      return { photoKey: photoKey(id, code) };
    },
  });
  open = { id: batch.batchId, items: (await items(batch.batchId)).map((r) => ({ id: r.id, code: r.candidateCode })) };
  const shared = photoKey(open.id, open.items[1]!.code);
  let own = '';
  const done = await insertTwoCandidateBatch(ctx.db, {
    status: 'completed',
    codeBase: 20269500000000,
    candidate: async (id, i) => {
      if (i === 1) return { photoKey: shared, photoStatus: 'validated', dataStatus: 'validated' };
      own = photoKey(id, `${20269500000000 + id * 10}`);
      await services.storage.put(own, await demoPhoto(200));
      return { photoKey: own, photoStatus: 'validated', dataStatus: 'validated' };
    },
  });
  published = { id: done.batchId, own };
}, 120_000);
afterAll(async () => {
  await app?.close();
  await ctx?.close();
});

describe("a batch's photo files", () => {
  it('a photo replaced by an upload is deleted; the upload is the new photo and its original', async () => {
    const first = open.items[0]!;
    const importedOriginal = await services.storage.get(originalPhotoKey(open.id, first.code));
    const body = multipart({}, [{ name: 'photo', filename: 'photo.jpg', type: 'image/jpeg', data: await portrait(90, 900, 1200) }]);
    const res = await app.inject({ method: 'POST', url: `/api/validations/photos/${first.id}/upload`, headers: { ...root, ...body.headers }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = (await items(open.id)).filter((r) => r.id === first.id);
    expect(row!.photoKey).not.toBe(photoKey(open.id, first.code));
    expect(await stored(row!.photoKey!)).toBe(true);
    expect(await stored(photoKey(open.id, first.code))).toBe(false);
    // The upload's original beside it; the imported photo's original went with it.
    const original = await services.storage.get(originalKeyOf(row!.photoKey!));
    expect(original).not.toBeNull();
    expect(original!.equals(importedOriginal!)).toBe(false);
    expect(await stored(originalPhotoKey(open.id, first.code))).toBe(false);
  });

  it('a photo replaced by a photos zip is deleted, unless another candidate still names it (here a published one)', async () => {
    const second = open.items[1]!;
    const shared = photoKey(open.id, second.code);
    const body = multipart({}, [{ name: 'photos', filename: 'photos.zip', type: 'application/zip', data: await zip({ [`${second.code}.jpg`]: await portrait(150, 600, 800) }) }]);
    const res = await app.inject({ method: 'POST', url: `/api/generations/${open.id}/photos`, headers: { ...root, ...body.headers }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.added).toHaveLength(1);
    const [row] = (await items(open.id)).filter((r) => r.id === second.id);
    expect(row!.photoKey).not.toBe(shared);
    expect(await stored(row!.photoKey!)).toBe(true);
    expect(await stored(shared)).toBe(true);
    expect((await items(published.id))[1]!.photoKey).toBe(shared);
  });

  it('cancelling the batch deletes its photos and originals, keeps what another candidate still names and the published batch whole', async () => {
    const before = await items(open.id);
    const keys = before.map((r) => r.photoKey!);
    const shared = photoKey(open.id, open.items[1]!.code);
    const res = await app.inject({ method: 'DELETE', url: `/api/generations/${open.id}/cancel`, headers: root });
    expect(res.statusCode, res.body).toBe(200);
    expect((await items(open.id)).map((r) => r.photoKey)).toEqual([null, null]);
    // The uploaded photo, the zip's photo, and both originals, are gone.
    for (const key of keys) expect([await stored(key), await stored(originalKeyOf(key))]).toEqual([false, false]);
    for (const { code } of open.items) expect(await stored(originalPhotoKey(open.id, code))).toBe(false);
    // The photo the published candidate shows is kept (verifiers are still served it), as is its batch's own.
    expect(await stored(shared)).toBe(true);
    expect((await items(published.id)).map((r) => r.photoKey)).toEqual([published.own, shared]);
    expect(await stored(published.own)).toBe(true);
  });
});
