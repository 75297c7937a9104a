import { envelope } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app.ts';

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

/**
 * The development outbox: what the platform would have sent by e-mail and SMS. Registered only
 * outside production and while a channel writes to the outbox.
 */
export const outboxRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { config, services }) => {
  const { messenger } = services;
  if (config.env === 'production' || (!messenger.usesOutbox.email && !messenger.usesOutbox.sms)) return;
  app.get(
    '/dev/outbox',
    {
      config: { access: 'public' },
      schema: {
        tags: ['development'],
        summary: 'Messages written to the development outbox, newest first',
        querystring: z.object({ to: z.string().trim().optional(), limit: z.coerce.number().int().min(1).max(200).default(50) }),
        response: { 200: envelope(z.array(outboxMessage)) },
      },
    },
    async (request) => ({ data: await messenger.outbox.list({ to: request.query.to?.toLowerCase().includes('@') ? request.query.to.toLowerCase() : request.query.to, limit: request.query.limit }) }),
  );
};
