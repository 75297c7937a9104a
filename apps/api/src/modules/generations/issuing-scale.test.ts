// Scale-out (ADR 0105): two job consumers, each with its own database connections, share one batch's
// PDFs through chunk jobs; every diploma is stored and counted once and verifies.
import { verifyDocument } from '@sceau/credential';
import { extractAttachment, verifyDocumentTimestamps, verifyPdfSignature } from '@sceau/pdf';
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../db/client.ts';
import { diplomas, educProvinces, examSessions, generationItems, generations, institutionOptions, institutions } from '../../db/schema.ts';
import { JobQueue } from '../../jobs/job-queue.ts';
import { LocalFileStorage } from '../../lib/storage.ts';
import { demoPhoto, seedCountryTemplate, seedDemoSignatures } from '../../seed/demo-batch.ts';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';
import type { OpenChain } from '../chain/open-chain.ts';
import type { MinistryKeys } from '../keys/ministry-keys.ts';
import { moveGeneration } from './generation-status.ts';
import { issuingJobs } from './issuing-jobs.ts';
import { IssuingService, type ItemRange } from './issuing-service.ts';
import { closeSharedRenderPool } from './render-pool.ts';

const log = pino({ level: 'silent' });
let ctx: ChainTestContext;
let chain: OpenChain;
let keys: MinistryKeys;
let storage: LocalFileStorage;
const pools: Db[] = [];
const queues: JobQueue[] = [];

/** A batch of `count` validated candidates with photos, launched (in progress). */
async function launchedBatch(count: number, codeBase: number): Promise<number> {
  const db = ctx.db;
  const templateId = await seedCountryTemplate(db);
  const [session] = await db.select().from(examSessions).where(eq(examSessions.isCurrent, true));
  const [province] = await db.select().from(educProvinces).where(eq(educProvinces.code, 'KIN-FUN'));
  const [school] = await db.select().from(institutions).where(eq(institutions.educProvinceId, province!.id)).limit(1);
  const [option] = await db.select().from(institutionOptions).where(eq(institutionOptions.institutionId, school!.id)).limit(1);
  const photo = await demoPhoto(200);
  return db.transaction(async (tx) => {
    const [batch] = await tx
      .insert(generations)
      .values({
        type: 'diplome_etat',
        templateId,
        title: `scale ${codeBase}`,
        sessionId: session!.id,
        educProvinceId: province!.id,
        institutionId: school!.id,
        centreId: school!.centreId,
        optionId: option!.optionId,
      })
      .returning({ id: generations.id });
    const id = batch!.id;
    const rows: (typeof generationItems.$inferInsert)[] = [];
    for (let i = 0; i < count; i++) {
      const photoKey = `photos/scale/${id}/${i}.jpg`;
      await storage.put(photoKey, photo);
      rows.push({
        generationId: id,
        candidateCode: String(codeBase + i).padStart(14, '9'),
        lastName: 'Ilunga',
        middleName: 'Banza',
        firstName: `Élève ${i}`,
        birthDate: '2007-03-14',
        birthPlace: 'Kinshasa',
        gender: i % 2 ? 'M' : 'F',
        optionId: option!.optionId,
        institutionId: school!.id,
        centreId: school!.centreId!,
        percentageTenths: 600 + i,
        photoKey,
        photoStatus: 'validated',
        dataStatus: 'validated',
        sourceRow: i + 2,
      });
    }
    await tx.insert(generationItems).values(rows);
    await moveGeneration(tx, id, 'pending_validation', { reason: 'test' });
    await moveGeneration(tx, id, 'ready_for_generation', {});
    await moveGeneration(tx, id, 'in_progress', {});
    return id;
  });
}

/** One consumer: its own connections, its own IssuingService and queue; records the chunks it ran. */
async function consumer(name: string, ran: Map<string, string>) {
  const db = createDb(ctx.databaseUrl, 3);
  pools.push(db);
  const issuing = new IssuingService(db, ctx.config, keys, storage, chain, log);
  const renderRange = issuing.renderRange.bind(issuing);
  issuing.renderRange = async (generationId: number, range: ItemRange) => {
    ran.set(`${range.from}-${range.to}`, name);
    await renderRange(generationId, range);
  };
  const jobs = issuingJobs(issuing, { rangeSize: 6, renderConcurrency: 1 });
  const queue = new JobQueue(ctx.databaseUrl, log).define(jobs.generate, jobs.render);
  queues.push(queue);
  return { issuing, jobs, queue };
}

beforeAll(async () => {
  ctx = await createChainTestApp();
  ({ chain, keys } = ctx);
  storage = new LocalFileStorage(ctx.config.filesDir);
  await seedDemoSignatures(ctx.db, storage);
}, 120_000);

afterAll(async () => {
  for (const q of queues) await q.stop().catch(() => {});
  for (const db of pools) await db.$client.end().catch(() => {});
  await closeSharedRenderPool();
  await ctx?.close();
});

async function waitFor(check: () => Promise<boolean>, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('timed out');
}

/** Every diploma of the batch once, its PDF stored once, matching its hash, PAdES intact, carrying its credential. */
async function expectIssuedOnce(batchId: number, count: number) {
  const rows = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId));
  expect(rows).toHaveLength(count);
  expect(new Set(rows.map((r) => r.itemId)).size).toBe(count);
  const [batch] = await ctx.db.select().from(generations).where(eq(generations.id, batchId));
  expect(batch).toMatchObject({ status: 'ready_for_signature', progressDone: count, progressTotal: count });
  const files = await readdir(path.join(ctx.config.filesDir, 'diplomas', String(batchId)));
  expect(files.filter((f) => f.endsWith('.pdf')).sort()).toEqual(rows.map((r) => `${r.id}.pdf`).sort());
  for (const row of rows) {
    const pdf = (await storage.get(row.pdfKey!))!;
    expect(createHash('sha256').update(pdf).digest('hex')).toBe(row.pdfSha256);
    // PAdES B-LTA (ADR 0135): the signature, then the DSS and a document time-stamp over the whole file.
    expect(verifyPdfSignature(pdf)).toMatchObject({ intact: true, coversWholeFile: false });
    expect(verifyDocumentTimestamps(pdf)).toMatchObject([{ ok: true, coveredLength: pdf.length }]);
    const attached = JSON.parse(new TextDecoder().decode((await extractAttachment(pdf, 'credential.json'))!));
    expect(attached.signature.targetHash).toBe(row.targetHash);
    expect(verifyDocument(attached).integrity).toBe('ok');
  }
}

describe('several workers on one batch', () => {
  it('two queue consumers on separate connections share the chunks of one batch and issue each diploma once', async () => {
    const count = 36;
    const batchId = await launchedBatch(count, 1_000);
    const ran = new Map<string, string>();
    const a = await consumer('a', ran);
    const b = await consumer('b', ran);
    // Both run every job of the issuing queues; the generation job, run by one of them, sends the chunks.
    await a.queue.start({ work: true, pollingIntervalSeconds: 0.5 });
    await b.queue.start({ work: true, pollingIntervalSeconds: 0.5 });
    await a.queue.send(a.jobs.generate, { generationId: batchId });
    await waitFor(async () => (await ctx.db.select().from(generations).where(eq(generations.id, batchId)))[0]!.status === 'ready_for_signature', 120_000);
    // Six chunks of six, each run once, by both consumers between them.
    expect(ran.size).toBe(6);
    expect(new Set(ran.values())).toEqual(new Set(['a', 'b']));
    await expectIssuedOnce(batchId, count);
  }, 180_000);

  it.each([
    ['the main thread', 2_000, false],
    ['the render threads (ADR 0110)', 3_000, true],
  ])(
    'the same chunk run twice at the same time by two services stores and counts each diploma once (file work on %s)',
    async (_, codeBase, inThreads) => {
      const count = 10;
      const batchId = await launchedBatch(count, codeBase);
      const options = inThreads ? { workerFiles: { filesDir: ctx.config.filesDir, fileStorage: ctx.config.fileStorage } } : {};
      const [dbA, dbB] = [createDb(ctx.databaseUrl, 3), createDb(ctx.databaseUrl, 3)];
      pools.push(dbA, dbB);
      const a = new IssuingService(dbA, ctx.config, keys, storage, chain, log, options);
      const b = new IssuingService(dbB, ctx.config, keys, storage, chain, log, options);
      // Credentials once, then both render the whole range at once.
      let ranges: ItemRange[] = [];
      await a.generate(batchId, { fanOut: async (r) => void (ranges = r), rangeSize: 100 });
      expect(ranges).toHaveLength(1);
      await Promise.all([a.renderRange(batchId, ranges[0]!), b.renderRange(batchId, ranges[0]!)]);
      await expectIssuedOnce(batchId, count);
      expect(await a.pendingRanges(batchId, 100)).toEqual([]);
    },
    120_000,
  );

  it.each([
    ['the main thread', 4_000, false],
    ['the render threads', 5_000, true],
  ])(
    'a photo missing from the store fails the batch, naming the candidate, with no PDF left (file work on %s)',
    async (_, codeBase, inThreads) => {
      const batchId = await launchedBatch(8, codeBase);
      const [lost] = await ctx.db.select().from(generationItems).where(eq(generationItems.generationId, batchId)).orderBy(generationItems.id).offset(5).limit(1);
      await storage.delete(lost!.photoKey!);
      const options = inThreads ? { workerFiles: { filesDir: ctx.config.filesDir, fileStorage: ctx.config.fileStorage } } : {};
      const issuing = new IssuingService(ctx.db, ctx.config, keys, storage, chain, log, options);
      await issuing.generate(batchId);
      const [batch] = await ctx.db.select().from(generations).where(eq(generations.id, batchId));
      expect(batch).toMatchObject({ status: 'failed', lastError: `candidate ${lost!.candidateCode} has no photo` });
      const stored = await ctx.db.select({ key: diplomas.pdfKey }).from(diplomas).where(eq(diplomas.generationId, batchId));
      expect(stored.every((d) => d.key === null)).toBe(true);
      await expect(readdir(path.join(ctx.config.filesDir, 'diplomas', String(batchId)))).rejects.toThrow();
    },
    120_000,
  );
});
