import yauzl from 'yauzl';

/**
 * Caps on what a zip (an XLSX list, a photos zip) inflates to, counted on the bytes really
 * inflated, never on the sizes its headers declare: a few megabytes of zip can state 1 KB and
 * inflate to gigabytes (ADR 0114).
 */
export interface ZipLimits {
  /** Entries in the central directory (each one is an object in memory before anything is read). */
  maxEntries: number;
  /** Bytes one entry may inflate to. */
  maxEntryBytes: number;
  /** Bytes all entries together may inflate to. */
  maxTotalBytes: number;
}

const MB = 1024 * 1024;

/**
 * A list of 20,000 rows (IMPORT_LIMITS.maxRows) is a sheet of ~15 MB and shared strings of ~10 MB
 * once inflated; an XLSX has a dozen parts. exceljs then holds every cell in memory, so the caps
 * stay a few times above a full list rather than at what 20 MB of zip could inflate to.
 */
export const XLSX_ZIP_LIMITS: ZipLimits = { maxEntries: 1_000, maxEntryBytes: 64 * MB, maxTotalBytes: 100 * MB };

/**
 * Photos are JPEG or PNG, which deflate hardly shrinks: a 200 MB zip (IMPORT_LIMITS.photosMaxBytes)
 * of them inflates to little more. 20,000 rows with a photo each, twice that for the `__MACOSX/`
 * copies macOS adds, and folders; one photo is refused past 10 MB anyway (a row problem).
 */
export const PHOTOS_ZIP_LIMITS: ZipLimits = { maxEntries: 50_000, maxEntryBytes: 32 * MB, maxTotalBytes: 1024 * MB };

export type ZipLimit = 'entries' | 'entry_bytes' | 'total_bytes';

/** A cap was passed; inflating stopped there. */
export class ZipLimitExceeded extends Error {
  constructor(
    readonly limit: ZipLimit,
    readonly max: number,
  ) {
    super(`zip over its limit of ${limit}: ${max}`);
    this.name = 'ZipLimitExceeded';
  }
}

/** Not a zip yauzl can open (its directory is damaged, or it is no zip at all). */
export class ZipUnreadable extends Error {
  constructor(cause: unknown) {
    super(`unreadable zip: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'ZipUnreadable';
  }
}

// The buffers already checked against given caps: the upload checks a file, then the readers see the
// same bytes again (a second pass would inflate everything twice).
const checked = new WeakMap<Buffer, ZipLimits>();

/**
 * Inflates every entry once, streaming (nothing kept), and counts what comes out: throws
 * ZipLimitExceeded the moment a cap is passed. The entry count is the directory's own (yauzl reads
 * no more entries than it states). An entry that cannot be inflated (encrypted, an unknown method,
 * damaged data) counts what it gave before failing: no reader will get more out of it.
 */
export async function checkZipLimits(buffer: Buffer, limits: ZipLimits): Promise<{ entries: number; inflatedBytes: number } | 'checked before'> {
  if (checked.get(buffer) === limits) return 'checked before';
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.fromBuffer(buffer, { lazyEntries: true, decodeStrings: true, validateEntrySizes: false }, (error, opened) => (error ? reject(error) : resolve(opened))),
    );
  } catch (error) {
    throw new ZipUnreadable(error);
  }
  try {
    if (zip.entryCount > limits.maxEntries) throw new ZipLimitExceeded('entries', limits.maxEntries);
    let total = 0;
    for (;;) {
      const entry = await nextEntry(zip);
      if (!entry) break;
      if (entry.isEncrypted() || (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)) continue;
      total = await inflateCounting(zip, entry, total, limits);
    }
    checked.set(buffer, limits);
    return { entries: zip.entryCount, inflatedBytes: total };
  } finally {
    zip.close();
  }
}

function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: yauzl.Entry) => (cleanup(), resolve(entry));
    const onEnd = () => (cleanup(), resolve(null));
    const onError = (error: Error) => (cleanup(), reject(new ZipUnreadable(error)));
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

/** Inflates one entry through yauzl's streaming inflater (node:zlib), stopping at the caps; returns the new total. */
function inflateCounting(zip: yauzl.ZipFile, entry: yauzl.Entry, totalBefore: number, limits: ZipLimits): Promise<number> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) return resolve(totalBefore);
      let entryBytes = 0;
      let total = totalBefore;
      let settled = false;
      const stop = (outcome: ZipLimitExceeded | null) => {
        if (settled) return;
        settled = true;
        if (outcome) {
          stream.destroy();
          reject(outcome);
        } else resolve(total);
      };
      stream.on('data', (chunk: Buffer) => {
        entryBytes += chunk.length;
        total += chunk.length;
        if (entryBytes > limits.maxEntryBytes) stop(new ZipLimitExceeded('entry_bytes', limits.maxEntryBytes));
        else if (total > limits.maxTotalBytes) stop(new ZipLimitExceeded('total_bytes', limits.maxTotalBytes));
      });
      stream.on('end', () => stop(null));
      stream.on('error', () => stop(null));
    });
  });
}
