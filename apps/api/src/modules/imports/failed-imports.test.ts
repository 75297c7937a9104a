/** A list check, an appended list or an import job that fails after writing its files leaves none behind (ADR 0060, amendment). */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationItems, generations, importations } from '../../db/schema.ts';
import { originalKeyOf } from '../../lib/photo-files.ts';
import { bearer, createImportTest, csv, csvFile, multipart, portrait, row, zip, type ImportTest, type UploadFile } from './imports-test-support.ts';

let t: ImportTest;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createImportTest();
  admin = await bearer(t, 'admin@sceau.example');
});
afterAll(() => t.close());

/** Every file the store holds (the local folder of this test's app). */
async function storedFiles(): Promise<string[]> {
  const root = t.ctx.config.filesDir;
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

const rowsOf = async (table: typeof generations | typeof importations) => (await t.ctx.db.select({ n: count() }).from(table))[0]!.n;
const itemCount = async (generationId: number) => (await t.ctx.db.select({ n: count() }).from(generationItems).where(eq(generationItems.generationId, generationId)))[0]!.n;

/** Makes every insert into `table` matching `when` fail, as a constraint found late would; `undo` removes it. */
async function failInserts(table: string, when: string) {
  const name = `fail_${table}_${Math.random().toString(36).slice(2, 8)}`;
  await t.ctx.db.execute(
    sql.raw(`
    create function ${name}() returns trigger language plpgsql as $$
    begin if ${when} then raise exception 'injected failure'; end if; return new; end $$;
    create trigger ${name} before insert on ${table} for each row execute function ${name}();`),
  );
  return () => t.ctx.db.execute(sql.raw(`drop trigger ${name} on ${table}; drop function ${name}();`));
}

const photosFile = (data: Buffer): UploadFile => ({ name: 'photos', filename: 'photos.zip', type: 'application/zip', data });

async function checkList(files: UploadFile[]) {
  const body = multipart({ template: t.templateId, session_id: t.sessionId, province_id: t.provinceId }, files);
  return t.app.inject({ method: 'POST', url: '/api/check-import-file', headers: { ...admin, ...body.headers }, payload: body.payload });
}

describe('an upload whose recording fails', () => {
  it('list check: the list, its stored check and its zip are deleted, and no draft is left; the same upload then succeeds', async () => {
    const photos = await zip({ '20267700000001.jpg': await portrait(10) });
    const files = [csvFile(csv([row('20267700000001', { photo: '20267700000001.jpg' })])), photosFile(photos)];
    const before = await storedFiles();
    const drafts = await rowsOf(generations);

    // The draft's audit entry is refused, whether the check makes a new draft or reuses one: after the files were written.
    const undo = await failInserts('audit_log', `new.action in ('generation.draft_created', 'generation.list_replaced')`);
    try {
      expect((await checkList(files)).statusCode).toBe(500);
    } finally {
      await undo();
    }
    expect(await storedFiles()).toEqual(before);
    expect(await rowsOf(generations)).toBe(drafts);

    const res = await checkList(files);
    expect(res.statusCode).toBe(200);
    const [draft] = await t.ctx.db.select().from(generations).where(eq(generations.id, res.json().data.generation_id));
    const folder = path.dirname(draft!.sourceFileKey!);
    expect((await storedFiles()).filter((f) => !before.includes(f))).toEqual([`${folder}/check.json`, `${folder}/list.csv`, `${folder}/photos.zip`]);
  });

  it('appended list: its files are deleted and no importation is recorded; the same upload then succeeds', async () => {
    const checked = await checkList([csvFile(csv([row('20267710000001')]))]);
    const generationId = checked.json().data.generation_id as number;
    const started = await t.app.inject({ method: 'POST', url: '/api/start-import-process', headers: admin, payload: { generation_id: generationId, title: 'Lot 7710' } });
    await t.services.imports.job.handle({ importationId: started.json().data.importation_id }, { id: 'first' });
    expect(await itemCount(generationId)).toBe(1);

    const append = async () => {
      const photos = await zip({ '20267710000002.jpg': await portrait(40) });
      const body = multipart({ generation_id: generationId }, [csvFile(csv([row('20267710000002', { photo: '20267710000002.jpg' })])), photosFile(photos)]);
      return t.app.inject({ method: 'POST', url: '/api/import/candidates', headers: { ...admin, ...body.headers }, payload: body.payload });
    };
    const before = await storedFiles();
    const recorded = await rowsOf(importations);
    const undo = await failInserts('importations', 'true');
    try {
      expect((await append()).statusCode).toBe(500);
    } finally {
      await undo();
    }
    expect(await storedFiles()).toEqual(before);
    expect(await rowsOf(importations)).toBe(recorded);

    const res = await append();
    expect(res.statusCode).toBe(202);
    const [appended] = await t.ctx.db.select().from(importations).where(eq(importations.id, res.json().data.importation_id));
    const folder = path.dirname(appended!.fileKey);
    expect((await storedFiles()).filter((f) => !before.includes(f))).toEqual([`${folder}/check.json`, `${folder}/list.csv`, `${folder}/photos.zip`]);
  });

  it("import job: the candidates' photos and originals it wrote are deleted with no candidate recorded; the next run writes and records them", async () => {
    const codes = ['20267720000001', '20267720000002', '20267720000003'];
    const photos = await zip(Object.fromEntries(await Promise.all(codes.map(async (c, i) => [`${c}.jpg`, await portrait(100 + i * 20)] as const))));
    const checked = await checkList([csvFile(csv(codes.map((c) => row(c, { photo: `${c}.jpg` })))), photosFile(photos)]);
    const generationId = checked.json().data.generation_id as number;
    const started = await t.app.inject({ method: 'POST', url: '/api/start-import-process', headers: admin, payload: { generation_id: generationId, title: 'Lot 7720' } });
    const importationId = started.json().data.importation_id as number;
    const photosOfBatch = async () => (await storedFiles()).filter((f) => f.startsWith(`photos/${generationId}/`));

    // The last candidate's row is refused: every photo was written by then.
    const undo = await failInserts('generation_items', `new.candidate_code = '${codes[2]}'`);
    try {
      await expect(t.services.imports.job.handle({ importationId }, { id: 'fails' })).rejects.toThrow();
    } finally {
      await undo();
    }
    expect(await photosOfBatch()).toEqual([]);
    expect(await itemCount(generationId)).toBe(0);
    expect((await t.ctx.db.select().from(importations).where(eq(importations.id, importationId)))[0]).toMatchObject({ status: 'queued' });

    await t.services.imports.job.handle({ importationId }, { id: 'succeeds' });
    expect(await itemCount(generationId)).toBe(3);
    // Each row names its photo, stored under a key of its own, its original beside it; nothing else.
    const named = (await t.ctx.db.select({ key: generationItems.photoKey }).from(generationItems).where(eq(generationItems.generationId, generationId))).map((r) => r.key!);
    expect(named).toHaveLength(3);
    for (const code of codes) expect(named.filter((k) => new RegExp(`^photos/${generationId}/${code}-[0-9a-f]{16}-[0-9a-f]{8}\\.jpg$`).test(k))).toHaveLength(1);
    expect(await photosOfBatch()).toEqual([...named, ...named.map(originalKeyOf)].sort());
  });
});
