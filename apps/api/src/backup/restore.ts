/**
 * `npm run restore`: a backup archive back into a DATA_DIR (and DATABASE_URL or the S3 bucket when
 * the target's configuration names them), ADR 0121. In this order, so that a bad archive or a busy
 * or non-empty target is refused before anything is written:
 *  1. the target: not in use by a running platform (its lock files), and empty unless `force`;
 *  2. the archive: read whole once, every part checked against the manifest's SHA-256;
 *  3. then written: the parts extracted (and hashed again), the database restored and, for the
 *     embedded one, started once so that it replays its WAL and is known to open.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import type { Config } from '../config.ts';
import { startEmbeddedPostgres } from '../db/embedded-postgres.ts';
import { S3FileStorage } from '../lib/s3-storage.ts';
import { BackupError, PartDigest, hashStream, readArchive, splitEntryName, verifyArchive, type Manifest, type PartName } from './archive.ts';
import { completeRestoredCluster, countTables, restoreExternal } from './postgres.ts';
import { listObjects, s3Client } from './s3-objects.ts';
import { freePort, isAlive, processStartTime } from '@sceau/process';

export interface RestoreOptions {
  config: Config;
  from: string;
  force?: boolean;
  log?: (line: string) => void;
}

export interface RestoreResult {
  manifest: Manifest;
  dataDir: string;
  /** Where the replaced parts of a non-empty DATA_DIR were moved (`force`). */
  movedAside: string | null;
  diplomas: number | null;
  ms: number;
}

/** The target's own parts in DATA_DIR, moved aside by `--force`. */
const DATA_DIR_PARTS = ['postgres', 'postgres.lock', 'keys', 'chain', 'files'];

/** Is the process named by a lock file alive (same pid and start time)? */
function lockHeld(lockFile: string): number | null {
  let owner: { pid?: number; startTime?: string | null };
  try {
    owner = JSON.parse(readFileSync(lockFile, 'utf8')) as typeof owner;
  } catch {
    return null;
  }
  if (typeof owner.pid !== 'number' || owner.pid === process.pid) return null;
  if (!isAlive(owner.pid)) return null;
  if (owner.startTime && processStartTime(owner.pid) !== owner.startTime) return null; // pid reused
  return owner.pid;
}

/** What is already in the target, one line each (empty: nothing). */
async function whatIsThere(config: Config): Promise<string[]> {
  const found: string[] = [];
  const entries = await fs.readdir(config.dataDir).catch(() => [] as string[]);
  if (entries.length > 0) found.push(`DATA_DIR ${config.dataDir} is not empty (${entries.slice(0, 5).join(', ')}${entries.length > 5 ? ', …' : ''})`);
  if (config.databaseUrl) {
    const tables = await countTables(config.databaseUrl);
    if (tables > 0) found.push(`the database of DATABASE_URL has ${tables} tables`);
  }
  const s3 = config.fileStorage.s3;
  if (s3) {
    const client = await s3Client(s3);
    try {
      for await (const o of listObjects(client, s3, 10)) {
        if (!o.key.startsWith('.sceau-check/')) {
          found.push(`the bucket ${s3.bucket}${s3.prefix ? ` (prefix ${s3.prefix})` : ''} holds objects`);
          break;
        }
      }
    } finally {
      client.destroy();
    }
  }
  return found;
}

export async function restoreBackup(opts: RestoreOptions): Promise<RestoreResult> {
  const { config } = opts;
  const log = opts.log ?? (() => {});
  const t0 = performance.now();
  const from = path.resolve(opts.from);
  const dataDir = config.dataDir;
  if (!(await fs.stat(from).catch(() => null))?.isFile()) throw new BackupError(`no archive at ${from}`);

  // 1. The target.
  for (const lock of [path.join(dataDir, 'postgres.lock'), path.join(dataDir, 'chain', 'anvil.lock')]) {
    const pid = lockHeld(lock);
    if (pid !== null) throw new BackupError(`${dataDir} is in use by process ${pid} (${lock}): stop the platform before restoring into it`);
  }
  const there = await whatIsThere(config);
  if (there.length > 0 && !opts.force) {
    throw new BackupError(`refusing to restore over existing data (use --force to replace it):\n  ${there.join('\n  ')}`);
  }

  // 2. The archive, whole, before anything is written.
  log(`checking ${from} …`);
  const manifest = await verifyArchive(from);
  const db = manifest.parts.find((p) => p.name === 'database');
  if (db?.kind === 'postgres-cluster' && config.databaseUrl) {
    throw new BackupError('this backup holds an embedded PostgreSQL cluster: restore it without DATABASE_URL (into DATA_DIR), then move the data with pg_dump if need be');
  }
  if (db?.kind === 'pg_dump' && !config.databaseUrl) {
    throw new BackupError('this backup holds a pg_dump of an external database: set DATABASE_URL to the (empty) database to restore it into');
  }
  log(
    `archive checked: ${manifest.parts.map((p) => `${p.name} ${p.entries} files, ${p.bytes} bytes`).join('; ')} (made ${manifest.createdAt}, version ${manifest.platformVersion})`,
  );

  // 3. Written.
  await fs.mkdir(dataDir, { recursive: true });
  let movedAside: string | null = null;
  if (there.length > 0) {
    movedAside = path.join(dataDir, `replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    await fs.mkdir(movedAside);
    for (const name of DATA_DIR_PARTS) {
      await fs.rename(path.join(dataDir, name), path.join(movedAside, name)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    }
    log(`moved the replaced data to ${movedAside}`);
  }

  const clusterTmp = path.join(dataDir, '.postgres.restoring');
  const dumpTmp = path.join(dataDir, '.database.restoring.dump');
  await fs.rm(clusterTmp, { recursive: true, force: true });
  const s3 = config.fileStorage.s3 ? new S3FileStorage(config.fileStorage.s3) : null;
  const where = (part: PartName, rel: string): string => {
    switch (part) {
      case 'database':
        return rel === 'database.dump' ? dumpTmp : path.join(clusterTmp, rel.replace(/^cluster\//, ''));
      case 'keys':
        return path.join(config.keys.dir, rel);
      case 'chain':
        return path.join(dataDir, 'chain', rel);
      case 'files':
        return path.join(config.filesDir, rel);
    }
  };
  const digests = new Map<PartName, PartDigest>();
  try {
    await readArchive(from, async (entry) => {
      if (entry.name === 'manifest.json') return;
      const [part, rel] = splitEntryName(entry.name)!;
      let d = digests.get(part);
      if (!d) digests.set(part, (d = new PartDigest()));
      const target = where(part, rel);
      if (entry.type === 'directory') {
        await fs.mkdir(target, { recursive: true, mode: 0o700 });
        return;
      }
      if (part === 'files' && s3) {
        const chunks: Buffer[] = [];
        const { sha256, size } = await hashStream(entry.stream, (c) => void chunks.push(c));
        await s3.put(rel, Buffer.concat(chunks));
        d.add(rel, size, sha256);
        return;
      }
      await fs.mkdir(path.dirname(target), { recursive: true });
      const hash = createHash('sha256');
      let size = 0;
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      await pipeline(entry.stream, hashing, createWriteStream(target, { mode: entry.mode & 0o777 }));
      const result = { size, sha256: hash.digest('hex') };
      d.add(rel, result.size, result.sha256);
    });
    // The archive was read twice: it must not have changed in between.
    for (const p of manifest.parts) {
      if ((digests.get(p.name) ?? new PartDigest()).digest() !== p.sha256) throw new BackupError(`the archive changed while it was being restored (${p.name}): restore again`);
    }
  } finally {
    await s3?.close();
  }
  log(`extracted keys, chain and files into ${dataDir}${s3 ? ` and the bucket ${config.fileStorage.s3!.bucket}` : ''}`);

  // The database.
  let diplomas: number | null = null;
  const countDiplomas = async (connectionString: string) => {
    const client = new pg.Client({ connectionString });
    client.on('error', () => {});
    await client.connect();
    try {
      return Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM diplomas')).rows[0]!.n);
    } catch {
      return null; // a database from before diplomas existed
    } finally {
      await client.end().catch(() => {});
    }
  };
  if (db?.kind === 'postgres-cluster') {
    await completeRestoredCluster(clusterTmp);
    await fs.rename(clusterTmp, path.join(dataDir, 'postgres'));
    // One start: PostgreSQL replays the backup's WAL now, and we know the cluster opens.
    const server = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), port: await freePort() });
    try {
      diplomas = await countDiplomas(server.connectionString('sceau'));
    } finally {
      await server.stop();
    }
    log(`restored the embedded PostgreSQL cluster into ${path.join(dataDir, 'postgres')} (WAL replayed; ${diplomas ?? '?'} diplomas)`);
  } else if (db?.kind === 'pg_dump') {
    await restoreExternal(config.databaseUrl!, dumpTmp, Boolean(opts.force));
    await fs.rm(dumpTmp, { force: true });
    diplomas = await countDiplomas(config.databaseUrl!);
    log(`restored the database dump into DATABASE_URL (${diplomas ?? '?'} diplomas)`);
  }
  return { manifest, dataDir, movedAside, diplomas, ms: Math.round(performance.now() - t0) };
}
