import { canMoveGeneration, canMoveSignature, type GenerationStatus, type SignatureStatus } from '@sceau/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { generations } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { recordAudit, type AuditOrigin } from '../audit/audit-service.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type GenerationChanges = Partial<typeof generations.$inferInsert>;

/**
 * The one way a batch changes status: locks the row, checks the move against the shared
 * transition table, writes it with any accompanying changes, and records it in the audit log,
 * all in the caller's transaction. A move the table does not allow is a 409.
 */
export async function moveGeneration(
  tx: Tx,
  id: number,
  to: GenerationStatus,
  context: { by?: AuditOrigin; actorId?: number | null; changes?: GenerationChanges; reason?: string } = {},
): Promise<{ from: GenerationStatus }> {
  const [row] = await tx.select({ status: generations.status }).from(generations).where(eq(generations.id, id)).for('update');
  if (!row) throw new AppError('not_found');
  const from = row.status;
  if (!canMoveGeneration(from, to)) throw new AppError('conflict', { params: { from, to } });
  await tx
    .update(generations)
    .set({ ...context.changes, status: to, updatedAt: new Date() })
    .where(eq(generations.id, id));
  await recordAudit(
    tx,
    {
      action: 'generation.status_changed',
      actorId: context.actorId,
      subjectType: 'generation',
      subjectId: id,
      details: { from, to, ...(context.reason ? { reason: context.reason } : {}) },
    },
    context.by,
  );
  return { from };
}

/** The same for the signature status (not started → in progress → finished). */
export async function moveSignature(
  tx: Tx,
  id: number,
  to: SignatureStatus,
  context: { by?: AuditOrigin; actorId?: number | null; changes?: GenerationChanges } = {},
): Promise<{ from: SignatureStatus }> {
  const [row] = await tx.select({ signatureStatus: generations.signatureStatus }).from(generations).where(eq(generations.id, id)).for('update');
  if (!row) throw new AppError('not_found');
  const from = row.signatureStatus;
  if (!canMoveSignature(from, to)) throw new AppError('conflict', { params: { from, to } });
  await tx
    .update(generations)
    .set({ ...context.changes, signatureStatus: to, updatedAt: new Date() })
    .where(eq(generations.id, id));
  await recordAudit(tx, { action: 'generation.signature_status_changed', actorId: context.actorId, subjectType: 'generation', subjectId: id, details: { from, to } }, context.by);
  return { from };
}
