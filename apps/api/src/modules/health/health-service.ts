import { sql } from 'drizzle-orm';
import type { ReadinessResponse } from '@sceau/contracts';
import type { AppContext } from '../../app-context.ts';
import type { Db } from '../../db/client.ts';
import { APP_VERSION } from '../../lib/version.ts';

/** How long one dependency may take to answer a readiness check before it counts as failing. */
export const READINESS_TIMEOUT_MS = 2_000;

/** Resolves 'ok' if `probe` succeeds within the time limit, 'failing' otherwise (never throws). */
async function check(probe: () => Promise<unknown>, timeoutMs: number): Promise<'ok' | 'failing'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'failing'>((resolve) => {
    timer = setTimeout(() => resolve('failing'), timeoutMs);
  });
  try {
    return await Promise.race([
      probe().then(
        () => 'ok' as const,
        () => 'failing' as const,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The database, the chain and the job queue, each checked at once within the time limit. The chain
 * also counts as failing when this process's revocation index is behind by more than its bound
 * (ADR 0137). Only the database and the queue make the process not ready: without the chain it
 * still answers, `degraded`, and its verifications say "could not check".
 */
export async function readiness(db: Db, services: Pick<AppContext['services'], 'identity' | 'queue' | 'verification'>): Promise<ReadinessResponse> {
  const timeoutMs = READINESS_TIMEOUT_MS;
  const chain = services.identity?.chain;
  const queue = services.queue;
  let head: number | null = null;
  const [database, probe, jobs] = await Promise.all([
    check(() => db.execute(sql`select 1`), timeoutMs),
    chain
      ? check(async () => {
          head = Number(await chain.connection.publicClient.getBlockNumber({ cacheTime: 0 }));
        }, timeoutMs)
      : ('failing' as const),
    queue ? check(() => queue.check(), timeoutMs) : ('failing' as const),
  ]);
  const view = services.verification?.chainView() ?? null;
  const chainCheck = probe === 'ok' && !view?.stale ? 'ok' : 'failing';
  const checks = { database, chain: chainCheck, jobs } as const;
  const status = database !== 'ok' || jobs !== 'ok' ? 'not_ready' : chainCheck !== 'ok' ? 'degraded' : 'ready';
  return {
    status,
    checks,
    chain: {
      reachable: probe === 'ok',
      last_block: probe === 'ok' ? head : (view?.lastBlock ?? null),
      indexed_block: view?.indexedBlock ?? null,
      index_lag_seconds: view?.indexLagSeconds ?? null,
      max_staleness_seconds: view?.maxStalenessSeconds ?? null,
    },
    version: APP_VERSION,
  };
}
