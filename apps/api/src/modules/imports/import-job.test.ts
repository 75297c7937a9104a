import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, generationItems, generations, importations } from '../../db/schema.ts';
import type { FileStorage } from '../../lib/storage.ts';
import { ImportJob } from './import-job.ts';
import { readListKey } from './list-files.ts';
import { bearer, createImportTest, csv, csvFile, multipart, row, type ImportTest } from './imports-test-support.ts';

let t: ImportTest;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createImportTest();
  admin = await bearer(t, 'admin@sceau.example');
});
afterAll(() => t.close());

/** A checked draft of `n` candidates, started: its batch and importation. */
async function startedImport(prefix: string, n: number) {
  const rows = Array.from({ length: n }, (_, i) => row(`${prefix}${String(i + 1).padStart(14 - prefix.length, '0')}`));
  const body = multipart({ template: t.templateId, session_id: t.sessionId, province_id: t.provinceId }, [csvFile(csv(rows))]);
  const checked = await t.app.inject({ method: 'POST', url: '/api/check-import-file', headers: { ...admin, ...body.headers }, payload: body.payload });
  const generationId = checked.json().data.generation_id as number;
  const started = await t.app.inject({ method: 'POST', url: '/api/start-import-process', headers: admin, payload: { generation_id: generationId, title: `Lot ${prefix}` } });
  return { generationId, importationId: started.json().data.importation_id as number };
}

const itemCount = async (generationId: number) => (await t.ctx.db.select({ n: count() }).from(generationItems).where(eq(generationItems.generationId, generationId)))[0]!.n;
const distinctCodes = async (generationId: number) =>
  (
    await t.ctx.db
      .select({ n: sql<number>`count(distinct ${generationItems.candidateCode})`.mapWith(Number) })
      .from(generationItems)
      .where(eq(generationItems.generationId, generationId))
  )[0]!.n;
const importation = async (id: number) => (await t.ctx.db.select().from(importations).where(eq(importations.id, id)))[0]!;
const batchStatus = async (id: number) => (await t.ctx.db.select({ s: generations.status }).from(generations).where(eq(generations.id, id)))[0]!.s;

describe('the import job', () => {
  it('is all or nothing: a crash in the middle of the transaction leaves no candidate, the next run imports each once', async () => {
    const { generationId, importationId } = await startedImport('2026100', 2500);
    // The 1,500th insert fails as a killed process would: after the first chunk was written in the transaction.
    await t.ctx.db.execute(
      sql.raw(`
      create function fail_mid_import() returns trigger language plpgsql as $$
      begin if new.candidate_code = '20261000001500' then raise exception 'simulated crash'; end if; return new; end $$;
      create trigger fail_mid_import before insert on generation_items for each row execute function fail_mid_import();`),
    );
    await expect(t.services.imports.job.handle({ importationId }, { id: 'run-1' })).rejects.toThrow();
    expect(await itemCount(generationId)).toBe(0);
    expect(await batchStatus(generationId)).toBe('created');
    expect(await importation(importationId)).toMatchObject({ status: 'queued', attempts: 1, errorKey: 'field.import_retrying' });
    const track = await t.app.inject({ method: 'GET', url: `/api/importations/${importationId}/tracking`, headers: { ...admin, 'x-locale': 'en' } });
    expect(track.json().data).toMatchObject({ status: 'queued', error: 'An attempt failed; the import will be retried automatically' });

    await t.ctx.db.execute(sql.raw('drop trigger fail_mid_import on generation_items; drop function fail_mid_import();'));
    await t.services.imports.job.handle({ importationId }, { id: 'run-2' });
    // pg-boss may run it again (an expired lease, a restart): nothing more happens.
    await t.services.imports.job.handle({ importationId }, { id: 'run-3' });
    expect(await itemCount(generationId)).toBe(2500);
    expect(await distinctCodes(generationId)).toBe(2500);
    expect(await batchStatus(generationId)).toBe('pending_validation');
    expect(await importation(importationId)).toMatchObject({ status: 'completed', rowsDone: 2500, rowsTotal: 2500, attempts: 2, errorKey: null });
    const imported = await t.ctx.db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'generation.imported'), eq(auditLog.subjectId, String(generationId))));
    expect(imported[0]!.n).toBe(1);
  });

  it('imports each candidate once when two workers run the same importation at the same time', async () => {
    const { generationId, importationId } = await startedImport('2026200', 300);
    await Promise.all([t.services.imports.job.handle({ importationId }, { id: 'a' }), t.services.imports.job.handle({ importationId }, { id: 'b' })]);
    expect(await itemCount(generationId)).toBe(300);
    expect((await importation(importationId)).status).toBe('completed');
  });

  it('fails for good (nothing written) when the candidates were taken by another batch meanwhile, or when retries are spent', async () => {
    const first = await startedImport('2026300', 3);
    // Another batch of the session imported one of them after the check.
    const second = await startedImport('2026301', 2);
    await t.ctx.db.update(importations).set({ status: 'completed' }).where(eq(importations.id, second.importationId));
    await t.ctx.db.insert(generationItems).values({
      generationId: second.generationId,
      candidateCode: '20263000000002',
      lastName: 'Autre',
      firstName: 'Lot',
      birthDate: '2007-01-01',
      birthPlace: 'Kinshasa',
      gender: 'M',
      optionId: (await t.ctx.db.select().from(generationItems).limit(1))[0]!.optionId,
      institutionId: t.schools.e1,
      centreId: (await t.ctx.db.select().from(generationItems).limit(1))[0]!.centreId,
      percentageTenths: 600,
    });
    await t.services.imports.job.handle({ importationId: first.importationId }, { id: 'x' });
    expect(await itemCount(first.generationId)).toBe(0);
    expect(await importation(first.importationId)).toMatchObject({ status: 'failed', errorKey: 'field.import_file_has_errors' });
    expect(await batchStatus(first.generationId)).toBe('created');

    const spent = await startedImport('2026302', 2);
    await t.ctx.db.update(importations).set({ attempts: 5 }).where(eq(importations.id, spent.importationId));
    await t.services.imports.job.handle({ importationId: spent.importationId }, { id: 'y' });
    expect(await importation(spent.importationId)).toMatchObject({ status: 'failed', errorKey: 'field.import_failed' });
    expect(await itemCount(spent.generationId)).toBe(0);
  });

  it('logs a file of the completed import it could not delete, and the import stands', async () => {
    const { generationId, importationId } = await startedImport('2026500', 3);
    // The store refuses every deletion (a permission changed, a bucket policy).
    const storage = Object.create(t.services.storage) as FileStorage;
    storage.delete = async () => {
      throw new Error('EACCES: permission denied');
    };
    const warn = vi.fn();
    await new ImportJob(t.ctx.db, storage, { warn }, null).runImportation(importationId);
    expect(await importation(importationId)).toMatchObject({ status: 'completed' });
    expect(await itemCount(generationId)).toBe(3);
    const key = readListKey((await importation(importationId)).fileKey);
    expect(warn).toHaveBeenCalledWith({ err: new Error('EACCES: permission denied'), key }, expect.any(String));
    expect(await t.services.storage.get(key)).not.toBeNull();
  });

  it('runs on the durable queue, and an importation left queued by a crash is resumed at start', async () => {
    // Started while no queue ran (as if the process died right after answering).
    const orphan = await startedImport('2026400', 5);
    await t.services.queue!.start({ work: true, pollingIntervalSeconds: 0.5 });
    expect(await t.services.imports.resumePending()).toBeGreaterThanOrEqual(1);
    const queued = await startedImport('2026401', 5);
    for (const { generationId, importationId } of [orphan, queued]) {
      await vi.waitFor(
        async () => {
          const res = await t.app.inject({ method: 'GET', url: `/api/importations/${importationId}/tracking`, headers: admin });
          expect(res.json().data).toMatchObject({ status: 'completed', percent: 100 });
        },
        { timeout: 20_000, interval: 300 },
      );
      expect(await itemCount(generationId)).toBe(5);
    }
  });
});
