import { healthResponse } from '@sceau/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app.ts';
import { APP_VERSION } from '../../lib/version.ts';

export const healthRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db }) => {
  app.get(
    '/health',
    { config: { access: 'public' }, schema: { tags: ['health'], summary: 'Liveness and database reachability', response: { 200: healthResponse } } },
    async () => {
      await db.execute(sql`select 1`);
      return { status: 'ok' as const, database: 'ok' as const, version: APP_VERSION };
    },
  );
};
