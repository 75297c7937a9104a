import { endpoints } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { actorOf } from '../../policies/actor.ts';
import { scopeStats } from './stats-service.ts';

/** `GET /generations/stats?session=`: the dashboard's charts, over the user's scope. */
export const statsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db }) => {
  serve(app, endpoints.generations.stats, async (request) => ({ data: await scopeStats(db, actorOf(request), request.query.session) }));
};
