// A batch's history (issue 15 item 6, ADR 0149), on the real app and database: what its staff
// did shows there, with names and no addresses; it is open to the batch's staff inside its scope
// only; what a holder does with their own diploma never shows; and the log's batch column is
// filled from the entry's subject or details.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema.ts';
import { insertStaff, insertTwoCandidateBatch } from '../../../test/batches.ts';
import { createTestApp, signIn, type TestContext } from '../../../test/helpers.ts';
import { recordAudit } from '../audit/audit-service.ts';

let ctx: TestContext;
let batchId: number;
let itemIds: number[];
const as: Record<'validator' | 'outsider' | 'nobody' | 'root', Record<string, string>> = {} as never;

const staffAt = (email: string, role: string | null, educProvinceId: number) => insertStaff(ctx.db, { email, role, educProvinceId, name: 'Kalala', firstName: 'Bijou' });

const bearer = async (email: string) => ({ authorization: `Bearer ${await signIn(ctx, email)}` });
const history = (query: string, headers: Record<string, string>) => ctx.app.inject({ method: 'GET', url: `/api/generations/${batchId}/history${query}`, headers });

beforeAll(async () => {
  ctx = await createTestApp();
  const batch = await insertTwoCandidateBatch(ctx.db, { status: 'pending_validation', codeBase: 20269700000000 });
  ({ batchId, itemIds } = batch);
  const { province, other } = batch;
  await staffAt('history-validator@sceau.example', 'validateur', province!.id);
  await staffAt('history-outsider@sceau.example', 'admin', other!.educProvinceId);
  await staffAt('history-nobody@sceau.example', null, province!.id);
  as.validator = await bearer('history-validator@sceau.example');
  as.outsider = await bearer('history-outsider@sceau.example');
  as.nobody = await bearer('history-nobody@sceau.example');
  as.root = await bearer('root@sceau.example');
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

describe("a batch's history", () => {
  it("shows what the batch's staff did, newest first, with names and the candidate, never an address", async () => {
    const reject = await ctx.app.inject({
      method: 'POST',
      url: '/api/validations/photos/reject',
      headers: { ...as.validator, 'user-agent': 'History test browser' },
      payload: { generation_id: batchId, item: itemIds[1], reason: 'Photo floue' },
    });
    expect(reject.statusCode).toBe(200);
    const res = await history('', as.validator);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta).toMatchObject({ current_page: 1, total: 1 });
    expect(body.data[0]).toMatchObject({
      action: 'validation.photo_rejected',
      actor: 'Bijou Kalala',
      actor_kind: 'staff',
      candidate_code: `${20269700000000 + batchId * 10 + 1}`,
      details: { from: 'pending', reason: 'Photo floue' },
    });
    expect(JSON.stringify(body)).not.toMatch(/History test browser|127\.0\.0\.1|@sceau\.example/);
  });

  it('lists the batch, validation and diploma parts apart, and the platform as the actor of its own steps', async () => {
    await recordAudit(ctx.db, {
      action: 'generation.status_changed',
      subjectType: 'generation',
      subjectId: batchId,
      details: { from: 'pending_validation', to: 'ready_for_generation' },
    });
    await recordAudit(ctx.db, { action: 'diploma.downloaded', subjectType: 'diploma', subjectId: 'AAAAAAAAAAAAAAAAAAAAAA', generationId: batchId });
    const batch = (await history('?kind=batch', as.root)).json();
    expect(batch.data.map((e: { action: string }) => e.action)).toEqual(['generation.status_changed']);
    expect(batch.data[0]).toMatchObject({ actor: null, actor_kind: 'system', details: { from: 'pending_validation', to: 'ready_for_generation' } });
    expect((await history('?kind=diploma', as.root)).json().data.map((e: { action: string }) => e.action)).toEqual(['diploma.downloaded']);
    expect((await history('?kind=validation', as.root)).json().meta.total).toBe(1);
    expect((await history('?per_page=2', as.root)).json()).toMatchObject({ meta: { total: 3, last_page: 2, per_page: 2 } });
  });

  it("never shows what a holder did with their own diploma, nor another batch's entries", async () => {
    await recordAudit(ctx.db, { action: 'diploma.share_created', subjectType: 'diploma', subjectId: 'AAAAAAAAAAAAAAAAAAAAAA', generationId: batchId, details: { share: 1 } });
    await recordAudit(ctx.db, { action: 'generation.status_changed', subjectType: 'generation', subjectId: batchId + 1000, details: { from: 'created', to: 'cancelled' } });
    const all = (await history('?per_page=100', as.root)).json();
    expect(all.data.map((e: { action: string }) => e.action)).not.toContain('diploma.share_created');
    expect(all.meta.total).toBe(3);
  });

  it("fills the log's batch column from the subject, or from the details' generation_id", async () => {
    await recordAudit(ctx.db, {
      action: 'validation.data_validated',
      subjectType: 'generation_item',
      subjectId: itemIds[0]!,
      details: { generation_id: batchId, candidate_code: 'X' },
    });
    const rows = await ctx.db.select({ generationId: auditLog.generationId, action: auditLog.action }).from(auditLog).where(eq(auditLog.action, 'validation.data_validated'));
    expect(rows).toEqual([{ generationId: batchId, action: 'validation.data_validated' }]);
    const [user] = await ctx.db.select({ generationId: auditLog.generationId }).from(auditLog).where(eq(auditLog.action, 'auth.signed_in')).limit(1);
    expect(user!.generationId).toBeNull();
  });

  it('is 404 outside the batch’s scope, 403 without a staff permission, 401 for a stranger, 422 for a bad kind', async () => {
    expect((await history('', as.outsider)).statusCode).toBe(404);
    expect((await history('', as.nobody)).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/generations/${batchId}/history` })).statusCode).toBe(401);
    expect((await history('?kind=everything', as.root)).statusCode).toBe(422);
    expect((await history('?per_page=1000', as.root)).statusCode).toBe(422);
  });
});
