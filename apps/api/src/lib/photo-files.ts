import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { generationItems } from '../db/schema.ts';
import type { FileStorage } from './storage.ts';

/** A candidate's photo as the import writes it (300 × 400, ADR 0107). */
export function photoKey(generationId: number, candidateCode: string): string {
  return `photos/${generationId}/${candidateCode}.jpg`;
}

/** The candidate's latest original photo (bounded, ADR 0147), which the editor crops from; edits never replace it. */
export function originalPhotoKey(generationId: number, candidateCode: string): string {
  return `photos/${generationId}/originals/${candidateCode}.jpg`;
}

/** Keys looked up in one statement, and files deleted at the same time (each an HTTP request with S3). */
const KEYS_PER_QUERY = 1000;
const DELETES_AT_ONCE = 16;

/**
 * Deletes candidates' photo files no candidate points at any more (a photo replaced, a batch
 * cancelled): the 300 × 400 copies and the originals kept for the editor (ADR 0147). A key some
 * candidate's row still names is kept, whatever batch it belongs to: a published diploma's photo
 * (served by `GET /verify/:id/photo`) is never removed this way. Call it after the rows stopped
 * naming the files (a failure then leaves an orphan file, never a candidate without its photo);
 * a file that cannot be deleted is logged, never thrown. Answers how many keys were deleted.
 */
export async function removeUnusedPhotos(
  db: Pick<Db, 'selectDistinct'>,
  storage: Pick<FileStorage, 'delete'>,
  keys: readonly (string | null)[],
  log: { warn(obj: object, msg?: string): void } = { warn: () => {} },
): Promise<number> {
  const candidates = [...new Set(keys.filter((k): k is string => k !== null))];
  const unused: string[] = [];
  for (let i = 0; i < candidates.length; i += KEYS_PER_QUERY) {
    const chunk = candidates.slice(i, i + KEYS_PER_QUERY);
    const named = await db.selectDistinct({ key: generationItems.photoKey }).from(generationItems).where(inArray(generationItems.photoKey, chunk));
    const still = new Set(named.map((r) => r.key));
    unused.push(...chunk.filter((k) => !still.has(k)));
  }
  let deleted = 0;
  for (let i = 0; i < unused.length; i += DELETES_AT_ONCE) {
    await Promise.all(
      unused.slice(i, i + DELETES_AT_ONCE).map(async (key) => {
        try {
          await storage.delete(key);
          deleted++;
        } catch (error) {
          log.warn({ err: error, key }, 'could not delete a photo no candidate uses');
        }
      }),
    );
  }
  return deleted;
}
