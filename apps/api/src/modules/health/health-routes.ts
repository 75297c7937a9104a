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
 * never gets the process killed by its supervisor. `/health/ready` is readiness: the database,
 * the chain and the job queue each answer, else 503 (take this process out of rotation).
 */
export const healthRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, services }) => {
  serve(app, endpoints.health.live, async () => ({ status: 'ok' as const, version: APP_VERSION }));

  serve(app, endpoints.health.ready, async (_request, reply) => {
    const body = await readiness(db, services);
    if (body.status !== 'ready') reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS));
    return body;
  });
};
