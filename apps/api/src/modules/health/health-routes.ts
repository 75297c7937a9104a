import { endpoints } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { APP_VERSION } from '../../lib/version.ts';
import { readiness } from './health-service.ts';

/** What a 503 of readiness asks a load balancer or client to wait before asking again. */
const RETRY_AFTER_SECONDS = 5;

/**
 * `/health` is liveness: the process answers, nothing else is touched, so a restarting database
 * never gets the process killed by its supervisor. `/health/ready` is readiness: the database and
 * the job queue each answer, else 503 (take this process out of rotation); a chain unreachable, or
 * a revocation index behind its bound, is 200 `degraded` with the chain's state (ADR 0137).
 */
export const healthRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, services }) => {
  serve(app, endpoints.health.live, async () => ({ status: 'ok' as const, version: APP_VERSION }));

  serve(app, endpoints.health.ready, async (_request, reply) => {
    const body = await readiness(db, services);
    if (body.status === 'not_ready') reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS));
    return body;
  });
};
