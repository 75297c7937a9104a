/** A list check reuses the user's own untouched draft for the same template, session and province (issue 15 item 5, ADR 0143). */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, generations, importations, users } from '../../db/schema.ts';
import type { FileStorage } from '../../lib/storage.ts';
import { ImportsService } from './imports-service.ts';
import { readListKey } from './list-files.ts';
import { actorOf, bearer, createImportTest, csv, csvFile, multipart, portrait, row, schoolUser, zip, type ImportTest, type UploadFile } from './imports-test-support.ts';

let t: ImportTest;
let admin: Record<string, string>;
let school: Record<string, string>;
const created = new Set<number>();

beforeAll(async () => {
  t = await createImportTest();
  admin = await bearer(t, 'admin@sceau.example');
  school = await schoolUser(t, 'reuse-e1@sceau.example', t.schools.e1);
});
afterAll(async () => {
  if (created.size) await t.ctx.db.delete(generations).where(inArray(generations.id, [...created]));
  await t.ctx.db.delete(users).where(eq(users.email, 'reuse-e1@sceau.example'));
  await t.close();
});

async function check(files: UploadFile[], headers = admin, extra: Record<string, string | number> = {}): Promise<number> {
  const body = multipart({ template: t.templateId, session_id: t.sessionId, province_id: t.provinceId, ...extra }, files);
  const res = await t.app.inject({ method: 'POST', url: '/api/check-import-file', headers: { ...headers, ...body.headers }, payload: body.payload });
  expect(res.statusCode).toBe(200);
  const id = res.json().data.generation_id as number;
  created.add(id);
  return id;
}

const batch = async (id: number) => (await t.ctx.db.select().from(generations).where(eq(generations.id, id)))[0]!;

/** Drafts nothing was imported into are reused: start from none left by other tests of this file. */
async function forgetDrafts(): Promise<void> {
  await t.ctx.db
    .update(generations)
    .set({ status: 'cancelled' })
    .where(and(inArray(generations.id, [...created]), eq(generations.status, 'created')));
}

describe('checking a list again without naming the draft', () => {
  it("reuses the user's draft for the same template, session and province, and deletes the earlier list, check and zip", async () => {
    await forgetDrafts();
    const photos = await zip({ '20260000950001.jpg': await portrait(20) });
    const first = await check([csvFile(csv([row('20260000950001', { sexe: 'X' })])), { name: 'photos', filename: 'photos.zip', type: 'application/zip', data: photos }]);
    const before = await batch(first);
    expect(before.sourcePhotosKey).not.toBeNull();

    const list = csv([row('20260000950001')]);
    const second = await check([csvFile(list)]);
    expect(second).toBe(first);
    const after = await batch(second);
    expect(after.sourceFileKey).not.toBe(before.sourceFileKey);
    // This check's files only: the list sent now, no zip (none was sent with it).
    expect(await t.services.storage.get(after.sourceFileKey!)).toEqual(list);
    expect(after.sourcePhotosKey).toBeNull();
    for (const key of [before.sourceFileKey!, readListKey(before.sourceFileKey!), before.sourcePhotosKey!]) expect(await t.services.storage.get(key)).toBeNull();
    expect(await t.services.storage.get(readListKey(after.sourceFileKey!))).not.toBeNull();
    const audit = await t.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'generation.list_replaced'), eq(auditLog.subjectId, String(first))));
    expect(audit.some((a) => (a.details as { reused?: boolean }).reused === true)).toBe(true);
  });

  it('logs an earlier file it could not delete, and the check stands', async () => {
    await forgetDrafts();
    const first = await check([csvFile(csv([row('20260000950003')]))]);
    const before = await batch(first);
    // The store refuses every deletion (a permission changed, a bucket policy).
    const storage = Object.create(t.services.storage) as FileStorage;
    storage.delete = async () => {
      throw new Error('EACCES: permission denied');
    };
    const warn = vi.fn();
    const imports = new ImportsService(t.ctx.db, storage, { warn, info: () => {} });
    const input = { template_id: t.templateId, session_id: t.sessionId, province_id: t.provinceId, generation_id: first };
    const result = await imports.checkFile(await actorOf(t.ctx.db, 'admin@sceau.example'), input, { list: csv([row('20260000950003')]), photos: null });
    expect(result.generationId).toBe(first);
    expect((await batch(first)).sourceFileKey).not.toBe(before.sourceFileKey);
    for (const key of [before.sourceFileKey!, readListKey(before.sourceFileKey!)]) {
      expect(warn).toHaveBeenCalledWith({ err: new Error('EACCES: permission denied'), key }, expect.any(String));
      expect(await t.services.storage.get(key)).not.toBeNull();
    }
  });

  it("never takes another user's draft, nor one an import was started from", async () => {
    await forgetDrafts();
    const mine = await check([csvFile(csv([row('20260000950002')]))]);
    const theirs = await check([csvFile(csv([row('20260000950002')]))], school);
    expect(theirs).not.toBe(mine);
    expect(await check([csvFile(csv([row('20260000950002')]))], school)).toBe(theirs);

    const [user] = await t.ctx.db.select().from(users).where(eq(users.email, 'admin@sceau.example'));
    const [importation] = await t.ctx.db
      .insert(importations)
      .values({ generationId: mine, kind: 'list', status: 'failed', fileKey: (await batch(mine)).sourceFileKey!, rowsTotal: 1, createdBy: user!.id })
      .returning();
    const next = await check([csvFile(csv([row('20260000950002')]))]);
    expect(next).not.toBe(mine);
    await t.ctx.db.delete(importations).where(eq(importations.id, importation!.id));
  });

  it("refuses to start a draft whose list a later check replaced, when the page sends its check's list_id", async () => {
    await forgetDrafts();
    const checkBody = (code: string) => multipart({ template: t.templateId, session_id: t.sessionId, province_id: t.provinceId }, [csvFile(csv([row(code)]))]);
    const send = async (code: string) => {
      const body = checkBody(code);
      const res = await t.app.inject({ method: 'POST', url: '/api/check-import-file', headers: { ...admin, ...body.headers }, payload: body.payload });
      created.add(res.json().data.generation_id);
      return res.json().data as { generation_id: number; list_id: string };
    };
    const first = await send('20260000950004');
    const second = await send('20260000950005');
    expect(second.generation_id).toBe(first.generation_id);
    expect(second.list_id).not.toBe(first.list_id);
    const start = (listId: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/start-import-process',
        headers: admin,
        payload: { generation_id: first.generation_id, title: 'Lot de la liste', list_id: listId },
      });
    const stale = await start(first.list_id);
    expect(stale.statusCode).toBe(422);
    expect(stale.json().errors.generation_id[0]).toMatch(/autre liste/);
    expect((await start('x'.repeat(65))).statusCode).toBe(422);
    expect((await start(second.list_id)).statusCode).toBe(202);
  });

  it('still replaces only the draft named by generation_id, keeping its zip when none is sent', async () => {
    await forgetDrafts();
    const photos = await zip({ '20260000950003.jpg': await portrait(40) });
    const id = await check([csvFile(csv([row('20260000950003')])), { name: 'photos', filename: 'photos.zip', type: 'application/zip', data: photos }]);
    const zipKey = (await batch(id)).sourcePhotosKey;
    expect(await check([csvFile(csv([row('20260000950003')]))], admin, { generation_id: id })).toBe(id);
    expect((await batch(id)).sourcePhotosKey).toBe(zipKey);
  });
});
