import { envelope } from '@sceau/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import net from 'node:net';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../lib/errors.ts';

const outboxMessage = z.object({
  id: z.string(),
  channel: z.enum(['email', 'sms']),
  to: z.string(),
  subject: z.string().nullable(),
  text: z.string(),
  html: z.string().nullable(),
  created_at: z.string(),
  /** An e-mail's attachments, kept as files in the outbox folder. */
  attachments: z.array(z.object({ filename: z.string(), content_type: z.string(), size: z.number().int(), file: z.string() })).optional(),
});

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
  app.get(
    '/dev/outbox',
    {
      config: { access: 'public' },
      // Before validation: a caller from elsewhere learns nothing, not even what the route accepts.
      onRequest: async (request) => {
        if (!fromThisMachine(request)) throw new AppError('not_found');
      },
      schema: {
        tags: ['development'],
        summary: 'Messages written to the development outbox, newest first',
        querystring: z.object({ to: z.string().trim().optional(), limit: z.coerce.number().int().min(1).max(200).default(50) }),
        response: { 200: envelope(z.array(outboxMessage)) },
      },
    },
    async (request) => ({
      data: await messenger.outbox.list({ to: request.query.to?.toLowerCase().includes('@') ? request.query.to.toLowerCase() : request.query.to, limit: request.query.limit }),
    }),
  );
};
