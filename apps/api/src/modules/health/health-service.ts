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

/** The database, the chain and the job queue, each checked at once within the time limit. */
export async function readiness(db: Db, services: Pick<AppContext['services'], 'identity' | 'queue'>): Promise<ReadinessResponse> {
  const timeoutMs = READINESS_TIMEOUT_MS;
  const chain = services.identity?.chain;
  const queue = services.queue;
  const [database, chainCheck, jobs] = await Promise.all([
    check(() => db.execute(sql`select 1`), timeoutMs),
    chain ? check(() => chain.connection.publicClient.getBlockNumber({ cacheTime: 0 }), timeoutMs) : ('failing' as const),
    queue ? check(() => queue.check(), timeoutMs) : ('failing' as const),
  ]);
  const checks = { database, chain: chainCheck, jobs };
  const ready = Object.values(checks).every((c) => c === 'ok');
  return { status: ready ? 'ready' : 'not_ready', checks, version: APP_VERSION };
}
