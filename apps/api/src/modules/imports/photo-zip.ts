import { createHash } from 'node:crypto';
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
import { originalPhotoKey, removeUnusedPhotos } from '../../lib/photo-files.ts';
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
 * kept for the editor. Files are read and written first, then every candidate changes in one
 * transaction holding the batch (its state checked again there), audited once.
 */
export class PhotoZipService {
  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
  ) {}

  /** The batch held to the rule before the upload is read (404 / 403 / 409). */
  async batchFor(actor: Actor, generationId: number) {
    return batchFor(this.db, actor, generationId, generationPolicy.addPhotos);
  }

  async addPhotos(actor: Actor, generationId: number, zipBytes: Buffer | null): Promise<PhotoZipOutcome> {
    const batch = await this.batchFor(actor, generationId);
    if (!zipBytes) throw fieldError('photos', 'field.file_required');
    const zip = await readZip(zipBytes);
    const written: string[] = [];
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
        await Promise.all(
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
            // Under a key of its content, as an uploaded photo: the import's own file is not overwritten.
            const sha = createHash('sha256').update(files.photo).digest('hex').slice(0, 16);
            const key = `photos/${batch.id}/${code}-${sha}.jpg`;
            await this.storage.put(key, files.photo);
            written.push(key);
            changes.push({ itemId: item.id, code, key, before: item.photoKey });
            outcome.added.push({ file, candidateCode: code, itemId: item.id, warnings: checked.warnings });
            // The original replaces the candidate's earlier one; a photo already at the box's size is its own original.
            if (files.original) await this.storage.put(originalPhotoKey(batch.id, code), files.original);
            else await this.storage.delete(originalPhotoKey(batch.id, code)).catch(() => {});
          }),
        );
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
      written.length = 0;
      // The photos these candidates showed are superseded (the zip's photo is their new original).
      await removeUnusedPhotos(
        this.db,
        this.storage,
        changes.filter((c) => c.before !== c.key).map((c) => c.before),
      );
      const order = (a: { file: string }, b: { file: string }) => a.file.localeCompare(b.file);
      outcome.added.sort(order);
      outcome.unmatched.sort(order);
      outcome.refused.sort(order);
      return outcome;
    } finally {
      zip.close();
      for (const key of written) await this.storage.delete(key).catch(() => {});
    }
  }
}
