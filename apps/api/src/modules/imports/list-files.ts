import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { examSessions, type generations } from '../../db/schema.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { FileStorage } from '../../lib/storage.ts';
import type { Scope } from '../../policies/scope.ts';
import { checkRows, HEADER_HINTS, readRows, type CheckedCandidate, type CheckOutcome, type ReadList } from './import-checker.ts';
import { readTable, UnreadableTable, type Table } from './table-reader.ts';
import { openZip, type ZipArchive } from './zip-archive.ts';

/**
 * A list's files (ADR 0060, 0111): the uploaded list and photos zip read, and the stored ones
 * checked again, with the file-only half of their first check kept beside them.
 */

/** A failure that another attempt would not cure: the importation is marked failed, not retried. */
export class ImportRefused extends Error {
  constructor(
    readonly key: string,
    readonly params: Record<string, unknown> = {},
  ) {
    super(key);
  }
}

/** An uploaded list as a table, from `sheet` when one is asked for (an unreadable file is the `file` field's error, saying what the file is). */
export async function readList(bytes: Buffer, sheet?: string | null): Promise<Table> {
  try {
    return await readTable(bytes, HEADER_HINTS, { sheet });
  } catch (error) {
    if (error instanceof UnreadableTable) {
      const key = `field.import_${error.reason}`;
      throw fieldError('file', Object.keys(error.params).length ? { key, params: error.params } : key);
    }
    throw error;
  }
}

/** An uploaded photos zip, opened (an unreadable one is the `photos` field's error). */
export async function readZip(bytes: Buffer): Promise<ZipArchive> {
  try {
    return await openZip(bytes);
  } catch {
    throw fieldError('photos', 'field.import_photos_unreadable');
  }
}

export function fileHasErrors(count: number): AppError {
  return new AppError('validation_failed', { fields: { file: [{ key: 'field.import_file_has_errors', params: { count } }] } });
}

/** Where the file-only half of a list's check is kept: beside the list (`imports/<uuid>/`). */
export function readListKey(listKey: string): string {
  return `${listKey.slice(0, listKey.lastIndexOf('/'))}/check.json`;
}

/** Changes whenever readRows changes what it reads: an older stored check is then ignored. */
const READ_LIST_VERSION = 3;

interface StoredReadList {
  version: number;
  /** SHA-256 (hex) of the list's and the zip's bytes it was read from. */
  list: string;
  photos: string | null;
  sessionYear: number;
  /** The sheet the user chose (null: the reader's own choice), read again by a later check. */
  sheet?: string | null;
  read: ReadList;
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Beside the stored list: the file-only half of its check, with what it was made from. */
export async function storeReadList(
  storage: FileStorage,
  listKey: string,
  list: Buffer,
  zip: Buffer | null,
  sessionYear: number,
  read: ReadList,
  sheet: string | null = null,
): Promise<void> {
  const stored: StoredReadList = { version: READ_LIST_VERSION, list: sha256(list), photos: zip ? sha256(zip) : null, sessionYear, sheet, read };
  await storage.put(readListKey(listKey), Buffer.from(JSON.stringify(stored)));
}

/**
 * The stored file-only half of a list's check, if it was made from exactly these files (else
 * `read` is null: checked again), and the sheet the user chose, kept even when the rest is stale.
 */
async function storedReadList(
  storage: FileStorage,
  listKey: string,
  list: Buffer,
  zip: Buffer | null,
  sessionYear: number,
): Promise<{ read: ReadList | null; sheet: string | null }> {
  const bytes = await storage.get(readListKey(listKey));
  if (!bytes) return { read: null, sheet: null };
  try {
    const stored = JSON.parse(bytes.toString('utf8')) as StoredReadList;
    const sheet = typeof stored.sheet === 'string' ? stored.sheet : null;
    const same = stored.version === READ_LIST_VERSION && stored.sessionYear === sessionYear && stored.list === sha256(list) && stored.photos === (zip ? sha256(zip) : null);
    return { read: same ? stored.read : null, sheet };
  } catch {
    return { read: null, sheet: null };
  }
}

/**
 * Checks the stored list (and zip) again as it stands now; `withZip` runs while the zip is open.
 * The half of the check that depends on the files alone (values, photos: `readRows`) is read back
 * from what the upload's check stored beside the list, when the list's and the zip's SHA-256 and
 * the session's year are those it was made from (ADR 0111); the half that depends on the database
 * (reference data, scope, duplicates: `checkRows`) always runs again.
 */
export async function recheckStoredList(
  db: Db,
  storage: FileStorage,
  batch: typeof generations.$inferSelect,
  scope: Scope,
  fileKey: string,
  photosKey: string | null,
  withZip?: (zip: ZipArchive | null, candidates: CheckedCandidate[]) => Promise<void>,
): Promise<CheckOutcome> {
  const list = await storage.get(fileKey);
  if (!list) throw new ImportRefused('field.import_file_missing');
  const zipBytes = photosKey ? await storage.get(photosKey) : null;
  if (photosKey && !zipBytes) throw new ImportRefused('field.import_file_missing');
  const [session] = await db.select().from(examSessions).where(eq(examSessions.id, batch.sessionId));
  let zip: ZipArchive | null = null;
  try {
    const stored = await storedReadList(storage, fileKey, list, zipBytes, session!.year);
    let read = stored.read;
    if (!read) {
      let table: Table;
      try {
        table = await readTable(list, HEADER_HINTS, { sheet: stored.sheet });
      } catch (error) {
        if (error instanceof UnreadableTable) throw new ImportRefused(`field.import_${error.reason}`);
        throw error;
      }
      zip = zipBytes ? await openZip(zipBytes) : null;
      read = await readRows(table, { sessionYear: session!.year, zip });
    }
    const outcome = await checkRows(db, read, { sessionId: batch.sessionId, provinceId: batch.educProvinceId, scope });
    if (withZip && !outcome.problems.length) {
      zip ??= zipBytes ? await openZip(zipBytes) : null;
      await withZip(zip, outcome.candidates);
    }
    return outcome;
  } finally {
    zip?.close();
  }
}
