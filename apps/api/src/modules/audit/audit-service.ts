import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';

export interface AuditEntry {
  action: string;
  actorId?: number | null;
  actorLabel?: string | null;
  subjectType?: string;
  subjectId?: string | number;
  details?: Record<string, unknown>;
}

/** Where a change came from: the request's address and browser, when there is a request. */
export function requestOrigin(request: FastifyRequest | undefined) {
  if (!request) return { ip: null, userAgent: null };
  return { ip: request.ip || null, userAgent: request.headers['user-agent']?.slice(0, 512) ?? null };
}

/** Records one state change (who, what, when, from where). Run it in the change's own transaction when there is one. */
export async function recordAudit(db: Pick<Db, 'insert'>, entry: AuditEntry, request?: FastifyRequest): Promise<void> {
  const origin = requestOrigin(request);
  await db.insert(auditLog).values({
    action: entry.action,
    actorId: entry.actorId ?? request?.user?.id ?? null,
    actorLabel: entry.actorLabel ?? null,
    subjectType: entry.subjectType ?? null,
    subjectId: entry.subjectId === undefined ? null : String(entry.subjectId),
    details: entry.details ?? null,
    ip: origin.ip,
    userAgent: origin.userAgent,
  });
}
