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

/** Keys looked up in one statement. */
const KEYS_PER_QUERY = 1000;

/**
 * Deletes candidates' photo files no candidate points at any more (a photo replaced, a batch
 * cancelled): the 300 × 400 copies and the originals kept for the editor (ADR 0147). A key some
 * candidate's row still names is kept, whatever batch it belongs to: a published diploma's photo
 * (served by `GET /verify/:id/photo`) is never removed this way. Call it after the rows stopped
 * naming the files (a failure then leaves an orphan file, never a candidate without its photo).
 * The files go in one `deleteMany` (with S3, a request per 1,000 keys); each file that could not be
 * deleted is logged with its key and error, never thrown. Answers how many keys were deleted.
 */
export async function removeUnusedPhotos(
  db: Pick<Db, 'selectDistinct'>,
  storage: Pick<FileStorage, 'deleteMany'>,
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
  const failed = await storage.deleteMany(unused);
  for (const { key, error } of failed) log.warn({ err: error, key }, 'could not delete a photo no candidate uses');
  return unused.length - failed.length;
}
