// Several API processes behind one port (node:cluster, ADR 0106). The primary does the one-off
// start-up work (embedded PostgreSQL, migrations, seeds, keys, local chain, anchoring
// reconciliation) and runs the background jobs; each forked process serves HTTP only, connected to
// the primary's database and chain through the environment it is given.
import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { z } from 'zod';

/**
 * `API_PROCESSES` (or `WEB_CONCURRENCY`, the name many hosts set): how many HTTP processes share
 * the port. 1 (the default) is one process doing everything, as before. Read here rather than in
 * config.ts because it decides which processes exist before any configuration is used.
 */
export function apiProcessCount(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.API_PROCESSES ?? env.WEB_CONCURRENCY ?? '1';
  const parsed = z.coerce.number().int().min(1).max(64).safeParse(raw);
  if (!parsed.success) throw new Error(`Invalid configuration:\n  API_PROCESSES: a whole number from 1 to 64 (got "${raw}")`);
  return parsed.data;
}

/** Set by the primary in the environment of the HTTP processes it forks. */
export const HTTP_PROCESS_ENV = 'SCEAU_HTTP_PROCESS';

export function isHttpProcess(): boolean {
  return cluster.isWorker && process.env[HTTP_PROCESS_ENV] === '1';
}

/**
 * Forks `count` HTTP processes with `env` added to theirs and replaces one that dies (unless
 * stopping). `ready` resolves once all listen; `stop()` disconnects them (they finish their
 * requests) and resolves when all have exited. `stop()` may come at any time, while some are still
 * starting too (a Ctrl-C during the start): those are stopped the same way, and `ready` then
 * resolves rather than reporting them as processes that died.
 */
export function forkHttpProcesses(count: number, env: Record<string, string>, log: Pick<Logger, 'info' | 'warn' | 'error'>) {
  let stopping = false;
  const fork = () => {
    const worker = cluster.fork({ ...env, [HTTP_PROCESS_ENV]: '1', WORKERS: 'false' });
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      log.warn({ pid: worker.process.pid, code, signal }, 'an API process stopped: starting another');
      fork();
    });
    return new Promise<void>((resolve, reject) => {
      worker.once('listening', () => {
        log.info({ pid: worker.process.pid }, 'API process listening');
        resolve();
      });
      worker.once('exit', (code) => (stopping ? resolve() : reject(new Error(`an API process stopped while starting (exit code ${code})`))));
    });
  };
  const ready = Promise.all(Array.from({ length: count }, fork)).then(() => undefined);
  return {
    ready,
    /** Whether `stop()` was called. */
    get stopping() {
      return stopping;
    },
    async stop(): Promise<void> {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is NonNullable<typeof w> => !!w);
      await Promise.all(
        workers.map(
          (w) =>
            new Promise<void>((resolve) => {
              if (w.isDead()) return resolve();
              w.once('exit', () => resolve());
              w.disconnect();
              setTimeout(() => w.kill('SIGKILL'), 10_000).unref();
            }),
        ),
      );
    },
  };
}
