// End to end with FILE_STORAGE=s3 (ADR 0108): a batch imported (list + photos zip), a photo uploaded
// during validation, the diplomas generated and anchored, against a real S3 server (fauxqs, a child
// process on 127.0.0.1). Every file lands in the bucket under S3_PREFIX and none on the local disk;
// the zip export streams from the bucket; the diplomas verify by id and by their PDF; a cancelled
// batch's PDFs, photos and originals are removed from the bucket.
import { verifyDocumentTimestamps, verifyPdfSignature } from '@sceau/pdf';
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { diplomas, educProvinces, examSessions, generationItems, generations, importations, templates, countries } from '../../db/schema.ts';
import { originalKeyOf } from '../../lib/photo-files.ts';
import { S3FileStorage } from '../../lib/s3-storage.ts';
import { seedCountryTemplate, seedDemoSignatures } from '../../seed/demo-batch.ts';
import { createServices, type Services } from '../../services.ts';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';
import { signIn } from '../../../test/helpers.ts';
import { startS3Server, type TestS3Server } from '../../../test/s3-server.ts';
import type { OpenChain } from '../chain/open-chain.ts';
import { csv, csvFile, multipart, portrait, row, zip } from '../imports/imports-test-support.ts';
import { openZip } from '../imports/zip-archive.ts';
import { moveGeneration, moveSignature } from './generation-status.ts';

const BUCKET = 'sceau-files';
const PREFIX = 'sceau/';
let s3: TestS3Server;
let ctx: ChainTestContext;
let chain: OpenChain;
let services: Services;
let app: App;
let admin: Record<string, string>;
let ids: { template: number; session: number; province: number };

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const inBucket = async (prefix: string) => (await s3.list(BUCKET, `${PREFIX}${prefix}`)).map((k) => k.slice(PREFIX.length));
async function objectBytes(key: string): Promise<Buffer> {
  const answer = await s3.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}${key}` }));
  return Buffer.from(await answer.Body!.transformToByteArray());
}

beforeAll(async () => {
  s3 = await startS3Server();
  await s3.createBucket(BUCKET);
  ctx = await createChainTestApp({
    FILE_STORAGE: 's3',
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: BUCKET,
    S3_REGION: s3.region,
    S3_ACCESS_KEY_ID: s3.credentials.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
    S3_PREFIX: PREFIX,
  });
  chain = ctx.chain;
  services = createServices(ctx.db, ctx.config, { identity: { keys: ctx.keys, chain } });
  expect(services.storage).toBeInstanceOf(S3FileStorage);
  await services.storage.check!();
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  await seedCountryTemplate(ctx.db);
  await seedDemoSignatures(ctx.db, services.storage);
  const [session] = await ctx.db.select().from(examSessions).where(eq(examSessions.year, 2026));
  const [province] = await ctx.db.select().from(educProvinces).where(eq(educProvinces.code, 'KIN-FUN'));
  const [congo] = await ctx.db.select().from(countries).where(eq(countries.code, 'CD'));
  const [template] = await ctx.db.select().from(templates).where(eq(templates.ownerId, congo!.id));
  ids = { template: template!.id, session: session!.id, province: province!.id };
  admin = { authorization: `Bearer ${await signIn(ctx, 'root@sceau.example')}` };
}, 120_000);

afterAll(async () => {
  await app?.close();
  await (services?.storage as S3FileStorage | undefined)?.close();
  await ctx?.close();
  await s3?.stop();
});

/** Imports `codes` through the routes and the import job; the first `withPhotos` have a photo in the zip. */
async function importBatch(codes: string[], withPhotos: number, title: string): Promise<number> {
  const photos: Record<string, Buffer> = {};
  for (const [i, code] of codes.slice(0, withPhotos).entries()) photos[`${code}.jpg`] = await portrait(30 * i, 600, 800);
  const body = multipart({ template: ids.template, session_id: ids.session, province_id: ids.province }, [
    csvFile(csv(codes.map((code, i) => row(code, { prenom: ['Amina', 'Bénédicte', 'Chance', 'Dorcas', 'Esther', 'Fiston'][i]! })))),
    { name: 'photos', filename: 'photos.zip', type: 'application/zip', data: await zip(photos) },
  ]);
  const checked = await app.inject({ method: 'POST', url: '/api/check-import-file', headers: { ...admin, ...body.headers }, payload: body.payload });
  expect(checked.statusCode, checked.body).toBe(200);
  expect(checked.json().data).toMatchObject({ valid_rows: codes.length, errors: [] });
  const generationId = checked.json().data.generation_id as number;
  const started = await app.inject({ method: 'POST', url: '/api/start-import-process', headers: admin, payload: { generation_id: generationId, title } });
  expect(started.statusCode, started.body).toBe(202);
  const importationId = started.json().data.importation_id as number;
  await services.imports.job.handle({ importationId }, { id: `import-${importationId}` });
  const [done] = await ctx.db.select().from(importations).where(eq(importations.id, importationId));
  expect(done).toMatchObject({ status: 'completed' });
  return generationId;
}

/** Validation marked done, then the launch, the generation (PDFs) and, unless told otherwise, the anchoring. */
async function issue(generationId: number, { anchor = true } = {}): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await tx.update(generationItems).set({ photoStatus: 'validated', dataStatus: 'validated' }).where(eq(generationItems.generationId, generationId));
    await moveGeneration(tx, generationId, 'ready_for_generation', { reason: 'test: validation done' });
    await moveGeneration(tx, generationId, 'in_progress', { changes: { progressDone: 0, progressTotal: 0, lastError: null } });
  });
  await services.issuing!.generate(generationId);
  if (!anchor) return;
  await ctx.db.transaction((tx) => moveSignature(tx, generationId, 'in_progress', {}));
  await services.issuing!.anchor(generationId);
}

let batchId: number;

describe('issuing with FILE_STORAGE=s3', () => {
  it('imports a list and its photos into the bucket (the photo zip is removed once imported)', async () => {
    const codes = ['20264000000001', '20264000000002', '20264000000003', '20264000000004'];
    batchId = await importBatch(codes, 3, 'Lot S3');
    // Each photo's 300 × 400 copy, and its original the editor crops from (ADR 0147).
    // Under keys of their own (newPhotoKey), as each row names them.
    const named = (await ctx.db.select({ key: generationItems.photoKey }).from(generationItems).where(eq(generationItems.generationId, batchId)))
      .map((r) => r.key)
      .filter((k): k is string => k !== null);
    expect(named).toHaveLength(3);
    for (const c of codes.slice(0, 3)) expect(named.some((k) => new RegExp(`^photos/${batchId}/${c}-[0-9a-f]{16}-[0-9a-f]{8}\\.jpg$`).test(k))).toBe(true);
    const stored = named.flatMap((k) => [k, originalKeyOf(k)]);
    expect((await inBucket(`photos/${batchId}/`)).sort()).toEqual(stored.sort());
    const [importation] = await ctx.db.select().from(importations).where(eq(importations.generationId, batchId));
    expect(await inBucket(importation!.fileKey)).toEqual([importation!.fileKey]);
    expect((await objectBytes(importation!.fileKey)).toString('utf8')).toContain('20264000000004');
    expect(importation!.photosKey).not.toBeNull();
    expect(await inBucket(importation!.photosKey!)).toEqual([]);
    // Signature images went to the bucket too.
    expect((await inBucket('signatures/')).length).toBeGreaterThanOrEqual(3);
  });

  it('serves stored photos to validators and stores an uploaded one in the bucket', async () => {
    const items = await ctx.db.select().from(generationItems).where(eq(generationItems.generationId, batchId)).orderBy(generationItems.candidateCode);
    const photo = await app.inject({ method: 'GET', url: `/api/validations/photos/${batchId}/items/${items[0]!.id}/photo`, headers: admin });
    expect(photo.statusCode).toBe(200);
    expect(sha(photo.rawPayload)).toBe(sha(await objectBytes(items[0]!.photoKey!)));

    const without = items[3]!;
    expect(without.photoKey).toBeNull();
    const body = multipart({}, [{ name: 'photo', filename: 'photo.jpg', type: 'image/jpeg', data: await portrait(300) }]);
    const uploaded = await app.inject({ method: 'POST', url: `/api/validations/photos/${without.id}/upload`, headers: { ...admin, ...body.headers }, payload: body.payload });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const [after] = await ctx.db.select().from(generationItems).where(eq(generationItems.id, without.id));
    expect(after!.photoKey).toMatch(new RegExp(`^photos/${batchId}/${without.candidateCode}-[0-9a-f]{16}-[0-9a-f]{8}\\.jpg$`));
    expect(await inBucket(after!.photoKey!)).toEqual([after!.photoKey]);
  });

  it('generates and anchors the batch: every PDF is in the bucket with the hash recorded for it, and nothing on the local disk', async () => {
    await issue(batchId);
    const [batch] = await ctx.db.select().from(generations).where(eq(generations.id, batchId));
    expect(batch).toMatchObject({ status: 'completed', signatureStatus: 'finished', progressDone: 4 });
    const rows = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId));
    expect(rows).toHaveLength(4);
    expect(await inBucket(`diplomas/${batchId}/`)).toEqual(rows.map((r) => `diplomas/${batchId}/${r.id}.pdf`).sort());
    for (const r of rows) {
      const pdf = await objectBytes(r.pdfKey!);
      expect(sha(pdf)).toBe(r.pdfSha256);
      // PAdES B-LTA (ADR 0135): the signature, then the DSS and a document time-stamp over the whole file.
      expect(verifyPdfSignature(pdf)).toMatchObject({ intact: true, coversWholeFile: false });
      expect(verifyDocumentTimestamps(pdf)).toMatchObject([{ ok: true, coveredLength: pdf.length }]);
    }
    // DATA_DIR holds the keys, the chain and the outbox, but no stored file.
    expect(await readdir(ctx.config.filesDir).catch(() => [])).toEqual([]);
  });

  it('streams the zip export from the bucket, one PDF per diploma, identical to the stored ones', async () => {
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const res = await fetch(`${address}/api/generations/${batchId}/export-zip`, { headers: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('transfer-encoding')).toBe('chunked'); // streamed, not built whole first
    expect(res.headers.get('content-length')).toBeNull();
    let chunks = 0;
    const parts: Buffer[] = [];
    for await (const chunk of res.body!) {
      chunks++;
      parts.push(Buffer.from(chunk));
    }
    expect(chunks).toBeGreaterThan(1);
    const archive = await openZip(Buffer.concat(parts));
    try {
      const rows = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId));
      expect(archive.files.size).toBe(rows.length);
      const stored = new Set(rows.map((r) => r.pdfSha256));
      for (const entry of archive.files.values()) expect(stored.has(sha(await archive.read(entry)))).toBe(true);
    } finally {
      archive.close();
    }
  });

  it('verifies each diploma by id, by its PDF from the bucket, and serves its PDF and photo publicly', async () => {
    const rows = await ctx.db
      .select()
      .from(diplomas)
      .where(and(eq(diplomas.generationId, batchId), isNotNull(diplomas.pdfKey)));
    for (const r of rows) {
      const byId = await app.inject({ method: 'GET', url: `/api/verify/${r.id}` });
      expect(byId.json().data.verdict, r.id).toBe('authentic');
    }
    const first = rows[0]!;
    const pdf = await app.inject({ method: 'GET', url: `/api/verify/${first.id}/pdf` });
    expect(pdf.statusCode).toBe(200);
    expect(sha(pdf.rawPayload)).toBe(first.pdfSha256);
    const [item] = await ctx.db.select().from(generationItems).where(eq(generationItems.id, first.itemId));
    const photo = await app.inject({ method: 'GET', url: `/api/verify/${first.id}/photo` });
    expect(photo.statusCode).toBe(200);
    expect(sha(photo.rawPayload)).toBe(sha(await objectBytes(item!.photoKey!)));

    const boundary = '----sceau-s3-verify';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="cert_document"; filename="diplome.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
      pdf.rawPayload,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const upload = await app.inject({ method: 'POST', url: '/api/generations/verify', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(upload.json().data.verdict).toBe('authentic');
    expect(upload.json().data.checks.find((c: { name: string }) => c.name === 'pdf_signature').status).toBe('passed');
  });

  it("removes a cancelled batch's PDFs, photos and their originals from the bucket", async () => {
    const id = await importBatch(['20264000000011', '20264000000012'], 2, 'Lot S3 annulé');
    await issue(id, { anchor: false });
    expect(await inBucket(`diplomas/${id}/`)).toHaveLength(2);
    expect(await inBucket(`photos/${id}/`)).toHaveLength(4);
    const cancelled = await app.inject({ method: 'DELETE', url: `/api/generations/${id}/cancel`, headers: admin });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await inBucket(`diplomas/${id}/`)).toEqual([]);
    expect(await inBucket(`photos/${id}/`)).toEqual([]);
    // The published batch's files are untouched: its PDFs, and the photo each diploma shows.
    expect(await inBucket(`diplomas/${batchId}/`)).toHaveLength(4);
    const shown = (await ctx.db.select().from(generationItems).where(eq(generationItems.generationId, batchId))).map((r) => r.photoKey!);
    expect(shown).toHaveLength(4);
    for (const key of shown) expect(await inBucket(key)).toEqual([key]);
  }, 60_000);
});
