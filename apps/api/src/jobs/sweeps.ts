import type { Dir } from 'node:fs';
import { opendir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, isNotNull, lt, notExists, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { generationItems, generations, importations, walletNonces, walletOffers } from '../db/schema.ts';
import type { FileStorage } from '../lib/storage.ts';
import { recordAudit } from '../modules/audit/audit-service.ts';
import { defineJob } from './job-queue.ts';

/** A `.tmp` file this old is no write in progress: its writer was killed (ADR 0112). */
export const TEMPORARY_FILE_MAX_AGE_MS = 60 * 60 * 1000;
/** Drafts deleted per run at most, so one run stays short whatever piled up. */
const DRAFTS_PER_RUN = 500;

export interface SweepResult {
  drafts: number;
  draftFiles: number;
  temporaryFiles: number;
  /** Resumable uploads past their expiry (ADR 0150). */
  uploads: number;
  /** OpenID4VCI offers whose code and access token have both expired, and expired nonces (ADR 0146). */
  walletOffers: number;
  walletNonces: number;
}

/**
 * What abandoned work leaves behind, removed by an hourly job (ADR 0112):
 *  - the draft batch every list check creates (`POST /check-import-file`) with its stored list,
 *    check and photos zip, when it was never started and not touched for `draftTtlHours`;
 *  - `*.tmp` files a kill left beside photos and PDFs (local storage writes a temporary file,
 *    then renames it), older than an hour;
 *  - resumable uploads unfinished or unused past `UPLOAD_EXPIRY_HOURS` (ADR 0150);
 *  - OpenID4VCI offers no longer good for anything (code and access token expired) and expired
 *    `c_nonce` values (ADR 0146): each was refused once expired, so a deleted one is refused alike.
 */
export class Sweeper {
  readonly job;

  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    private readonly options: { draftTtlHours: number; filesDir: string | null; temporaryFileMaxAgeMs?: number; uploads?: { sweep(): Promise<number> } },
    private readonly log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void },
  ) {
    this.job = defineJob({
      name: 'maintenance.sweep',
      payload: z.unknown(),
      // Hourly, off the hour (other periodic work tends to start at :00).
      cron: '17 * * * *',
      retryLimit: 0,
      retryDelaySeconds: 60,
      expireInSeconds: 3600,
      handle: async () => {
        const result = await this.sweep();
        if (result.drafts || result.temporaryFiles || result.uploads || result.walletOffers || result.walletNonces)
          this.log.info({ ...result }, 'swept abandoned drafts, temporary files, uploads and expired wallet offers');
      },
    });
  }

  async sweep(now = new Date()): Promise<SweepResult> {
    const drafts = await this.sweepDrafts(now);
    const temporaryFiles = await this.sweepTemporaryFiles(now);
    const uploads = (await this.options.uploads?.sweep()) ?? 0;
    const wallet = await this.sweepWalletOffers(now);
    return { ...drafts, temporaryFiles, uploads, ...wallet };
  }

  /** Deletes the OpenID4VCI offers whose code and token have both expired, and the expired nonces. */
  async sweepWalletOffers(now = new Date()): Promise<{ walletOffers: number; walletNonces: number }> {
    const offers = await this.db
      .delete(walletOffers)
      .where(and(lt(walletOffers.codeExpiresAt, now), sql`coalesce(${walletOffers.tokenExpiresAt}, ${walletOffers.codeExpiresAt}) < ${now.toISOString()}`))
      .returning({ id: walletOffers.id });
    const nonces = await this.db.delete(walletNonces).where(lt(walletNonces.expiresAt, now)).returning({ hash: walletNonces.nonceHash });
    return { walletOffers: offers.length, walletNonces: nonces.length };
  }

  /** Deletes list-check drafts never started and untouched for the TTL, then their files. */
  async sweepDrafts(now = new Date()): Promise<{ drafts: number; draftFiles: number }> {
    const before = new Date(now.getTime() - this.options.draftTtlHours * 3600_000);
    // Never started: still `created`, no importation of any kind, no candidate.
    const abandoned = and(
      eq(generations.status, 'created'),
      isNotNull(generations.sourceFileKey),
      lt(generations.updatedAt, before),
      notExists(this.db.select({ one: sql`1` }).from(importations).where(eq(importations.generationId, generations.id))),
      notExists(this.db.select({ one: sql`1` }).from(generationItems).where(eq(generationItems.generationId, generations.id))),
    );
    const deleted = await this.db.transaction(async (tx) => {
      // Locked as starting an import locks them: a draft started meanwhile is either seen started, or gone first.
      const rows = await tx
        .select({ id: generations.id, list: generations.sourceFileKey, photos: generations.sourcePhotosKey })
        .from(generations)
        .where(abandoned)
        .orderBy(generations.id)
        .limit(DRAFTS_PER_RUN)
        .for('update', { skipLocked: true });
      if (!rows.length) return [];
      await tx.delete(generations).where(
        inArray(
          generations.id,
          rows.map((r) => r.id),
        ),
      );
      for (const row of rows)
        await recordAudit(tx, { action: 'generation.draft_swept', subjectType: 'generation', subjectId: row.id, details: { ttl_hours: this.options.draftTtlHours } });
      return rows;
    });
    // Files after the rows: a failure here leaves an orphan file, never a draft without its file.
    const keys = deleted.flatMap((row) => draftKeys(row.list!, row.photos));
    const failed = await this.storage.deleteMany(keys);
    for (const { key, error } of failed) this.log.warn({ err: error, key }, 'could not delete a swept draft file');
    return { drafts: deleted.length, draftFiles: keys.length - failed.length };
  }

  /** Removes `*.tmp` files older than an hour under the local files folder (none with S3). */
  async sweepTemporaryFiles(now = new Date()): Promise<number> {
    if (!this.options.filesDir) return 0;
    const limit = now.getTime() - (this.options.temporaryFileMaxAgeMs ?? TEMPORARY_FILE_MAX_AGE_MS);
    let removed = 0;
    // Streamed folder by folder: the tree holds every photo and PDF of every batch.
    const walk = async (dir: string): Promise<void> => {
      let entries: Dir;
      try {
        entries = await opendir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      for await (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile() && entry.name.endsWith('.tmp')) {
          const info = await stat(full).catch(() => null);
          if (info && info.mtimeMs < limit) {
            await rm(full, { force: true });
            removed++;
          }
        }
      }
    };
    await walk(this.options.filesDir);
    return removed;
  }
}

/** A draft's stored files: the list, the check kept beside it (`check.json`), the photos zip. */
function draftKeys(listKey: string, photosKey: string | null): string[] {
  const folder = listKey.slice(0, listKey.lastIndexOf('/'));
  return [listKey, `${folder}/check.json`, ...(photosKey ? [photosKey] : [])];
}
