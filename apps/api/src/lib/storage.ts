import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
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
  /** Fails with a clear message when the store cannot be written (checked once at start). */
  check?(): Promise<void>;
}

/** A file `deleteMany` could not delete, and why. */
export interface FailedDeletion {
  key: string;
  error: Error;
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
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe storage key: ${key}`);
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

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }
}
