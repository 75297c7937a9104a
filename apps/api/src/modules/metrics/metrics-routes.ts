import { endpoints, type Metrics } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { countPublished } from './metrics-service.ts';

const FRESH_MS = 60_000;

/**
 * The public counters of the home page (spec: `GET metrics` on the public host, `data.data`).
 * Counted in one query over published batches and kept for a minute: a results-day crowd on the
 * home page costs one query a minute per process.
 */
export const metricsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db }) => {
  let cached: { at: number; value: Metrics } | null = null;

  serve(app, endpoints.metrics.counters, async (_, reply) => {
    if (!cached || Date.now() - cached.at > FRESH_MS) cached = { at: Date.now(), value: await countPublished(db) };
    reply.header('cache-control', 'public, max-age=60');
    return { data: { data: cached.value } };
  });
};
