import type { AuditLogQuery } from '@sceau/contracts';
import { and, count, desc, eq, like, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { auditLog, users } from '../../db/schema.ts';
import type { Actor } from '../../policies/actor.ts';

export interface AuditEntry {
  action: string;
  actorId?: number | null;
  actorLabel?: string | null;
  subjectType?: string;
  subjectId?: string | number;
  details?: Record<string, unknown>;
  /** The batch this change belongs to; read from the subject or `details.generation_id` when not given. */
  generationId?: number | null;
}

/** Who acted and from where: an Actor, or (before anyone is signed in) the request itself. */
export type AuditOrigin = Pick<Actor, 'id' | 'ip' | 'userAgent'> | FastifyRequest;

/** Where a change came from: the address and browser, when there is a caller. */
export function requestOrigin(origin: AuditOrigin | undefined) {
  if (!origin) return { ip: null, userAgent: null };
  if ('headers' in origin) return { ip: origin.ip || null, userAgent: origin.headers['user-agent']?.slice(0, 512) ?? null };
  return { ip: origin.ip, userAgent: origin.userAgent };
}

function actorIdOf(origin: AuditOrigin | undefined): number | null {
  if (!origin) return null;
  return 'headers' in origin ? (origin.user?.id ?? null) : origin.id;
}

/** The batch an entry belongs to: given, the subject when it is a batch, or the details' `generation_id`. */
function batchOf(entry: AuditEntry): number | null {
  if (entry.generationId !== undefined) return entry.generationId;
  if (entry.subjectType === 'generation' && entry.subjectId !== undefined) return Number(entry.subjectId);
  const fromDetails = entry.details?.generation_id;
  return typeof fromDetails === 'number' ? fromDetails : null;
}

/** Records one state change (who, what, when, from where). Run it in the change's own transaction when there is one. */
export async function recordAudit(db: Pick<Db, 'insert'>, entry: AuditEntry, by?: AuditOrigin): Promise<void> {
  const origin = requestOrigin(by);
  await db.insert(auditLog).values({
    action: entry.action,
    actorId: entry.actorId ?? actorIdOf(by),
    actorLabel: entry.actorLabel ?? null,
    subjectType: entry.subjectType ?? null,
    subjectId: entry.subjectId === undefined ? null : String(entry.subjectId),
    details: entry.details ?? null,
    generationId: batchOf(entry),
    ip: origin.ip,
    userAgent: origin.userAgent,
  });
}

/** A page of the log, newest first, by actor and by action or family of actions (`user`: user.created, user.archived, …). */
export async function listAuditLog(db: Db, query: AuditLogQuery) {
  const { page, per_page: perPage = 50, actor, action } = query;
  const conditions: SQL[] = [];
  if (actor) conditions.push(eq(auditLog.actorId, actor));
  if (action) conditions.push(action.includes('.') ? eq(auditLog.action, action) : like(auditLog.action, `${action.replace(/[\\%_]/g, '')}.%`));
  const where = conditions.length ? and(...conditions) : undefined;
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(auditLog).where(where);
  const rows = await db
    .select({ entry: auditLog, name: users.name, firstName: users.firstName, email: users.email })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(where)
    .orderBy(desc(auditLog.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  return {
    data: rows.map(({ entry, name, firstName, email }) => ({
      id: entry.id,
      at: entry.at.toISOString(),
      actor_id: entry.actorId,
      actor: name ? `${[firstName, name].filter(Boolean).join(' ')}${email ? ` <${email}>` : ''}` : entry.actorLabel,
      action: entry.action,
      subject_type: entry.subjectType,
      subject_id: entry.subjectId,
      ip: entry.ip,
      user_agent: entry.userAgent,
      details: entry.details ?? null,
    })),
    meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total },
  };
}
