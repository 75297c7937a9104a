import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';
import type { Actor } from '../../policies/actor.ts';

export interface AuditEntry {
  action: string;
  actorId?: number | null;
  actorLabel?: string | null;
  subjectType?: string;
  subjectId?: string | number;
  details?: Record<string, unknown>;
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
    ip: origin.ip,
    userAgent: origin.userAgent,
  });
}
