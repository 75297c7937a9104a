import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where files live (photos, PDFs, signature images, uploaded lists). A local folder by default; an
 * S3-compatible bucket at scale (`FILE_STORAGE=s3`, ADR 0108). Both keep the same contract
 * (`storage-contract.test.ts`): a file is written whole or not at all, reading a missing file answers
 * null, deleting a missing file is no error, and an unsafe key is refused before anything is done.
 */
export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  /** The file's bytes, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
  /**
   * Deletes many files (a photo sweep, a cancelled batch): a missing one is no error, and a file
   * that could not be deleted is answered with its error rather than thrown, so that the caller can
   * log it and keep its key. With S3, one DeleteObjects request per 1,000 keys (ADR 0108).
   */
  deleteMany(keys: readonly string[]): Promise<FailedDeletion[]>;
  /**
   * Every file under a folder (`prefix`, a key ending in `/`), in ascending order of key (byte
   * order, as S3 lists), each with when it was last written; from just after `startAfter` when
   * given, so that a sweep can go on where its previous run stopped. Files whose name is no valid
   * key are left out (nothing could read or delete them by key), as are the local folder's `*.tmp`
   * files (writes in progress). Optional: the orphan photo sweep uses it (ADR 0112).
   */
  list?(prefix: string, options?: { startAfter?: string }): AsyncIterable<ListedFile>;
  /** Fails with a clear message when the store cannot be written (checked once at start). */
  check?(): Promise<void>;
}

/** A file `deleteMany` could not delete, and why. */
export interface FailedDeletion {
  key: string;
  error: Error;
}

/** A file as `list` gives it. */
export interface ListedFile {
  key: string;
  modifiedAt: Date;
}

/** Files deleted at the same time by the local folder's `deleteMany`. */
const LOCAL_DELETES_AT_ONCE = 16;

/** `deleteMany` by one `delete` per key, a few at a time: for stores with no batch delete (a local folder). */
export async function deleteEach(remove: (key: string) => Promise<void>, keys: readonly string[]): Promise<FailedDeletion[]> {
  const failed: FailedDeletion[] = [];
  const unique = [...new Set(keys)];
  // An unsafe key refuses the whole call before any file is deleted, as every operation does.
  for (const key of unique) assertStorageKey(key);
  for (let i = 0; i < unique.length; i += LOCAL_DELETES_AT_ONCE) {
    await Promise.all(
      unique.slice(i, i + LOCAL_DELETES_AT_ONCE).map((key) =>
        remove(key).catch((error: unknown) => {
          failed.push({ key, error: error instanceof Error ? error : new Error(String(error)) });
        }),
      ),
    );
  }
  return failed;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]*$/i;

/** Keys are relative paths of letters, digits, `/`, `_`, `.` and `-`, never climbing out (`..`). */
export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new Error(`unsafe storage key: ${key}`);
}

/** Whether `assertStorageKey` accepts the key. */
export function isStorageKey(key: string): boolean {
  return SAFE_KEY.test(key) && !key.includes('..');
}

/** A folder to list: a valid key ending in `/`; and where to start after, itself a valid key. */
export function assertListing(prefix: string, startAfter: string | undefined): void {
  if (!prefix.endsWith('/')) throw new Error(`storage listing: the prefix must be a folder ending in "/": ${prefix}`);
  assertStorageKey(prefix);
  if (startAfter !== undefined) assertStorageKey(startAfter);
}

export class LocalFileStorage implements FileStorage {
  constructor(private readonly root: string) {}

  private resolve(key: string): string {
    assertStorageKey(key);
    return path.join(this.root, key);
  }

  /** Written whole or not at all: a temporary file renamed into place. */
  async put(key: string, data: Buffer): Promise<void> {
    const file = this.resolve(key);
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(tmp, data);
    await rename(tmp, file);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.resolve(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.resolve(key), { force: true });
  }

  deleteMany(keys: readonly string[]): Promise<FailedDeletion[]> {
    return deleteEach((key) => this.delete(key), keys);
  }

  async *list(prefix: string, options: { startAfter?: string } = {}): AsyncGenerator<ListedFile> {
    assertListing(prefix, options.startAfter);
    yield* this.walk(prefix, options.startAfter);
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }

  /**
   * A folder's files in key order, one folder read at a time: its entries sorted with each
   * subfolder named as its keys begin (`name/`), so that `a-b.jpg` comes before `a/x.jpg` as in S3.
   * A subfolder entirely at or before `startAfter` is not read.
   */
  private async *walk(folder: string, startAfter: string | undefined): AsyncGenerator<ListedFile> {
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(this.root, folder), { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw error;
    }
    const named = entries
      .flatMap((e) => {
        if (e.isDirectory()) return [{ key: `${folder}${e.name}/`, folder: true }];
        if (e.isFile() && !e.name.endsWith('.tmp')) return [{ key: `${folder}${e.name}`, folder: false }];
        return [];
      })
      .filter((e) => isStorageKey(e.key))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const entry of named) {
      if (entry.folder) {
        // Every key of the subfolder sorts after `startAfter`, or some may: read it; else skip it whole.
        if (startAfter === undefined || startAfter < entry.key || startAfter.startsWith(entry.key)) yield* this.walk(entry.key, startAfter);
      } else if (startAfter === undefined || entry.key > startAfter) {
        // Gone since the folder was read (deleted meanwhile): not listed.
        const info = await stat(path.join(this.root, entry.key)).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return null;
          throw error;
        });
        if (info) yield { key: entry.key, modifiedAt: info.mtime };
      }
    }
  }
}
