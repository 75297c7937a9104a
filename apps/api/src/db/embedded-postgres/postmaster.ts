/** Finding and stopping a postmaster: a server a previous run left running, or one of ours. */
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { childrenOf, isAlive, processArgs, samePath, signal, waitUntil } from '@sceau/process';
import { EmbeddedPostgresError, type EmbeddedPostgresLogger } from './types.ts';

/** Fast shutdown normally takes well under a second; a big final checkpoint can take longer. */
const SIGINT_GRACE_MS = 60_000;
const SIGQUIT_GRACE_MS = 10_000;
const SIGKILL_GRACE_MS = 5_000;
/** How long orphaned backends of a dead server get to notice and exit. */
const ORPHAN_GRACE_MS = 15_000;

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

/**
 * Stops a postmaster: SIGINT (fast shutdown: rolls back open transactions, checkpoints, exits),
 * then SIGQUIT (immediate shutdown, WAL recovery at next start), then SIGKILL. Waits for the
 * postmaster's children too, so the next server does not find old backends still attached to
 * the shared memory.
 */
export async function terminatePostmaster(pid: number, log: EmbeddedPostgresLogger): Promise<void> {
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

export async function clearPreviousServer(dataDir: string, log: EmbeddedPostgresLogger): Promise<void> {
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
