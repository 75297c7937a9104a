import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { generations } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { Actor } from '../../policies/actor.ts';
import type { BatchFacts } from '../../policies/generation-policy.ts';
import { authorize, type Decision } from '../../policies/policy.ts';

export type BatchRow = typeof generations.$inferSelect;

/**
 * Loads a batch and holds it to one rule of its policy (generation-policy.ts): the only way a
 * route or service reaches a batch on someone's behalf. 404 when missing or outside the actor's
 * scope, 403 without the permission, 409 in the wrong state. `lock` reads it FOR UPDATE inside a
 * transaction, so the state the rule saw is the state the change applies to.
 */
export async function batchFor(
  db: Pick<Db, 'select'>,
  actor: Actor,
  id: number,
  rule: (actor: Actor, batch: BatchFacts) => Decision,
  options: { lock?: boolean } = {},
): Promise<BatchRow> {
  const query = db.select().from(generations).where(eq(generations.id, id));
  const [batch] = options.lock ? await query.for('update') : await query;
  if (!batch) throw new AppError('not_found');
  authorize(rule(actor, batch));
  return batch;
}
