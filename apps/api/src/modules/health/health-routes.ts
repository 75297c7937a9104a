import { healthResponse, readinessResponse, type ReadinessResponse } from '@sceau/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { APP_VERSION } from '../../lib/version.ts';

/** How long one dependency may take to answer a readiness check before it counts as failing. */
export const READINESS_TIMEOUT_MS = 2_000;
/** What a 503 of readiness asks a load balancer or client to wait before asking again. */
const RETRY_AFTER_SECONDS = 5;

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
 * `/health` is liveness: the process answers, nothing else is touched, so a restarting database
 * never gets the process killed by its supervisor. `/health/ready` is readiness: the database,
 * the chain and the job queue each answer, else 503 (take this process out of rotation).
 */
export const healthRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, services }) => {
  app.get(
    '/health',
    { config: { access: 'public' }, schema: { tags: ['health'], summary: 'Liveness: the process answers (no dependency checked)', response: { 200: healthResponse } } },
    async () => ({ status: 'ok' as const, version: APP_VERSION }),
  );

  app.get(
    '/health/ready',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary: 'Readiness: database, chain and job queue each ok or failing; 503 when not ready',
        response: { 200: readinessResponse, 503: readinessResponse },
      },
    },
    async (_request, reply) => {
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
      const body: ReadinessResponse = { status: ready ? 'ready' : 'not_ready', checks, version: APP_VERSION };
      if (!ready) reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS));
      return body;
    },
  );
};
