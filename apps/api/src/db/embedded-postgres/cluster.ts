/** The cluster on disk: its first initialisation, and (as root) the user, ownership and mode the server needs. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ClusterSettings } from './load-package.ts';
import { makeServerLogger } from './server-output.ts';
import { EmbeddedPostgresError, type EmbeddedPostgresLogger } from './types.ts';

const execFileAsync = promisify(execFile);

export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

export interface PgIds {
  uid: number;
  gid: number;
}

async function idOf(name: string): Promise<PgIds | null> {
  try {
    const [u, g] = await Promise.all([execFileAsync('id', ['-u', name]), execFileAsync('id', ['-g', name])]);
    return { uid: Number.parseInt(u.stdout, 10), gid: Number.parseInt(g.stdout, 10) };
  } catch {
    return null;
  }
}

/** As root, the server runs as `postgres` (what the package's createPostgresUser expects). */
export async function ensurePostgresUser(log: EmbeddedPostgresLogger): Promise<PgIds> {
  const existing = await idOf('postgres');
  if (existing) return existing;
  log.info('creating the unprivileged system user "postgres" to run the embedded PostgreSQL server');
  await execFileAsync('groupadd', ['postgres']).catch(() => {});
  await execFileAsync('useradd', ['-g', 'postgres', 'postgres']).catch(() => {});
  const created = await idOf('postgres');
  if (!created) {
    throw new EmbeddedPostgresError('NOT_ACCESSIBLE', 'running as root: PostgreSQL refuses root and the system user "postgres" could not be created (groupadd/useradd)');
  }
  return created;
}

/** Every directory above `dir` must be searchable by the server's user, or it cannot reach its data. */
export async function assertTraversable(dir: string, ids: PgIds): Promise<void> {
  let current = path.dirname(dir);
  for (;;) {
    const st = await fs.stat(current);
    const bit = st.uid === ids.uid ? 0o100 : st.gid === ids.gid ? 0o010 : 0o001;
    if ((st.mode & bit) === 0) {
      throw new EmbeddedPostgresError(
        'NOT_ACCESSIBLE',
        `the embedded PostgreSQL server runs as the unprivileged user "postgres" (PostgreSQL refuses root), ` +
          `which cannot enter ${current} (mode ${(st.mode & 0o777).toString(8)}); ` +
          `allow it (chmod o+x ${current}) or set DATA_DIR to a directory it can reach`,
      );
    }
    const parent = path.dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

/** chown -R to the server's user where needed (a cluster copied or created by root, or by another user). */
export async function fixOwnership(dir: string, ids: PgIds, log: EmbeddedPostgresLogger): Promise<void> {
  let fixed = 0;
  const visit = async (p: string): Promise<void> => {
    const st = await fs.lstat(p);
    if (st.uid !== ids.uid || st.gid !== ids.gid) {
      await fs.lchown(p, ids.uid, ids.gid);
      fixed++;
    }
    if (st.isDirectory()) {
      const entries = await fs.readdir(p);
      await Promise.all(entries.map((e) => visit(path.join(p, e))));
    }
  };
  await visit(dir);
  if (fixed > 0) log.warn({ dataDir: dir, files: fixed }, 'gave the embedded PostgreSQL files back to the "postgres" user');
}

/** PostgreSQL requires the data directory to be 0700 or 0750. */
export async function fixMode(dir: string): Promise<void> {
  const st = await fs.stat(dir);
  const mine = isRoot || (typeof process.getuid === 'function' && st.uid === process.getuid());
  if (mine && (st.mode & 0o027) !== 0) await fs.chmod(dir, 0o700);
}

export async function isEmptyOrMissing(dir: string): Promise<boolean> {
  try {
    return (await fs.readdir(dir)).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
}

/**
 * First start: initdb (UTF8, builtin C.UTF-8 locale provider) in a sibling temporary directory,
 * renamed into place, so an initialisation killed half-way never leaves a half-made cluster at
 * `dataDir`. Clears what such a killed initialisation left (only ever made under our lock).
 * Returns whether it initialised.
 */
export async function initialiseCluster(s: ClusterSettings): Promise<boolean> {
  const { dataDir, port, user, password, log } = s;
  const parent = path.dirname(dataDir);
  const tmpPrefix = `.${path.basename(dataDir)}.initdb-`;
  for (const entry of await fs.readdir(parent)) {
    if (entry.startsWith(tmpPrefix)) await fs.rm(path.join(parent, entry), { recursive: true, force: true });
  }
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return false;
  if (!(await isEmptyOrMissing(dataDir))) {
    throw new EmbeddedPostgresError(
      'NOT_A_CLUSTER',
      `${dataDir} exists but is not a PostgreSQL data directory (no PG_VERSION); refusing to touch it. ` + `Move it away, or set DATA_DIR elsewhere`,
    );
  }
  const tmp = path.join(parent, `${tmpPrefix}${process.pid}`);
  log.info({ dataDir }, 'initialising the embedded PostgreSQL cluster');
  const initLog: string[] = [];
  const init = new s.EmbeddedPostgres({
    databaseDir: tmp,
    port,
    user,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8', '--locale=C', '--no-instructions'],
    onLog: makeServerLogger(log, initLog),
    onError: (e) => log.error({ err: e }, 'embedded PostgreSQL initialisation'),
  });
  try {
    await init.initialise();
    await fs.rename(tmp, dataDir); // atomic: dataDir is missing or an empty directory
  } catch (err) {
    await fs.rm(tmp, { recursive: true, force: true });
    throw new EmbeddedPostgresError('INIT_FAILED', `could not initialise ${dataDir}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  return true;
}
