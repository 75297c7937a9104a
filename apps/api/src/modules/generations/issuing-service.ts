import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { diplomas, generations } from '../../db/schema.ts';
import type { FileStorage } from '../../lib/storage.ts';
import type { OpenChain } from '../chain/open-chain.ts';
import type { MinistryKeys } from '../keys/ministry-keys.ts';
import { moveGeneration } from './generation-status.ts';
import { anchorBatch, reconcileAnchors } from './issuing-anchor.ts';
import { writeCredentials } from './issuing-credentials.ts';
import { SealKeyring } from '../verification/verification-seal.ts';
import { BatchDataError, type IssuingDeps, type ItemRange } from './issuing-deps.ts';
import { renderPending } from './issuing-render.ts';
import type { WorkerFiles } from './render-pool.ts';
import { TimestampingService } from '../timestamping/timestamping-service.ts';

export { BatchDataError, type ItemRange } from './issuing-deps.ts';

/** Diplomas per chunk job when a batch's PDFs are shared between worker processes. */
export const RENDER_RANGE = 1000;

/**
 * Turns a launched batch into signed diplomas and publishes it (architecture section 3):
 * - `generate`: every validated candidate gets a credential (salted hashes, targetHash), the batch
 *   its Merkle tree (root signed with the ministry's ES256 key), each diploma its signed QR payload,
 *   then its PDF (rendered, credential attached, PAdES-signed) → "ready for signature";
 * - `anchor`: the root written to the registry contract → signature "finished", batch "completed".
 * Both are idempotent: after a crash they resume where they stopped and issue each diploma once.
 */
export class IssuingService {
  private readonly deps: IssuingDeps;

  constructor(
    private readonly db: Db,
    config: Config,
    keys: MinistryKeys,
    storage: FileStorage,
    chain: OpenChain,
    private readonly log: Pick<Logger, 'info' | 'warn'>,
    /** `workerFiles`, `timestamping`, `seal`: see IssuingDeps (by default the configuration's TSA and CRL). */
    options: { workerFiles?: WorkerFiles | undefined; timestamping?: TimestampingService; seal?: SealKeyring } = {},
  ) {
    const timestamping = options.timestamping ?? new TimestampingService(config, keys, log);
    const seal = options.seal ?? new SealKeyring(config.verificationSeal, log);
    this.deps = { db, config, keys, storage, chain, log, workerFiles: options.workerFiles, timestamping, seal };
  }

  /**
   * Phase one (credentials, tree, QR payloads), then phase two (the PDFs). With `fanOut`, phase
   * two is handed to chunk jobs instead (ranges of item ids, ADR 0105): every worker process then
   * shares the batch, and the last chunk moves it to "ready for signature" (`renderRange`).
   */
  async generate(generationId: number, options: { fanOut?: (ranges: ItemRange[]) => Promise<void>; rangeSize?: number } = {}): Promise<void> {
    const [batch] = await this.db.select().from(generations).where(eq(generations.id, generationId));
    if (!batch || batch.status !== 'in_progress') return; // done already, or no longer wanted
    await this.failOnDataError(generationId, async () => {
      if (!batch.merkleRoot) await this.writeCredentials(generationId);
      if (options.fanOut) {
        const ranges = await this.pendingRanges(generationId, options.rangeSize ?? RENDER_RANGE);
        if (ranges.length) return options.fanOut(ranges);
      } else {
        await this.renderPending(generationId);
      }
      await this.finishIfRendered(generationId);
    });
  }

  /**
   * A chunk job: the PDFs still missing among items `from`–`to` of a batch being generated, then the
   * batch moves on if it was the last. Any number may run at once, in any process: a PDF is stored
   * and counted by the run that locks its row first (see renderPending).
   */
  async renderRange(generationId: number, range: ItemRange): Promise<void> {
    const [batch] = await this.db.select({ status: generations.status }).from(generations).where(eq(generations.id, generationId));
    if (batch?.status !== 'in_progress') return; // failed or cancelled meanwhile: a relaunch sends new chunks
    await this.failOnDataError(generationId, async () => {
      await this.renderPending(generationId, range);
      await this.finishIfRendered(generationId);
    });
  }

  /** The diplomas of a batch still without a PDF, as consecutive ranges of at most `size` items. */
  async pendingRanges(generationId: number, size: number): Promise<ItemRange[]> {
    const result = await this.db.execute<{ from: number; to: number }>(sql`
      select min(item_id)::int as "from", max(item_id)::int as "to"
      from (select item_id, (row_number() over (order by item_id) - 1) / ${size} as chunk
            from ${diplomas} where generation_id = ${generationId} and pdf_key is null) pending
      group by chunk order by 1`);
    return result.rows.map((r) => ({ from: r.from, to: r.to }));
  }

  /** "Ready for signature" once every diploma has its PDF; once only, whoever finishes last. */
  private async finishIfRendered(generationId: number): Promise<void> {
    const moved = await this.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(generations).where(eq(generations.id, generationId)).for('update');
      if (locked?.status !== 'in_progress' || !locked.merkleRoot) return false;
      const [left] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(diplomas)
        .where(and(eq(diplomas.generationId, generationId), isNull(diplomas.pdfKey)));
      if (left!.n > 0) return false;
      await moveGeneration(tx, generationId, 'ready_for_signature', { changes: { generatedAt: new Date() } });
      return true;
    });
    if (moved) this.log.info({ generationId }, 'batch generated: ready for signature');
  }

  /** A batch that cannot be generated as it is fails (retrying would not help); other errors go up (the job is retried). */
  private async failOnDataError(generationId: number, work: () => Promise<void>): Promise<boolean> {
    try {
      await work();
      return true;
    } catch (error) {
      if (!(error instanceof BatchDataError)) throw error;
      await this.db.transaction(async (tx) => {
        const [locked] = await tx.select({ status: generations.status }).from(generations).where(eq(generations.id, generationId)).for('update');
        if (locked?.status === 'in_progress') await moveGeneration(tx, generationId, 'failed', { changes: { lastError: error.message }, reason: error.message });
      });
      this.log.warn({ generationId, reason: error.message }, 'batch generation failed');
      return false;
    }
  }

  /** Phase one (issuing-credentials.ts). */
  private writeCredentials(generationId: number): Promise<void> {
    return writeCredentials(this.deps, generationId);
  }

  /** Phase two (issuing-render.ts), for the batch or for items `range` of it. */
  private renderPending(generationId: number, range?: ItemRange): Promise<void> {
    return renderPending(this.deps, generationId, range);
  }

  /**
   * At start: every batch the database records as anchored must be known to the chain. On the local
   * chain (which may have lost its last second, or its contract) a missing root is anchored again
   * and the new transaction recorded; on an external chain it is flagged, never silently rewritten.
   */
  reconcileAnchors(log: Pick<Logger, 'info' | 'warn' | 'error'>): Promise<{ checked: number; reanchored: number; flagged: number }> {
    return reconcileAnchors(this.deps, log);
  }

  /**
   * Publishes a generated batch: writes its root to the registry. A chain that does not answer
   * throws (the job is retried) and leaves the signature "in progress": it is "finished" only with
   * a mined transaction.
   */
  anchor(generationId: number): Promise<void> {
    return anchorBatch(this.deps, generationId);
  }
}
