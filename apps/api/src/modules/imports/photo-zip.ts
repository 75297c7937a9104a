import { IMPORT_LIMITS, type PhotoRefusal } from '@sceau/contracts';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type yauzl from 'yauzl';
import type { Db } from '../../db/client.ts';
import { generationItems } from '../../db/schema.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { FileStorage } from '../../lib/storage.ts';
import type { Actor } from '../../policies/actor.ts';
import { generationPolicy } from '../../policies/generation-policy.ts';
import { recordAudit } from '../audit/audit-service.ts';
import { batchFor } from '../generations/batch-access.ts';
import { moveGeneration } from '../generations/generation-status.ts';
import { checkPhoto, PHOTO_BOX_MM, PHOTO_LIMITS } from './import-checker.ts';
import { originalKeyOf, photoKey as importedPhotoKey, photoKeyFor, removeUnusedPhotos } from '../../lib/photo-files.ts';
import { readZip } from './list-files.ts';
import { type PhotoUnreadable, type PhotoWarning, preparePhotoFiles } from './photo-reading.ts';

/** Photos decoded and written at once (each may be a 10 MB file and a 48-megapixel decode). */
const PHOTOS_AT_ONCE = 4;
/** Candidate codes looked up per query. */
const CODES_PER_QUERY = 5_000;

export interface PhotoZipOutcome {
  generationId: number;
  files: number;
  added: { file: string; candidateCode: string; itemId: number; warnings: PhotoWarning[] }[];
  unmatched: { file: string }[];
  refused: { file: string; candidateCode: string | null; code: PhotoRefusal; reason?: PhotoUnreadable }[];
  withoutPhoto: number;
}

/** A zip entry's name without its folders and extension, as a candidate code is compared to it. */
function stemOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base)
    .trim()
    .replace(/[\s.-]/g, '')
    .toLowerCase();
}

/**
 * A photos zip added to a batch that holds its candidates (ADR 0147), at any time before launch:
 * each file named by a candidate's code (`<code>.jpg`, `.heic`, …, in any folder, as the list
 * import finds them) becomes that candidate's photo, waiting for validation, with its original
 * kept for the editor. Files are read and written first, each photo under a key of its own
 * with its original beside it (`originalKeyOf`), so no file a candidate has is touched; then every
 * candidate changes in one transaction holding the batch (its state checked again there), audited
 * once. All or nothing (ADR 0060, amendment of 2026-11-27): when the transaction fails, the files
 * written are deleted and every candidate keeps its photo and original; once it commits, the
 * photos and originals the candidates no longer show are deleted.
 */
export class PhotoZipService {
  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    /** Where a file that could not be deleted is reported (warn, with its key), for an operator to find. */
    private readonly log: { warn(obj: object, msg?: string): void },
  ) {}

  /** The batch held to the rule before the upload is read (404 / 403 / 409). */
  async batchFor(actor: Actor, generationId: number) {
    return batchFor(this.db, actor, generationId, generationPolicy.addPhotos);
  }

  async addPhotos(actor: Actor, generationId: number, zipBytes: Buffer | null): Promise<PhotoZipOutcome> {
    const batch = await this.batchFor(actor, generationId);
    if (!zipBytes) throw fieldError('photos', 'field.file_required');
    const zip = await readZip(zipBytes);
    // The photos this upload wrote (each with its original): deleted unless a committed row names them.
    const written: string[] = [];
    let committed = false;
    try {
      // The zip's files by the code their name gives; two files for one code are both refused.
      const byCode = new Map<string, { file: string; entry: yauzl.Entry }[]>();
      for (const entry of zip.files.values()) {
        const stem = stemOf(entry.fileName);
        byCode.set(stem, [...(byCode.get(stem) ?? []), { file: entry.fileName, entry }]);
      }
      const items = new Map<string, { id: number; rejected: boolean; photoKey: string | null }>();
      const codes = [...byCode.keys()].filter((c) => /^\d{14}$/.test(c));
      for (let i = 0; i < codes.length; i += CODES_PER_QUERY) {
        const rows = await this.db
          .select({ id: generationItems.id, code: generationItems.candidateCode, rejected: generationItems.rejected, photoKey: generationItems.photoKey })
          .from(generationItems)
          .where(and(eq(generationItems.generationId, batch.id), inArray(generationItems.candidateCode, codes.slice(i, i + CODES_PER_QUERY))));
        for (const r of rows) items.set(r.code.toLowerCase(), r);
      }

      const outcome: PhotoZipOutcome = { generationId: batch.id, files: zip.files.size, added: [], unmatched: [], refused: [], withoutPhoto: 0 };
      const work: { file: string; entry: yauzl.Entry; code: string; item: { id: number; photoKey: string | null } }[] = [];
      for (const [stem, files] of byCode) {
        const item = items.get(stem);
        if (!item) {
          for (const f of files) outcome.unmatched.push({ file: f.file });
        } else if (files.length > 1) {
          for (const f of files) outcome.refused.push({ file: f.file, candidateCode: stem, code: 'photo_duplicate' });
        } else if (item.rejected) {
          outcome.refused.push({ file: files[0]!.file, candidateCode: stem, code: 'candidate_rejected' });
        } else work.push({ ...files[0]!, code: stem, item });
      }

      const changes: { itemId: number; code: string; key: string; before: string | null }[] = [];
      for (let start = 0; start < work.length; start += PHOTOS_AT_ONCE) {
        // Every write of the group settled before a failure goes on, so that none lands after the clean-up.
        const settled = await Promise.allSettled(
          work.slice(start, start + PHOTOS_AT_ONCE).map(async ({ file, entry, code, item }) => {
            const checked = await checkPhoto(zip, entry);
            if ('problem' in checked) {
              outcome.refused.push({ file, candidateCode: code, code: checked.problem as PhotoRefusal, ...(checked.reason ? { reason: checked.reason } : {}) });
              return;
            }
            let files: Awaited<ReturnType<typeof preparePhotoFiles>>;
            try {
              files = await preparePhotoFiles(await zip.read(entry), PHOTO_BOX_MM, PHOTO_LIMITS);
            } catch {
              outcome.refused.push({ file, candidateCode: code, code: 'photo_unreadable', reason: 'damaged' });
              return;
            }
            // Under a key of its own, as an uploaded photo, its original beside it (none for a
            // photo already at the box's size: its own original). The candidate's files stay as they
            // are; the same photo again writes nothing.
            const key = photoKeyFor(item.photoKey, batch.id, code, files.photo);
            if (key !== item.photoKey) {
              written.push(key);
              if (files.original) await this.storage.put(originalKeyOf(key), files.original);
              await this.storage.put(key, files.photo);
            }
            changes.push({ itemId: item.id, code, key, before: item.photoKey });
            outcome.added.push({ file, candidateCode: code, itemId: item.id, warnings: checked.warnings });
          }),
        );
        const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
        if (failed) throw failed.reason;
      }

      await this.db.transaction(async (tx) => {
        const locked = await batchFor(tx, actor, batch.id, generationPolicy.addPhotos, { lock: true }).catch((error: unknown) => {
          throw error instanceof AppError ? error : new AppError('conflict');
        });
        for (const change of changes) {
          await tx
            .update(generationItems)
            .set({ photoKey: change.key, photoStatus: 'pending', updatedAt: new Date() })
            .where(and(eq(generationItems.id, change.itemId), eq(generationItems.rejected, false)));
        }
        // A new photo waits for validation: a batch that was ready goes back to it.
        if (changes.length && locked.status === 'ready_for_generation') await moveGeneration(tx, batch.id, 'pending_validation', { by: actor, reason: 'photos_added' });
        const [row] = await tx
          .select({ n: sql<number>`count(*)`.mapWith(Number) })
          .from(generationItems)
          .where(and(eq(generationItems.generationId, batch.id), eq(generationItems.rejected, false), isNull(generationItems.photoKey)));
        outcome.withoutPhoto = row?.n ?? 0;
        await recordAudit(
          tx,
          {
            action: 'generation.photos_added',
            subjectType: 'generation',
            subjectId: batch.id,
            details: {
              files: outcome.files,
              added: outcome.added.length,
              unmatched: outcome.unmatched.length,
              refused: outcome.refused.length,
              candidates: changes.slice(0, IMPORT_LIMITS.maxErrorsListed).map((c) => c.code),
            },
          },
          actor,
        );
      });
      committed = true;
      // The photos these candidates showed are superseded, with their originals (and the import's
      // own file, whose original older code kept for every later photo). A photo written for a
      // candidate the transaction left alone (rejected meanwhile) is named by no row and goes too.
      const replaced = changes.filter((c) => c.before !== c.key);
      await this.removeUnused([...replaced.flatMap((c) => [c.before, importedPhotoKey(batch.id, c.code)]), ...written]);
      const order = (a: { file: string }, b: { file: string }) => a.file.localeCompare(b.file);
      outcome.added.sort(order);
      outcome.unmatched.sort(order);
      outcome.refused.sort(order);
      return outcome;
    } finally {
      zip.close();
      // Not committed: every file written goes (a key some row already names, the same photo another
      // candidate shows, is kept), and the candidates' own files were never touched.
      if (!committed) await this.removeUnused(written);
    }
  }

  /** Photo files no row names deleted; what cannot be is logged, never thrown (the change stands or the first error goes on). */
  private async removeUnused(keys: readonly (string | null)[]): Promise<void> {
    await removeUnusedPhotos(this.db, this.storage, keys, this.log).catch((err: unknown) => this.log.warn({ err, keys }, 'could not delete the photo files of a photos zip'));
  }
}
