/**
 * The backup archive (ADR 0121): one tar file (gzip'ed when its name ends in .gz or .tgz) whose
 * entries are `<part>/<path>` for the parts database, keys, chain and files, and `manifest.json`
 * last. The manifest gives, per part, its entry count, its bytes and a SHA-256 over its checksum
 * list (one `sha256  size  path` line per entry, in archive order, as `sha256sum` would print
 * them): one byte changed anywhere, an entry lost or added, and the part no longer matches.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';

export const BACKUP_FORMAT = 'sceau-backup/1';
export const PART_NAMES = ['database', 'keys', 'chain', 'files'] as const;
export type PartName = (typeof PART_NAMES)[number];

export interface PartManifest {
  name: PartName;
  /** What the part holds, e.g. `postgres-cluster`, `pg_dump`, `folder`, `s3`, `anvil`. */
  kind: string;
  entries: number;
  bytes: number;
  sha256: string;
  /** Anything a restore or an operator must know (where it came from, what was left out). */
  details?: Record<string, unknown>;
}

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  platformVersion: string;
  createdAt: string;
  finishedAt: string;
  source: { database: 'embedded' | 'external'; files: 'local' | 's3'; chain: 'local' | 'external' };
  parts: PartManifest[];
}

/** A damaged, truncated or foreign archive; nothing has been written when it is thrown by `verifyArchive`. */
export class BackupError extends Error {
  override name = 'BackupError';
}

const CHUNK = 1024 * 1024;

/** The running digest of one part. */
export class PartDigest {
  entries = 0;
  bytes = 0;
  private readonly list = createHash('sha256');

  add(relative: string, size: number, sha256: string): void {
    this.entries += 1;
    this.bytes += size;
    this.list.update(`${sha256}  ${size}  ${relative}\n`);
  }

  digest(): string {
    return this.list.copy().digest('hex');
  }
}

/** `<part>/<rest>` → [part, rest], refusing anything that could escape the target folder. */
export function splitEntryName(name: string): [PartName, string] | null {
  const slash = name.indexOf('/');
  if (slash < 0) return null;
  const part = name.slice(0, slash) as PartName;
  const rest = name.slice(slash + 1).replace(/\/$/, '');
  if (!PART_NAMES.includes(part)) return null;
  if (rest === '' || rest.startsWith('/') || rest.split('/').some((s) => s === '..' || s === '.' || s === '') || rest.includes('\0')) {
    throw new BackupError(`the archive holds an unsafe path: ${JSON.stringify(name)}`);
  }
  return [part, rest];
}

const isGzipName = (file: string) => /\.(gz|tgz)$/i.test(file);

export class ArchiveWriter {
  readonly digests = new Map<PartName, PartDigest>();
  private readonly pack = tar.pack();
  private readonly done: Promise<void>;

  private constructor(
    readonly file: string,
    private readonly partial: string,
  ) {
    const out = createWriteStream(partial, { mode: 0o600 });
    this.done = isGzipName(file) ? pipeline(this.pack, createGzip({ level: 6 }), out) : pipeline(this.pack, out);
    this.done.catch(() => {}); // awaited in finish(); an early failure also surfaces through the entry writes
  }

  /** Writes to `<file>.partial` and renames at the end: a backup cut short never looks complete. */
  static async create(file: string): Promise<ArchiveWriter> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    return new ArchiveWriter(file, `${file}.partial`);
  }

  private digestOf(part: PartName): PartDigest {
    let d = this.digests.get(part);
    if (!d) this.digests.set(part, (d = new PartDigest()));
    return d;
  }

  async addDirectory(part: PartName, relative: string, mode = 0o700): Promise<void> {
    this.digestOf(part);
    await new Promise<void>((resolve, reject) => this.pack.entry({ name: `${part}/${relative}/`, type: 'directory', mode }, (err) => (err ? reject(err) : resolve())));
  }

  async addBuffer(part: PartName, relative: string, data: Buffer, mode = 0o600): Promise<void> {
    await this.addChunks(part, relative, data.length, mode, [data]);
  }

  /**
   * A file of `size` bytes from `source`; a source that ends early is padded with zeros and one
   * that goes on is cut at `size` (a file of the live database cluster changing under the copy:
   * WAL replay at restore rewrites such pages, as with pg_basebackup).
   */
  async addChunks(part: PartName, relative: string, size: number, mode: number, source: AsyncIterable<Buffer> | Iterable<Buffer>, mtime?: Date): Promise<void> {
    const hash = createHash('sha256');
    let written = 0;
    let entry!: ReturnType<tar.Pack['entry']>;
    // The callback comes once the entry is fully written into the archive (or failed).
    const entryDone = new Promise<void>((ok, fail) => {
      entry = this.pack.entry({ name: `${part}/${relative}`, size, mode, ...(mtime ? { mtime } : {}) }, (err) => (err ? fail(err) : ok()));
    });
    entryDone.catch(() => {}); // awaited below
    const write = async (chunk: Buffer) => {
      hash.update(chunk);
      written += chunk.length;
      if (!entry.write(chunk)) await once(entry, 'drain');
    };
    for await (const chunk of source) {
      if (written >= size) break;
      await write(chunk.length > size - written ? chunk.subarray(0, size - written) : chunk);
    }
    while (written < size) await write(Buffer.alloc(Math.min(CHUNK, size - written)));
    entry.end(undefined);
    await entryDone;
    this.digestOf(part).add(relative, size, hash.digest('hex'));
  }

  /** A file from disk (its size read now); null when it vanished before it could be opened. */
  async addFile(part: PartName, relative: string, absolute: string, mode?: number): Promise<boolean> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(absolute, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
    try {
      const st = await handle.stat();
      await this.addChunks(part, relative, st.size, mode ?? st.mode & 0o777, readChunks(handle), st.mtime);
    } finally {
      await handle.close();
    }
    return true;
  }

  /** Adds the manifest (outside every part's digest), closes the archive and gives it its final name. */
  async finish(manifest: Manifest): Promise<{ file: string; bytes: number }> {
    const text = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    await new Promise<void>((resolve, reject) => this.pack.entry({ name: 'manifest.json', mode: 0o644 }, text, (err) => (err ? reject(err) : resolve())));
    this.pack.finalize();
    await this.done;
    await fs.rename(this.partial, this.file);
    return { file: this.file, bytes: (await fs.stat(this.file)).size };
  }

  /** Closes and removes the partial file (after a failure). */
  async abort(): Promise<void> {
    this.pack.destroy();
    await this.done.catch(() => {});
    await fs.rm(this.partial, { force: true });
  }
}

async function* readChunks(handle: fs.FileHandle): AsyncGenerator<Buffer> {
  for (;;) {
    const buffer = Buffer.allocUnsafe(CHUNK);
    const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
    if (bytesRead === 0) return;
    yield buffer.subarray(0, bytesRead);
  }
}

export interface ArchiveEntry {
  /** The raw entry name. */
  name: string;
  type: string;
  size: number;
  mode: number;
  stream: AsyncIterable<Buffer>;
}

/** Reads the archive entry by entry (`onEntry` must consume or drain each stream). */
export async function readArchive(file: string, onEntry: (entry: ArchiveEntry) => Promise<void>): Promise<void> {
  const head = Buffer.alloc(2);
  const fh = await fs.open(file, 'r');
  try {
    await fh.read(head, 0, 2, 0);
  } finally {
    await fh.close();
  }
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  const extract = tar.extract();
  const input = createReadStream(file);
  const feeding = (gzip ? pipeline(input, createGunzip(), extract) : pipeline(input, extract)).catch((err: Error) => {
    extract.destroy(err);
    throw err;
  });
  try {
    for await (const entry of extract) {
      const h = entry.header;
      await onEntry({ name: h.name, type: h.type ?? 'file', size: h.size ?? 0, mode: h.mode ?? 0o600, stream: entry as AsyncIterable<Buffer> });
      entry.resume(); // whatever the handler did not read
    }
    await feeding;
  } catch (err) {
    input.destroy();
    await feeding.catch(() => {});
    throw err;
  }
}

/** Hashes a stream, optionally writing it on; resolves to its SHA-256 and size. */
export async function hashStream(stream: AsyncIterable<Buffer>, sink?: (chunk: Buffer) => Promise<void> | void): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk);
    size += chunk.length;
    if (sink) await sink(chunk);
  }
  return { sha256: hash.digest('hex'), size };
}

/**
 * Pass one of a restore: reads the whole archive, checks every part against the manifest, and
 * returns the manifest. Writes nothing; any damage (gzip or tar errors included) is a BackupError.
 */
export async function verifyArchive(file: string): Promise<Manifest> {
  const digests = new Map<PartName, PartDigest>();
  let manifestText: string | null = null;
  try {
    await readArchive(file, async (entry) => {
      if (entry.name === 'manifest.json') {
        const chunks: Buffer[] = [];
        await hashStream(entry.stream, (c) => void chunks.push(c));
        manifestText = Buffer.concat(chunks).toString('utf8');
        return;
      }
      const split = splitEntryName(entry.name);
      if (!split) throw new BackupError(`the archive holds an unexpected entry: ${JSON.stringify(entry.name)}`);
      const [part, relative] = split;
      let d = digests.get(part);
      if (!d) digests.set(part, (d = new PartDigest()));
      if (entry.type === 'directory') return;
      if (entry.type !== 'file') throw new BackupError(`the archive holds a ${entry.type} entry where only files are expected: ${entry.name}`);
      const { sha256, size } = await hashStream(entry.stream);
      d.add(relative, size, sha256);
    });
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`the archive ${file} cannot be read (damaged or truncated): ${(err as Error).message}`, { cause: err });
  }
  if (manifestText === null) throw new BackupError(`the archive ${file} has no manifest.json (truncated, or not a Sceau backup)`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestText) as Manifest;
  } catch (err) {
    throw new BackupError(`the manifest of ${file} is not JSON`, { cause: err });
  }
  if (manifest.format !== BACKUP_FORMAT) throw new BackupError(`${file} is not a ${BACKUP_FORMAT} archive (format: ${String(manifest.format)})`);
  const problems: string[] = [];
  for (const part of manifest.parts) {
    const d = digests.get(part.name) ?? new PartDigest();
    if (d.entries !== part.entries || d.bytes !== part.bytes || d.digest() !== part.sha256) {
      problems.push(
        `${part.name}: expected ${part.entries} entries, ${part.bytes} bytes, SHA-256 ${part.sha256}; found ${d.entries} entries, ${d.bytes} bytes, SHA-256 ${d.digest()}`,
      );
    }
    digests.delete(part.name);
  }
  for (const name of digests.keys()) problems.push(`${name}: in the archive but not in its manifest`);
  if (problems.length > 0) throw new BackupError(`the archive ${file} is damaged, nothing was restored:\n  ${problems.join('\n  ')}`);
  return manifest;
}
