import { GENERATION_STATUSES, PUBLISHED_STATUS, type GenerationStats, type GenerationStatus, type IssuedCounts } from '@sceau/contracts';
import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { diplomas, educProvinces, examSessions, generations } from '../../db/schema.ts';
import { fieldError } from '../../lib/errors.ts';
import type { Actor } from '../../policies/actor.ts';
import { generationPolicy } from '../../policies/generation-policy.ts';

/**
 * What a scope has issued, grouped by session, educational province and batch status, in three
 * queries over one per-batch count of diplomas (a batch revoked whole revokes all of its diplomas).
 */
async function issuedStats(db: Db, where: SQL | undefined): Promise<Omit<GenerationStats, 'session'>> {
  const perBatch = db
    .select({
      generationId: diplomas.generationId,
      n: count().as('n'),
      revoked: sql<number>`count(*) filter (where ${diplomas.revokedAt} is not null)`.as('revoked'),
    })
    .from(diplomas)
    // Only the scope's batches are counted (the diplomas_generation index), not every diploma of the country.
    .where(inArray(diplomas.generationId, db.select({ id: generations.id }).from(generations).where(where)))
    .groupBy(diplomas.generationId)
    .as('per_batch');
  const revoked = sql`case when ${generations.revokedAt} is not null then coalesce(${perBatch.n}, 0) else coalesce(${perBatch.revoked}, 0) end`;
  const measures = {
    batches: count(generations.id),
    diplomas: sql<number>`coalesce(sum(${perBatch.n}), 0)`.mapWith(Number),
    revoked: sql<number>`coalesce(sum(${revoked}), 0)`.mapWith(Number),
    published: sql<number>`coalesce(sum(case when ${generations.status} = ${PUBLISHED_STATUS} then coalesce(${perBatch.n}, 0) - ${revoked} else 0 end), 0)`.mapWith(Number),
  };
  const join = eq(perBatch.generationId, generations.id);
  const [bySession, byProvince, byStatus] = await Promise.all([
    db
      .select({ id: examSessions.id, name: examSessions.name, year: examSessions.year, ...measures })
      .from(generations)
      .leftJoin(perBatch, join)
      .innerJoin(examSessions, eq(examSessions.id, generations.sessionId))
      .where(where)
      .groupBy(examSessions.id)
      .orderBy(asc(examSessions.year), asc(examSessions.id)),
    db
      .select({ id: educProvinces.id, name: educProvinces.name, ...measures })
      .from(generations)
      .leftJoin(perBatch, join)
      .innerJoin(educProvinces, eq(educProvinces.id, generations.educProvinceId))
      .where(where)
      .groupBy(educProvinces.id)
      .orderBy(asc(educProvinces.name)),
    db
      .select({ status: generations.status, ...measures })
      .from(generations)
      .leftJoin(perBatch, join)
      .where(where)
      .groupBy(generations.status),
  ]);

  const counts = (row: IssuedCounts): IssuedCounts => ({ batches: row.batches, diplomas: row.diplomas, published: row.published, revoked: row.revoked });
  const zero: IssuedCounts = { batches: 0, diplomas: 0, published: 0, revoked: 0 };
  const totals = bySession.reduce<IssuedCounts>(
    (sum, row) => ({ batches: sum.batches + row.batches, diplomas: sum.diplomas + row.diplomas, published: sum.published + row.published, revoked: sum.revoked + row.revoked }),
    zero,
  );
  return {
    totals,
    by_session: bySession.map((row) => ({ session: { id: row.id, name: row.name, year: row.year }, ...counts(row) })),
    by_province: byProvince.map((row) => ({ province: { id: row.id, name: row.name }, ...counts(row) })),
    by_status: GENERATION_STATUSES.map((status: GenerationStatus) => {
      const row = byStatus.find((r) => r.status === status);
      return { status, ...(row ? counts(row) : zero) };
    }),
  };
}

/**
 * The dashboard's charts. Only the batches of the actor's scope count (staff tied to a school, a
 * centre or a province see theirs; national staff the country's), the same rule as every batch view.
 */
export async function scopeStats(db: Db, actor: Actor, sessionId: number | undefined): Promise<GenerationStats> {
  let session: GenerationStats['session'] = null;
  if (sessionId !== undefined) {
    const [found] = await db.select({ id: examSessions.id, name: examSessions.name }).from(examSessions).where(eq(examSessions.id, sessionId));
    if (!found) throw fieldError('session', 'field.invalid_option');
    session = found;
  }
  const scope = generationPolicy.visibleCondition(actor);
  const where = and(scope, sessionId !== undefined ? eq(generations.sessionId, sessionId) : undefined);
  return { session, ...(await issuedStats(db, where)) };
}
