import { endpoints } from '@sceau/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import net from 'node:net';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { AppError } from '../../lib/errors.ts';

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

function isLoopback(address: string | undefined): boolean {
  const family = net.isIP(address ?? '');
  return family !== 0 && LOOPBACK.check(address!, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Whether the request comes from this machine. The socket's address, not `request.ip`: with
 * TRUST_PROXY that is the client's own X-Forwarded-For, which anyone can forge. A reverse proxy on
 * this machine connects from loopback but names its real client in X-Forwarded-For: every address
 * there must be loopback too.
 */
export function fromThisMachine(request: FastifyRequest): boolean {
  if (!isLoopback(request.raw.socket.remoteAddress)) return false;
  const forwarded = request.headers['x-forwarded-for'];
  const hops = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''))
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  return hops.every(isLoopback);
}

/**
 * The development outbox: what the platform would have sent by e-mail and SMS. Registered only
 * outside production and while a channel writes to the outbox, and it answers only to this machine
 * (it shows every code and sign-in link, and a development server listens on 0.0.0.0): to anyone
 * else it does not exist.
 */
export const outboxRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { config, services }) => {
  const { messenger } = services;
  if (config.env === 'production' || (!messenger.usesOutbox.email && !messenger.usesOutbox.sms)) return;
  serve(
    app,
    endpoints.messaging.outbox,
    async (request) => ({
      data: await messenger.outbox.list({ to: request.query.to?.toLowerCase().includes('@') ? request.query.to.toLowerCase() : request.query.to, limit: request.query.limit }),
    }),
    {
      // Before validation: a caller from elsewhere learns nothing, not even what the route accepts.
      onRequest: async (request) => {
        if (!fromThisMachine(request)) throw new AppError('not_found');
      },
    },
  );
};
