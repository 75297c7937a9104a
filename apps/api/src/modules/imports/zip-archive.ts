import yauzl from 'yauzl';
import { PHOTOS_ZIP_LIMITS, ZipLimitExceeded, type ZipLimits } from './zip-limits.ts';

export interface ZipEntryInfo {
  fileName: string;
  uncompressedSize: number;
}

/** A zip held in memory: its files by name, each read (inflated) on demand. */
export interface ZipArchive {
  /** Files (not folders), keyed by their base name in lower case (`Photos/2026…01.JPG` → `2026…01.jpg`). */
  files: Map<string, yauzl.Entry>;
  read(entry: yauzl.Entry): Promise<Buffer>;
  close(): void;
}

function open(buffer: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true }, (error, zip) => (error ? reject(error) : resolve(zip))),
  );
}

function entriesOf(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}

export async function listZipEntries(buffer: Buffer): Promise<ZipEntryInfo[]> {
  const zip = await open(buffer);
  try {
    return (await entriesOf(zip)).map((e) => ({ fileName: e.fileName, uncompressedSize: e.uncompressedSize }));
  } finally {
    zip.close();
  }
}

export function baseName(path: string): string {
  return (path.split(/[\\/]/).pop() ?? '').trim().toLowerCase();
}

/**
 * The zip's directory, each file read on demand. The upload checked what the whole zip inflates to
 * (zip-limits.ts); here, for stored zips too, the entry count is capped before the directory is
 * read, and each read stops past `maxEntryBytes` really inflated (yauzl also refuses an entry that
 * inflates to more than its header says).
 */
export async function openZip(buffer: Buffer, limits: ZipLimits = PHOTOS_ZIP_LIMITS): Promise<ZipArchive> {
  const zip = await open(buffer);
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new ZipLimitExceeded('entries', limits.maxEntries);
  }
  const files = new Map<string, yauzl.Entry>();
  for (const entry of await entriesOf(zip)) {
    if (entry.fileName.endsWith('/')) continue;
    const name = baseName(entry.fileName);
    // Folders macOS adds (`__MACOSX/._photo.jpg`) hold no photo.
    if (!name || name.startsWith('._') || entry.fileName.startsWith('__MACOSX/')) continue;
    if (!files.has(name)) files.set(name, entry);
  }
  return {
    files,
    read: (entry) =>
      new Promise((resolve, reject) => {
        zip.openReadStream(entry, (error, stream) => {
          if (error) return reject(error);
          const chunks: Buffer[] = [];
          let size = 0;
          stream.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > limits.maxEntryBytes) {
              stream.destroy();
              return reject(new ZipLimitExceeded('entry_bytes', limits.maxEntryBytes));
            }
            chunks.push(chunk);
          });
          stream.on('end', () => resolve(Buffer.concat(chunks)));
          stream.on('error', reject);
        });
      }),
    close: () => zip.close(),
  };
}
