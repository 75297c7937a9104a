import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { httpDuration, httpRequests } from './metrics.ts';

/**
 * Counts and times every answered request by its route's pattern (`/api/verify/:id`): the raw URL
 * would make one series per diploma id. Requests that match no route share `unmatched` (the web
 * app's pages and unknown paths); methods are Fastify's fixed list, so the label set stays bounded.
 */
export const httpMetricsPlugin: FastifyPluginAsync = fp(async (app) => {
  app.addHook('onResponse', async (request, reply) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
});
