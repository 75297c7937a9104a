import { extendToLongTerm, latestTimestamp } from '@sceau/pdf';
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { X509Certificate, createHash } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { diplomas } from '../../db/schema.ts';
import { defineJob } from '../../jobs/job-queue.ts';
import type { FileStorage } from '../../lib/storage.ts';
import { type TimestampingService, validationData } from './timestamping-service.ts';

const DAY_MS = 86_400_000;

export interface RetimestampResult {
  renewed: number;
  /** Diplomas left as they were: file missing or not the recorded one (each logged). */
  skipped: number;
  /** More were due than one run takes. */
  more: boolean;
}

/**
 * PAdES B-LTA's renewal (ADR 0135): a daily job gives every stored diploma whose last time-stamp's
 * TSA certificate expires within RETIMESTAMP_MARGIN_DAYS (or that has no time-stamp yet: PDFs
 * from before them) a new DSS (current chains and CRLs) and a new document time-stamp, as an
 * incremental update: the earlier bytes, signature and time-stamps stay as they were.
 *
 * Idempotent and resumable: one diploma at a time in its own transaction, its row locked (skip
 * locked: two processes share the work), the file checked against its recorded hash and length
 * first (a file a crash left renewed but not recorded is recognised by its recorded prefix and
 * renewed again), then written whole, then the row. At most RETIMESTAMP_PER_RUN a run, the
 * soonest to expire first.
 */
export class Retimestamper {
  readonly job;

  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    private readonly timestamping: TimestampingService,
    private readonly options: Pick<Config['timestamping'], 'retimestampMarginDays' | 'retimestampPerRun'>,
    private readonly log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void },
  ) {
    this.job = defineJob({
      name: 'pades.retimestamp',
      payload: z.unknown(),
      // Daily, at night, off the hour.
      cron: '41 2 * * *',
      retryLimit: 0,
      retryDelaySeconds: 60,
      expireInSeconds: 3 * 3600,
      handle: async () => {
        const result = await this.run();
        if (result.renewed || result.skipped) this.log.info({ ...result }, 're-time-stamped diplomas (PAdES B-LTA)');
      },
    });
  }

  /** The next moment a time-stamp is due: now plus the margin. */
  private dueBefore(now: Date): Date {
    return new Date(now.getTime() + this.options.retimestampMarginDays * DAY_MS);
  }

  async run(now = new Date(), limit = this.options.retimestampPerRun): Promise<RetimestampResult> {
    const due = this.dueBefore(now);
    const isDue = and(isNotNull(diplomas.pdfKey), or(isNull(diplomas.timestampExpiresAt), lt(diplomas.timestampExpiresAt, due)));
    const candidates = await this.db
      .select({ id: diplomas.id })
      .from(diplomas)
      .where(isDue)
      .orderBy(sql`${diplomas.timestampExpiresAt} asc nulls first`, diplomas.id)
      .limit(limit + 1);
    const result: RetimestampResult = { renewed: 0, skipped: 0, more: candidates.length > limit };
    if (!candidates.length) return result;
    const setup = await this.timestamping.setup();
    const timestamper = await this.timestamping.timestamper();
    for (const { id } of candidates.slice(0, limit)) {
      const outcome = await this.db.transaction(async (tx) => {
        const [row] = await tx
          .select({ pdfKey: diplomas.pdfKey, pdfSha256: diplomas.pdfSha256, pdfBytes: diplomas.pdfBytes })
          .from(diplomas)
          .where(and(eq(diplomas.id, id), isDue))
          .for('update', { skipLocked: true });
        // Renewed meanwhile, or another process has it.
        if (!row?.pdfKey) return 'gone' as const;
        const pdf = await this.storage.get(row.pdfKey);
        if (!pdf) {
          this.log.warn({ diploma: id, key: row.pdfKey }, 're-time-stamping: the PDF is not in the file store');
          return 'skipped' as const;
        }
        if (!isRecordedFile(pdf, row.pdfSha256, row.pdfBytes)) {
          this.log.warn({ diploma: id, key: row.pdfKey }, 're-time-stamping: the stored PDF is not the one recorded; left as it is');
          return 'skipped' as const;
        }
        const renewed = await extendToLongTerm(pdf, validationData(setup), timestamper);
        const last = latestTimestamp(renewed);
        if (!last) throw new Error('re-time-stamping: the new document time-stamp does not verify');
        const expiresAt = new Date(new X509Certificate(last.tsaCertificateDer).validTo);
        if (expiresAt.getTime() <= due.getTime()) {
          throw new Error(
            `re-time-stamping: the TSA certificate expires on ${expiresAt.toISOString()}, within the ${this.options.retimestampMarginDays}-day margin: the TSA must renew it first`,
          );
        }
        await this.storage.put(row.pdfKey, Buffer.from(renewed.buffer, renewed.byteOffset, renewed.byteLength));
        await tx
          .update(diplomas)
          .set({ pdfSha256: createHash('sha256').update(renewed).digest('hex'), pdfBytes: renewed.byteLength, timestampExpiresAt: expiresAt })
          .where(eq(diplomas.id, id));
        return 'renewed' as const;
      });
      if (outcome === 'renewed') result.renewed++;
      if (outcome === 'skipped') result.skipped++;
    }
    return result;
  }
}

/**
 * The stored file is the recorded one, or the recorded one with revisions appended after it (a
 * renewal written before a crash kept its row from being updated).
 */
function isRecordedFile(pdf: Buffer, sha256: string | null, bytes: number | null): boolean {
  if (!sha256) return true;
  if (createHash('sha256').update(pdf).digest('hex') === sha256) return true;
  return bytes !== null && bytes < pdf.length && createHash('sha256').update(pdf.subarray(0, bytes)).digest('hex') === sha256;
}
