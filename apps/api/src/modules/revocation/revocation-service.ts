import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { diplomas, generations } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { defineJob, type JobQueue } from '../../jobs/job-queue.ts';
import { recordAudit } from '../audit/audit-service.ts';
import type { OpenChain } from '../chain/open-chain.ts';
import { batchFor } from '../generations/batch-access.ts';
import type { Actor } from '../../policies/actor.ts';
import { diplomaPolicy } from '../../policies/diploma-policy.ts';
import { generationPolicy } from '../../policies/generation-policy.ts';
import { authorize } from '../../policies/policy.ts';

/**
 * Revocation of a diploma (its targetHash) or of a whole batch (its root). The decision is
 * recorded at once; writing it to the registry is a durable job, retried while the chain is down.
 * Verification reads the chain, so a revocation shows everywhere once its transaction is mined.
 */
export class RevocationService {
  readonly job;

  constructor(
    private readonly db: Db,
    chain: OpenChain,
    private readonly onRevoked: (hash: string) => void,
    /** The platform's job queue: the chain transaction is its job. */
    private readonly queue: JobQueue | null,
  ) {
    this.job = defineJob({
      name: 'revocation.write',
      payload: z.object({ kind: z.enum(['diploma', 'generation']), id: z.string(), hash: z.string().regex(/^[0-9a-f]{64}$/), reason: z.string() }),
      retryLimit: 40,
      retryDelaySeconds: 15,
      expireInSeconds: 15 * 60,
      handle: async ({ kind, id, hash, reason }) => {
        const written = await chain.registry.revoke(`0x${hash}`, reason);
        if (kind === 'diploma') await this.db.update(diplomas).set({ revocationTxHash: written.txHash }).where(eq(diplomas.id, id));
        else
          await this.db
            .update(generations)
            .set({ revocationTxHash: written.txHash })
            .where(eq(generations.id, Number(id)));
        this.onRevoked(hash);
      },
    });
  }

  private requireQueue(): JobQueue {
    if (!this.queue) throw new AppError('internal_error');
    return this.queue;
  }

  async revokeDiploma(actor: Actor, id: string, reason: string): Promise<void> {
    const queue = this.requireQueue();
    const hash = await this.db.transaction(async (tx) => {
      const [row] = await tx
        // Not the whole row: the credential, public credential and seal (ADR 0154) are not needed here.
        .select({ diploma: { generationId: diplomas.generationId, targetHash: diplomas.targetHash, revokedAt: diplomas.revokedAt }, batch: generations })
        .from(diplomas)
        .innerJoin(generations, eq(generations.id, diplomas.generationId))
        .where(eq(diplomas.id, id))
        .for('update');
      if (!row) throw new AppError('not_found');
      // In the actor's scope, with diplomas.revoke; an unpublished diploma is withdrawn by cancelling its batch.
      authorize(diplomaPolicy.revoke(actor, { batch: row.batch, revokedAt: row.diploma.revokedAt }));
      await tx
        .update(diplomas)
        .set({ revokedAt: new Date(), revocationReason: reason, revokedBy: actor.id })
        .where(and(eq(diplomas.id, id), isNull(diplomas.revokedAt)));
      await recordAudit(
        tx,
        { action: 'diploma.revoked', subjectType: 'diploma', subjectId: id, generationId: row.diploma.generationId, details: { reason, target_hash: row.diploma.targetHash } },
        actor,
      );
      return row.diploma.targetHash;
    });
    await queue.send(this.job, { kind: 'diploma', id, hash, reason }, { singletonKey: `revoke:${hash}` });
  }

  async revokeGeneration(actor: Actor, id: number, reason: string): Promise<void> {
    const queue = this.requireQueue();
    const root = await this.db.transaction(async (tx) => {
      const batch = await batchFor(tx, actor, id, generationPolicy.revoke, { lock: true });
      if (!batch.merkleRoot) throw new AppError('conflict');
      await tx.update(generations).set({ revokedAt: new Date(), revocationReason: reason, revokedBy: actor.id, updatedAt: new Date() }).where(eq(generations.id, id));
      await recordAudit(tx, { action: 'generation.revoked', subjectType: 'generation', subjectId: id, details: { reason, merkle_root: batch.merkleRoot } }, actor);
      return batch.merkleRoot;
    });
    await queue.send(this.job, { kind: 'generation', id: String(id), hash: root, reason }, { singletonKey: `revoke:${root}` });
  }
}
