import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { diplomas, generations } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { Actor } from '../../policies/actor.ts';
import type { BatchFacts, SigningKeyFacts } from '../../policies/generation-policy.ts';
import type { MinistryKeys } from '../keys/ministry-keys.ts';
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

/**
 * A key other than the active one that signed some of the batch's diplomas (none: all by the active key), and the active key, for the batch's
 * signature rule (ADR 0148); undefined without keys (no identity: nothing is signed anyway).
 */
export async function batchSigningKeys(db: Pick<Db, 'select'>, id: number, keys: Pick<MinistryKeys, 'active'> | null): Promise<SigningKeyFacts | undefined> {
  if (!keys) return undefined;
  const activeKid = keys.active.kid;
  // One diploma signed with another key is enough (the first found: a batch of 100,000 is not read whole).
  const rows = await db
    .select({ kid: diplomas.signingKeyId })
    .from(diplomas)
    .where(and(eq(diplomas.generationId, id), ne(diplomas.signingKeyId, activeKid)))
    .limit(1);
  return { batchKids: rows.map((r) => r.kid), activeKid };
}
