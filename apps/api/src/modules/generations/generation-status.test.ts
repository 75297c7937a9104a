import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, educProvinces, examSessions, generations, templates } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { moveGeneration, moveSignature } from './generation-status.ts';

let ctx: TestContext;
let generationId: number;

beforeAll(async () => {
  ctx = await createTestApp();
  const [session] = await ctx.db.select().from(examSessions).limit(1);
  const [province] = await ctx.db.select().from(educProvinces).limit(1);
  const [template] = await ctx.db.insert(templates).values({ name: 'Test', ownerType: 'country', ownerId: 1, generationType: 'diplome_etat', design: {} }).returning();
  const [generation] = await ctx.db
    .insert(generations)
    .values({ type: 'diplome_etat', templateId: template!.id, sessionId: session!.id, educProvinceId: province!.id })
    .returning();
  generationId = generation!.id;
});
afterAll(() => ctx.close());

const statusOf = async () => (await ctx.db.select().from(generations).where(eq(generations.id, generationId)))[0]!;

describe('moving a batch between statuses', () => {
  it('allows the flow, records each move, and refuses a skipped step without changing anything', async () => {
    await ctx.db.transaction((tx) => moveGeneration(tx, generationId, 'pending_validation'));
    const refused = ctx.db.transaction((tx) => moveGeneration(tx, generationId, 'completed'));
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({ code: 'conflict', statusCode: 409 });
    expect((await statusOf()).status).toBe('pending_validation');

    await ctx.db.transaction((tx) => moveGeneration(tx, generationId, 'ready_for_generation'));
    await ctx.db.transaction((tx) => moveGeneration(tx, generationId, 'in_progress', { changes: { progressTotal: 10 } }));
    const row = await statusOf();
    expect(row).toMatchObject({ status: 'in_progress', progressTotal: 10 });

    const moves = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'generation.status_changed'), eq(auditLog.subjectId, String(generationId))));
    expect(moves.map((m) => m.details)).toEqual([
      { from: 'created', to: 'pending_validation' },
      { from: 'pending_validation', to: 'ready_for_generation' },
      { from: 'ready_for_generation', to: 'in_progress' },
    ]);
  });

  it('rolls the move back with the rest of its transaction', async () => {
    await expect(
      ctx.db.transaction(async (tx) => {
        await moveGeneration(tx, generationId, 'ready_for_signature');
        throw new Error('the generation step failed after the move');
      }),
    ).rejects.toThrow();
    expect((await statusOf()).status).toBe('in_progress');
  });

  it('never finishes a signature that has not started', async () => {
    await expect(ctx.db.transaction((tx) => moveSignature(tx, generationId, 'finished'))).rejects.toMatchObject({ code: 'conflict' });
    await ctx.db.transaction((tx) => moveSignature(tx, generationId, 'in_progress'));
    await ctx.db.transaction((tx) => moveSignature(tx, generationId, 'finished'));
    expect((await statusOf()).signatureStatus).toBe('finished');
  });

  it('serialises concurrent moves: exactly one of two racing launches wins', async () => {
    const [g] = await ctx.db
      .insert(generations)
      .values({
        type: 'diplome_etat',
        templateId: (await statusOf()).templateId,
        sessionId: (await statusOf()).sessionId,
        educProvinceId: (await statusOf()).educProvinceId,
        status: 'ready_for_generation',
      })
      .returning();
    const results = await Promise.allSettled([
      ctx.db.transaction((tx) => moveGeneration(tx, g!.id, 'in_progress')),
      ctx.db.transaction((tx) => moveGeneration(tx, g!.id, 'in_progress')),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
  });

  it('is refused by PostgreSQL outside the closed set of statuses, whatever writes it', async () => {
    const bad = ctx.db.execute(sql`update generations set status = 'published' where id = ${generationId}`);
    await expect(bad).rejects.toMatchObject({ cause: { constraint: 'generations_status_check' } });
    const badSignature = ctx.db.execute(sql`update generations set signature_status = 'signed' where id = ${generationId}`);
    await expect(badSignature).rejects.toMatchObject({ cause: { constraint: 'generations_signature_status_check' } });
  });
});
