import yauzl from 'yauzl';

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

export async function openZip(buffer: Buffer): Promise<ZipArchive> {
  const zip = await open(buffer);
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
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => resolve(Buffer.concat(chunks)));
          stream.on('error', reject);
        });
      }),
    close: () => zip.close(),
  };
}
