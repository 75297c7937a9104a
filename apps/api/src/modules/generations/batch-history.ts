import type { BatchHistoryEntryView, BatchHistoryKind } from '@sceau/contracts';
import { and, count, desc, eq, like, notInArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog, users } from '../../db/schema.ts';
import type { Actor } from '../../policies/actor.ts';
import { generationPolicy } from '../../policies/generation-policy.ts';
import { batchFor } from './batch-access.ts';

/** Each part of the history: the audit actions' family. */
const FAMILY: Record<BatchHistoryKind, string> = { batch: 'generation.%', validation: 'validation.%', diploma: 'diploma.%' };

/** What a holder does with their own diploma is theirs: never in the staff's history. */
const HOLDER_ACTIONS = ['diploma.share_created', 'diploma.share_revoked'];

/**
 * The facts a line is worded with, and only those: statuses, counts, a reason, the fields changed.
 * Never an address, an e-mail, a file key or a hash (the national audit log keeps those).
 */
const SHOWN = ['from', 'to', 'reason', 'count', 'rows', 'errors', 'candidates', 'total', 'files', 'sent', 'failed', 'append', 'reused', 'source'] as const;

type Shown = BatchHistoryEntryView['details'];

function shownDetails(details: Record<string, unknown> | null): Shown {
  const shown: Shown = {};
  if (!details) return shown;
  for (const key of SHOWN) {
    const value = details[key];
    if (typeof value === 'string') shown[key] = value.slice(0, 500);
    else if (typeof value === 'number' || typeof value === 'boolean') shown[key] = value;
  }
  // A correction names the fields it changed, not their values.
  const changes = details.changes;
  if (changes && typeof changes === 'object') shown.fields = Object.keys(changes).join(', ');
  const signatures = details.signatures;
  if (Array.isArray(signatures)) shown.signatures = signatures.filter((kind) => typeof kind === 'string').join(', ');
  return shown;
}

/**
 * A batch's history, newest first (ADR 0149): for its staff (generation policy `viewHistory`: 404
 * outside the actor's scope). Read by the audit log's batch column and its index.
 */
export async function batchHistory(db: Db, actor: Actor, generationId: number, query: { page: number; perPage: number; kind?: BatchHistoryKind }) {
  const batch = await batchFor(db, actor, generationId, generationPolicy.viewHistory);
  const conditions: SQL[] = [eq(auditLog.generationId, batch.id), notInArray(auditLog.action, HOLDER_ACTIONS)];
  if (query.kind) conditions.push(like(auditLog.action, FAMILY[query.kind]));
  const where = and(...conditions);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(auditLog).where(where);
  const rows = await db
    .select({ entry: auditLog, name: users.name, firstName: users.firstName })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(where)
    .orderBy(desc(auditLog.id))
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage);
  const data: BatchHistoryEntryView[] = rows.map(({ entry, name, firstName }) => {
    const candidate = entry.details?.candidate_code;
    return {
      id: entry.id,
      at: entry.at.toISOString(),
      actor: name ? [firstName, name].filter(Boolean).join(' ') : null,
      actor_kind: name ? 'staff' : entry.actorLabel === 'candidate' ? 'candidate' : 'system',
      action: entry.action,
      candidate_code: typeof candidate === 'string' ? candidate : null,
      details: shownDetails(entry.details),
    };
  });
  return { data, meta: { current_page: query.page, last_page: Math.max(1, Math.ceil(total / query.perPage)), per_page: query.perPage, total } };
}
