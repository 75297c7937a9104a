import { PUBLISHED_STATUS } from '@sceau/contracts';
import { reconcile } from '@sceau/chain';
import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { generations } from '../../db/schema.ts';
import { batchSigningKeys } from './batch-access.ts';
import { moveGeneration, moveSignature } from './generation-status.ts';
import type { IssuingDeps } from './issuing-deps.ts';

/** Issuing on the chain: a generated batch's root written to the registry (publication), and the anchors checked at start. */

/**
 * At start: every batch the database records as anchored must be known to the chain. On the local
 * chain (which may have lost its last second, or its contract) a missing root is anchored again
 * and the new transaction recorded; on an external chain it is flagged, never silently rewritten.
 */
export async function reconcileAnchors(
  deps: Pick<IssuingDeps, 'db' | 'chain'>,
  log: Pick<Logger, 'info' | 'warn' | 'error'>,
): Promise<{ checked: number; reanchored: number; flagged: number }> {
  const { db, chain } = deps;
  const anchored = await db
    .select({ id: generations.id, root: generations.merkleRoot, txHash: generations.anchorTxHash })
    .from(generations)
    .where(and(eq(generations.signatureStatus, 'finished'), sql`${generations.merkleRoot} is not null`));
  if (anchored.length === 0) return { checked: 0, reanchored: 0, flagged: 0 };
  const { missing } = await reconcile(
    chain.registry,
    anchored.map((a) => ({ root: `0x${a.root}` as `0x${string}`, txHash: a.txHash as `0x${string}` | null })),
  );
  let reanchored = 0;
  let flagged = 0;
  for (const lost of missing) {
    const batch = anchored.find((a) => `0x${a.root}` === lost.root)!;
    if (chain.local) {
      const anchor = await chain.registry.issueRoot(lost.root);
      await db
        .update(generations)
        .set({
          anchorTxHash: anchor.txHash,
          anchorBlockNumber: anchor.blockNumber,
          anchorContract: chain.address.toLowerCase(),
          anchoredAt: new Date(anchor.timestamp * 1000),
          updatedAt: new Date(),
        })
        .where(eq(generations.id, batch.id));
      log.warn({ generationId: batch.id, txHash: anchor.txHash }, 'the local chain had lost this batch: anchored again');
      reanchored++;
    } else {
      const message = `root ${lost.root} not found on chain ${chain.chainId} (recorded transaction ${lost.txHash ?? 'none'})`;
      await db.update(generations).set({ lastError: message, updatedAt: new Date() }).where(eq(generations.id, batch.id));
      log.error({ generationId: batch.id }, `anchored batch missing from the chain: ${message}`);
      flagged++;
    }
  }
  return { checked: anchored.length, reanchored, flagged };
}

/**
 * Publishes a generated batch: writes its root to the registry. A chain that does not answer
 * throws (the job is retried) and leaves the signature "in progress": it is "finished" only with
 * a mined transaction.
 */
export async function anchorBatch(deps: Pick<IssuingDeps, 'db' | 'chain' | 'log' | 'keys'>, generationId: number): Promise<void> {
  const { db, chain, log } = deps;
  const [batch] = await db.select().from(generations).where(eq(generations.id, generationId));
  if (!batch || batch.status !== 'ready_for_signature' || batch.signatureStatus !== 'in_progress' || !batch.merkleRoot) return;
  // The key rotated between the signature step and this job: anchored now, every verifier would
  // refuse the batch (ADR 0148). Its signature goes back to "not started", the reason recorded.
  const signingKeys = await batchSigningKeys(db, generationId, deps.keys);
  const retired = signingKeys?.batchKids[0];
  if (retired !== undefined) {
    const message = `signed with key ${retired}, retired since (active key ${signingKeys!.activeKid}): cancel the batch and issue its list again`;
    await db.transaction((tx) => moveSignature(tx, generationId, 'not_started', { changes: { lastError: message } }));
    log.warn({ generationId, kid: retired }, `batch not anchored: ${message}`);
    return;
  }
  const anchor = await chain.registry.issueRoot(`0x${batch.merkleRoot}`);
  await db.transaction(async (tx) => {
    const changes = {
      anchorChainId: chain.chainId,
      anchorContract: chain.address.toLowerCase(),
      anchorTxHash: anchor.txHash,
      anchorBlockNumber: anchor.blockNumber,
      anchoredAt: new Date(anchor.timestamp * 1000),
    };
    await moveSignature(tx, generationId, 'finished', { changes });
    await moveGeneration(tx, generationId, PUBLISHED_STATUS, { changes: { publishedAt: new Date() } });
  });
  log.info({ generationId, txHash: anchor.txHash }, 'batch anchored and published');
}
