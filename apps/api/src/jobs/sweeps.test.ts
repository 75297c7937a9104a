import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { generationItems, generations, institutionOptions, institutions } from '../db/schema.ts';
import { originalKeyOf } from '../lib/photo-files.ts';
import { bearer, createImportTest, csv, csvFile, multipart, portrait, row, zip, type ImportTest } from '../modules/imports/imports-test-support.ts';
import { JobQueue } from './job-queue.ts';
import { ORPHAN_PHOTO_CURSOR_KEY, Sweeper } from './sweeps.ts';

const silent = { info() {}, warn() {}, error() {} };
let t: ImportTest;
let admin: Record<string, string>;
let sweeper: Sweeper;

beforeAll(async () => {
  t = await createImportTest();
  admin = await bearer(t, 'admin@sceau.example');
  sweeper = new Sweeper(t.ctx.db, t.services.storage, { draftTtlHours: 24, filesDir: t.ctx.config.filesDir }, silent);
});
afterAll(() => t.close());

/** A list check, as the page makes it: a draft batch with its list (and a photos zip) stored. */
async function draft(code: string, headers = admin): Promise<number> {
  const body = multipart({ template: t.templateId, generation_type: 'diplome_etat', session_id: t.sessionId, province_id: t.provinceId }, [
    csvFile(csv([row(code, { photo: `${code}.jpg` })])),
    { name: 'photos', filename: 'photos.zip', type: 'application/zip', data: await zip({ [`${code}.jpg`]: await portrait(30) }) },
  ]);
  const res = await t.app.inject({ method: 'POST', url: '/api/check-import-file', headers: { ...headers, ...body.headers }, payload: body.payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.generation_id as number;
}

async function filesOf(id: number): Promise<string[]> {
  const [batch] = await t.ctx.db.select().from(generations).where(eq(generations.id, id));
  const list = batch!.sourceFileKey!;
  return [list, `${list.slice(0, list.lastIndexOf('/'))}/check.json`, batch!.sourcePhotosKey!];
}

const age = (ids: number[], hours: number) =>
  t.ctx.db
    .update(generations)
    .set({ updatedAt: sql`now() - make_interval(hours => ${hours})` })
    .where(inArray(generations.id, ids));

describe('sweeping abandoned list checks', () => {
  it('deletes a draft never started and older than the TTL with its files; keeps a fresh draft and a started batch', { timeout: 60_000 }, async () => {
    // A user's next check reuses their untouched draft (ADR 0143): the started batch first, the fresh draft another user's.
    const started = await draft('20260000900003');
    const start = await t.app.inject({ method: 'POST', url: '/api/start-import-process', headers: admin, payload: { generation_id: started, title: 'Lot démarré' } });
    expect(start.statusCode, start.body).toBe(202);
    const abandoned = await draft('20260000900001');
    const fresh = await draft('20260000900002', await bearer(t, 'root@sceau.example'));
    const abandonedFiles = await filesOf(abandoned);
    const keptFiles = [...(await filesOf(fresh)), ...(await filesOf(started))];
    for (const key of [...abandonedFiles, ...keptFiles]) expect(await t.services.storage.get(key), key).not.toBeNull();
    await age([abandoned, started], 25);
    await age([fresh], 23);

    const result = await sweeper.sweepDrafts();
    expect(result).toEqual({ drafts: 1, draftFiles: 3 });
    const left = await t.ctx.db
      .select({ id: generations.id })
      .from(generations)
      .where(inArray(generations.id, [abandoned, fresh, started]));
    expect(left.map((r) => r.id).sort()).toEqual([fresh, started].sort());
    for (const key of abandonedFiles) expect(await t.services.storage.get(key), key).toBeNull();
    for (const key of keptFiles) expect(await t.services.storage.get(key), key).not.toBeNull();
    // Nothing more to do on the next run.
    expect(await sweeper.sweepDrafts()).toEqual({ drafts: 0, draftFiles: 0 });
  });

  it('reads the TTL from IMPORT_DRAFT_TTL_HOURS (default 24)', () => {
    expect(loadConfig({}).importDraftTtlHours).toBe(24);
    expect(loadConfig({ IMPORT_DRAFT_TTL_HOURS: '2' }).importDraftTtlHours).toBe(2);
  });
});

describe('sweeping temporary files', () => {
  it('removes *.tmp files older than an hour, and nothing else', async () => {
    const root = t.ctx.config.filesDir;
    const write = async (relative: string, hoursAgo: number) => {
      const file = path.join(root, relative);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, 'x');
      const when = new Date(Date.now() - hoursAgo * 3600_000);
      await utimes(file, when, when);
      return file;
    };
    const killed = await write('photos/9001/20260000900001.jpg.0a1b2c3d.tmp', 2);
    const killedPdf = await write('pdfs/9001/abc.pdf.deadbeef.tmp', 1.5);
    const writing = await write('photos/9001/20260000900002.jpg.11223344.tmp', 0.2);
    const photo = await write('photos/9001/20260000900001.jpg', 5);
    expect(await sweeper.sweepTemporaryFiles()).toBe(2);
    expect(existsSync(killed)).toBe(false);
    expect(existsSync(killedPdf)).toBe(false);
    expect(existsSync(writing)).toBe(true);
    expect(existsSync(photo)).toBe(true);
  });
});

describe('sweeping orphan photo files', () => {
  /** A batch of no candidates yet. */
  async function newBatch(): Promise<number> {
    const [batch] = await t.ctx.db
      .insert(generations)
      .values({
        type: 'diplome_etat',
        templateId: t.templateId,
        sessionId: t.sessionId,
        educProvinceId: t.provinceId,
        institutionId: t.schools.e1,
        status: 'ready_for_generation',
        createdBy: null,
      })
      .returning();
    return batch!.id;
  }

  /** Candidates of the batch whose rows name these photo keys. */
  async function naming(batchId: number, photoKeys: string[]): Promise<void> {
    const [school] = await t.ctx.db.select().from(institutions).where(eq(institutions.id, t.schools.e1));
    const [option] = await t.ctx.db.select().from(institutionOptions).where(eq(institutionOptions.institutionId, school!.id)).limit(1);
    await t.ctx.db.insert(generationItems).values(
      photoKeys.map((photoKey, i) => ({
        generationId: batchId,
        candidateCode: `${20269800000000 + batchId * 10 + i}`,
        lastName: 'Matondo',
        birthDate: '2007-02-01',
        birthPlace: 'Matadi',
        gender: 'F' as const,
        optionId: option!.optionId,
        institutionId: school!.id,
        centreId: school!.centreId,
        percentageTenths: 600,
        photoKey,
      })),
    );
  }

  /** Writes a file through the store, then dates it `hoursAgo`. */
  async function stored(key: string, hoursAgo: number): Promise<string> {
    await t.services.storage.put(key, Buffer.from(key));
    const when = new Date(Date.now() - hoursAgo * 3600_000);
    await utimes(path.join(t.ctx.config.filesDir, key), when, when);
    return key;
  }
  const exists = async (key: string) => (await t.services.storage.get(key)) !== null;

  // Each test starts from the first file, not where another test's sweeper stopped.
  beforeEach(() => t.services.storage.delete(ORPHAN_PHOTO_CURSOR_KEY));

  it('deletes photos and originals older than a day that no candidate names; keeps named ones whatever their age, and young ones', async () => {
    const id = await newBatch();
    const named = `photos/${id}/20269800000001-0123456789abcdef.jpg`;
    const legacy = `photos/${id}/20269800000002.jpg`;
    await naming(id, [named, legacy]);
    const keep = [
      await stored(named, 24 * 400),
      await stored(originalKeyOf(named), 24 * 400),
      // Written before content keys, named by its row: kept, with its original.
      await stored(legacy, 48),
      await stored(originalKeyOf(legacy), 48),
      // Not yet named perhaps: an import's commit may still be coming.
      await stored(`photos/${id}/20269800000003-00000000000000aa.jpg`, 23),
      // Not a photo, or a write in progress: another sweep's business.
      await stored(`imports/${id}/list.csv`, 48),
      await stored(`photos/${id}/20269800000005-2222222222222222.jpg.0a1b2c3d.tmp`, 48),
    ];
    const superseded = `photos/${id}/20269800000001-fedcba9876543210.jpg`;
    const orphans = [
      await stored(superseded, 25),
      await stored(originalKeyOf(superseded), 25),
      // An original whose photo is gone already.
      await stored(originalKeyOf(`photos/${id}/20269800000004-1111111111111111.jpg`), 30),
      await stored(`photos/demo/${id}-1.jpg`, 48),
    ];
    const warnings: object[] = [];
    const watched = new Sweeper(t.ctx.db, t.services.storage, { draftTtlHours: 24, filesDir: t.ctx.config.filesDir }, { ...silent, warn: (obj) => warnings.push(obj) });
    expect(await watched.sweepOrphanPhotos()).toBe(orphans.length);
    for (const key of orphans) expect(await exists(key), key).toBe(false);
    for (const key of keep) expect(await exists(key), key).toBe(true);
    expect(warnings).toEqual([]);
    // Nothing more to do on the next run; the young one goes once it is a day old.
    expect(await watched.sweepOrphanPhotos()).toBe(0);
    expect(await watched.sweepOrphanPhotos(new Date(Date.now() + 2 * 3600_000))).toBe(1);
  });

  it('examines a bounded number of files per run and goes on where the previous run stopped, then from the first again', async () => {
    const id = await newBatch();
    const named = await stored(`photos/${id}/20269800000001.jpg`, 48);
    await naming(id, [named]);
    const orphans = await Promise.all(Array.from({ length: 5 }, (_, i) => stored(`photos/${id}/2026980000001${i}-0000000000000000.jpg`, 48)));
    const small = new Sweeper(t.ctx.db, t.services.storage, { draftTtlHours: 24, filesDir: t.ctx.config.filesDir, photoFilesPerRun: 2 }, silent);
    const files = async () => {
      let n = 0;
      for await (const _ of t.services.storage.list!('photos/')) n++;
      return n;
    };
    const runs = Math.ceil((await files()) / 2);
    const deleted: number[] = [];
    for (let i = 0; i < runs; i++) deleted.push(await small.sweepOrphanPhotos());
    expect(Math.max(...deleted)).toBeLessThanOrEqual(2);
    expect(deleted.reduce((a, b) => a + b)).toBe(orphans.length);
    for (const key of orphans) expect(await exists(key), key).toBe(false);
    expect(await exists(named)).toBe(true);
    // Past the last file, the next runs start again from the first: a new orphan anywhere is found.
    const late = await stored(`photos/${id}/20269800000000-0000000000000000.jpg`, 48);
    let found = 0;
    for (let i = 0; i <= runs && !found; i++) found = await small.sweepOrphanPhotos();
    expect(found).toBe(1);
    expect(await exists(late)).toBe(false);
  });

  it('logs a file it could not delete with its key, or a listing that failed, and goes on', async () => {
    const id = await newBatch();
    const orphan = await stored(`photos/${id}/20269800000001-0000000000000000.jpg`, 48);
    const warnings: { key?: string }[] = [];
    const failing = Object.assign(Object.create(t.services.storage), {
      deleteMany: async (keys: readonly string[]) => keys.map((key) => ({ key, error: new Error('access denied') })),
    });
    const sweeper = new Sweeper(t.ctx.db, failing, { draftTtlHours: 24, filesDir: t.ctx.config.filesDir }, { ...silent, warn: (obj) => warnings.push(obj) });
    expect(await sweeper.sweepOrphanPhotos()).toBe(0);
    expect(warnings.map((w) => w.key)).toContain(orphan);
    expect(await exists(orphan)).toBe(true);
    // A store that cannot list (S3 credentials without ListBucket): a warning, and the other sweeps still run.
    const unlisted = Object.assign(Object.create(t.services.storage), {
      // biome-ignore lint/correctness/useYield: fails before its first file, as a refused ListObjectsV2 does
      list: async function* () {
        throw new Error('AccessDenied');
      },
    });
    warnings.length = 0;
    const blind = new Sweeper(t.ctx.db, unlisted, { draftTtlHours: 24, filesDir: t.ctx.config.filesDir }, { ...silent, warn: (obj) => warnings.push(obj) });
    expect((await blind.sweep()).orphanPhotos).toBe(0);
    expect(warnings).toEqual([expect.objectContaining({ err: expect.objectContaining({ message: 'AccessDenied' }) })]);
    expect(await exists(orphan)).toBe(true);
  });
});

describe('looking up who names a photo', () => {
  it('reads the photo key index, not every candidate of every session (the sweep, a replaced photo)', async () => {
    const keys = ['photos/1/a-0123456789abcdef.jpg', 'photos/1/originals/a-0123456789abcdef.jpg'];
    // The statement removeUnusedPhotos and the orphan sweep send, planned with sequential scans priced out.
    const { sql: text, params } = t.ctx.db.selectDistinct({ key: generationItems.photoKey }).from(generationItems).where(inArray(generationItems.photoKey, keys)).toSQL();
    const client = await (t.ctx.db.$client as pg.Pool).connect();
    try {
      await client.query('begin');
      await client.query('set local enable_seqscan = off');
      const plan = await client.query(`explain ${text}`, params);
      expect(JSON.stringify(plan.rows)).toContain('generation_items_photo_key_idx');
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});

describe('the sweep job', () => {
  it('is scheduled hourly in the job queue', async () => {
    const queue = new JobQueue(t.ctx.databaseUrl, silent).define(sweeper.job);
    await queue.start({ work: false });
    try {
      const { rows } = await t.ctx.db.execute<{ name: string; cron: string }>(sql`select name, cron from pgboss.schedule where name = 'maintenance.sweep'`);
      expect(rows).toEqual([{ name: 'maintenance.sweep', cron: '17 * * * *' }]);
    } finally {
      await queue.stop();
    }
  });
});
