import type { Dir } from 'node:fs';
import { opendir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, isNotNull, lt, notExists, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { generationItems, generations, importations, walletNonces, walletOffers } from '../db/schema.ts';
import { KEYS_PER_QUERY, photoKeyOfOriginal } from '../lib/photo-files.ts';
import { type FileStorage, isStorageKey } from '../lib/storage.ts';
import { recordAudit } from '../modules/audit/audit-service.ts';
import { defineJob } from './job-queue.ts';

/** A `.tmp` file this old is no write in progress: its writer was killed (ADR 0112). */
export const TEMPORARY_FILE_MAX_AGE_MS = 60 * 60 * 1000;
/** Drafts deleted per run at most, so one run stays short whatever piled up. */
const DRAFTS_PER_RUN = 500;
/**
 * A photo file younger than this is left alone even when no candidate names it: it may be one an
 * import, a photos zip, an upload or the editor has written and not yet named in its commit. A day
 * is far longer than any of them takes between its write and its commit (minutes for the largest
 * list), and an orphan costs only its bytes until the next run.
 */
export const ORPHAN_PHOTO_MIN_AGE_MS = 24 * 3600_000;
/**
 * Photo files (and originals) examined per run at most, so that a run stays short however many are
 * stored (about ten ListObjectsV2 requests and ten queries); the next run goes on after the last
 * one examined, and past the last file starts again from the first.
 */
const PHOTO_FILES_PER_RUN = 10_000;
/** Where the orphan sweep keeps the last key it examined: any process, after any restart, goes on from there. */
export const ORPHAN_PHOTO_CURSOR_KEY = 'maintenance/orphan-photos-cursor';

export interface SweepResult {
  drafts: number;
  draftFiles: number;
  temporaryFiles: number;
  /** Resumable uploads past their expiry (ADR 0150). */
  uploads: number;
  /** OpenID4VCI offers whose code and access token have both expired, and expired nonces (ADR 0146). */
  walletOffers: number;
  walletNonces: number;
  /** Photo files and originals no candidate names, older than a day (ADR 0112, amendment of 2026-11-28). */
  orphanPhotos: number;
}

/**
 * What abandoned work leaves behind, removed by an hourly job (ADR 0112):
 *  - the draft batch every list check creates (`POST /check-import-file`) with its stored list,
 *    check and photos zip, when it was never started and not touched for `draftTtlHours`;
 *  - `*.tmp` files a kill left beside photos and PDFs (local storage writes a temporary file,
 *    then renames it), older than an hour;
 *  - resumable uploads unfinished or unused past `UPLOAD_EXPIRY_HOURS` (ADR 0150);
 *  - OpenID4VCI offers no longer good for anything (code and access token expired) and expired
 *    `c_nonce` values (ADR 0146): each was refused once expired, so a deleted one is refused alike;
 *  - photo files and originals under `photos/` that no candidate names, older than a day: left by a
 *    process killed between its write and its commit, or by a deletion that failed.
 */
export class Sweeper {
  readonly job;

  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    private readonly options: {
      draftTtlHours: number;
      filesDir: string | null;
      temporaryFileMaxAgeMs?: number;
      uploads?: { sweep(): Promise<number> };
      /** Defaults: `ORPHAN_PHOTO_MIN_AGE_MS`, `PHOTO_FILES_PER_RUN`. */
      orphanPhotoMinAgeMs?: number;
      photoFilesPerRun?: number;
    },
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
        if (result.drafts || result.temporaryFiles || result.uploads || result.walletOffers || result.walletNonces || result.orphanPhotos)
          this.log.info({ ...result }, 'swept abandoned drafts, temporary files, uploads, expired wallet offers and orphan photos');
      },
    });
  }

  async sweep(now = new Date()): Promise<SweepResult> {
    const drafts = await this.sweepDrafts(now);
    const temporaryFiles = await this.sweepTemporaryFiles(now);
    const uploads = (await this.options.uploads?.sweep()) ?? 0;
    const wallet = await this.sweepWalletOffers(now);
    const orphanPhotos = await this.sweepOrphanPhotos(now);
    return { ...drafts, temporaryFiles, uploads, ...wallet, orphanPhotos };
  }

  /**
   * Deletes photo files and originals under `photos/` older than a day that no candidate's row
   * names; an original stays while its photo (`photoKeyOfOriginal`) is named. At most
   * `PHOTO_FILES_PER_RUN` files are examined, from after the last one the previous run examined.
   * A file that could not be deleted, or a listing that failed, is logged, never thrown. Answers how
   * many were deleted; 0 with a store that cannot list.
   */
  async sweepOrphanPhotos(now = new Date()): Promise<number> {
    if (!this.storage.list) return 0;
    const before = now.getTime() - (this.options.orphanPhotoMinAgeMs ?? ORPHAN_PHOTO_MIN_AGE_MS);
    const perRun = this.options.photoFilesPerRun ?? PHOTO_FILES_PER_RUN;
    const old: string[] = [];
    let examined = 0;
    let last: string | undefined;
    try {
      const saved = (await this.storage.get(ORPHAN_PHOTO_CURSOR_KEY))?.toString('utf8');
      // A cursor that is no key (damaged by hand) only means starting again from the first file.
      const startAfter = saved && isStorageKey(saved) ? saved : undefined;
      for await (const file of this.storage.list('photos/', startAfter ? { startAfter } : {})) {
        examined++;
        last = file.key;
        if (file.modifiedAt.getTime() < before) old.push(file.key);
        if (examined >= perRun) break;
      }
    } catch (error) {
      // A store that cannot be read now (or S3 credentials without ListBucket) costs only this sweep, not the others.
      this.log.warn({ err: error }, 'could not list the photo files: orphan photos not swept this time');
      return 0;
    }
    const orphans: string[] = [];
    for (let i = 0; i < old.length; i += KEYS_PER_QUERY) {
      const chunk = old.slice(i, i + KEYS_PER_QUERY);
      // Each key, and for an original the photo it belongs to: either named keeps the file.
      const asked = [...new Set(chunk.flatMap((key) => [key, photoKeyOfOriginal(key) ?? key]))];
      const named = await this.db.selectDistinct({ key: generationItems.photoKey }).from(generationItems).where(inArray(generationItems.photoKey, asked));
      const kept = new Set(named.map((r) => r.key));
      orphans.push(...chunk.filter((key) => !kept.has(key) && !kept.has(photoKeyOfOriginal(key))));
    }
    const failed = orphans.length ? await this.storage.deleteMany(orphans) : [];
    for (const { key, error } of failed) this.log.warn({ err: error, key }, 'could not delete an orphan photo file');
    // A run that examined fewer than it may reached the last file: the next one starts from the first.
    try {
      if (examined < perRun || last === undefined) await this.storage.delete(ORPHAN_PHOTO_CURSOR_KEY);
      else await this.storage.put(ORPHAN_PHOTO_CURSOR_KEY, Buffer.from(last));
    } catch (error) {
      this.log.warn({ err: error, key: ORPHAN_PHOTO_CURSOR_KEY }, 'could not save where the orphan photo sweep stopped');
    }
    return orphans.length - failed.length;
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
