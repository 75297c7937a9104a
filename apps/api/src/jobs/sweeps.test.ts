import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { generations } from '../db/schema.ts';
import { bearer, createImportTest, csv, csvFile, multipart, portrait, row, zip, type ImportTest } from '../modules/imports/imports-test-support.ts';
import { JobQueue } from './job-queue.ts';
import { Sweeper } from './sweeps.ts';

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
