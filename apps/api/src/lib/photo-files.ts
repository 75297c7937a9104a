import { createHash, randomBytes } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { generationItems } from '../db/schema.ts';
import type { FileStorage } from './storage.ts';

/** The 16 hex of a photo's SHA-256 that the names of its files carry. */
function contentTag(photo: Uint8Array): string {
  return createHash('sha256').update(photo).digest('hex').slice(0, 16);
}

/**
 * A new key for a candidate's photo (300 × 400, ADR 0107), wherever it comes from (the list's
 * import, the photos zip, an upload or the editor): its content's tag, then 8 hex of the writer.
 * Two writers never share a key, even for the same bytes: a write that does not commit, and the
 * clean-up after it, never touch a file another writer committed (ADR 0060, amendment of
 * 2026-11-28). The writer's part is random, or, given `writer`, derived from it: the import job
 * passes its importation, so that a run started again after a crash writes over the files the
 * killed run left instead of beside them (runs of one importation never overlap). The same photo as
 * the one a row names is not written again (`photoKeyFor`).
 */
export function newPhotoKey(generationId: number, candidateCode: string, photo: Uint8Array, writer?: string): string {
  return keyWithTag(generationId, candidateCode, contentTag(photo), writer);
}

function keyWithTag(generationId: number, candidateCode: string, tag: string, writer?: string): string {
  const part = writer === undefined ? randomBytes(4).toString('hex') : createHash('sha256').update(`photo-writer:${writer}`).digest('hex').slice(0, 8);
  return `photos/${generationId}/${candidateCode}-${tag}-${part}.jpg`;
}

/**
 * The content tag a photo key carries (keys of this form, and those written before the writer's
 * part, `<code>-<tag>.jpg`), or null (the import's old fixed name, no key).
 */
function tagOf(key: string | null): string | null {
  return (key && /-([0-9a-f]{16})(?:-[0-9a-f]{8})?\.jpg$/.exec(key)?.[1]) || null;
}

/**
 * The key a candidate's photo is to be stored under when the row names `current`: `current` itself
 * when it already holds these bytes (the same photo again writes nothing), else a new one
 * (`newPhotoKey`, a random writer's part). The photo is hashed once.
 */
export function photoKeyFor(current: string | null, generationId: number, candidateCode: string, photo: Uint8Array): string {
  const tag = contentTag(photo);
  return current !== null && tagOf(current) === tag ? current : keyWithTag(generationId, candidateCode, tag);
}

/** Where the import wrote a candidate's photo before content keys: still cleaned up when superseded. */
export function photoKey(generationId: number, candidateCode: string): string {
  return `photos/${generationId}/${candidateCode}.jpg`;
}

/**
 * The original kept with a photo (bounded, ADR 0147), which the editor crops from: beside the
 * photo, under `originals/`, with the photo's own name. Each write of a photo has a key of its own, so the
 * original belongs to the photo the row names and changes with it in the same commit (ADR 0060,
 * amendment of 2026-11-27); none for a photo that is its own original.
 */
export function originalKeyOf(photoKey: string): string {
  const slash = photoKey.lastIndexOf('/');
  return `${photoKey.slice(0, slash + 1)}originals/${photoKey.slice(slash + 1)}`;
}

/** The photo an original belongs to (the key `originalKeyOf` maps to this one), or null for a key that is no original. */
export function photoKeyOfOriginal(key: string): string | null {
  const at = key.lastIndexOf('/originals/');
  const name = key.slice(at + '/originals/'.length);
  if (at < 0 || !name || name.includes('/')) return null;
  return `${key.slice(0, at + 1)}${name}`;
}

/** The original of the photo the import writes (`photoKey`). */
export function originalPhotoKey(generationId: number, candidateCode: string): string {
  return originalKeyOf(photoKey(generationId, candidateCode));
}

/** Whether a key is an original rather than a photo. */
function isOriginal(key: string): boolean {
  return key.includes('/originals/');
}

/** Keys looked up in one statement. */
export const KEYS_PER_QUERY = 1000;

/**
 * Deletes candidates' photo files no candidate points at any more (a photo replaced, a batch
 * cancelled, a replacement that did not commit): the 300 × 400 copies and, with each, the original
 * kept beside it (`originalKeyOf`, ADR 0147). A key some
 * candidate's row still names is kept, whatever batch it belongs to: a published diploma's photo
 * (served by `GET /verify/:id/photo`) is never removed this way. Call it after the rows stopped
 * naming the files (a failure then leaves an orphan file, never a candidate without its photo).
 * The files go in one `deleteMany` (with S3, a request per 1,000 keys); each file that could not be
 * deleted is logged with its key and error, never thrown. Answers how many of `keys` were deleted.
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
  const failed = await storage.deleteMany([...new Set(unused.flatMap((key) => (isOriginal(key) ? [key] : [key, originalKeyOf(key)])))]);
  for (const { key, error } of failed) log.warn({ err: error, key }, 'could not delete a photo no candidate uses');
  const notDeleted = new Set(failed.map((f) => f.key));
  return unused.filter((key) => !notDeleted.has(key)).length;
}
