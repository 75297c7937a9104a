import { endpoints } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { consumeAll, pgRateLimiter } from '../../lib/rate-limits.ts';
import { ContactService } from './contact-service.ts';

/** Messages per address and hour: enough for a person, too few for a spammer. */
export const CONTACT_MESSAGES_PER_HOUR = 5;

/** `POST /contact`: the public contact form (spec sections 1 and 8: 'Form submitted successfully!'). */
export const contactRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, config, services }) => {
  const service = new ContactService(db, services.messenger, config.contactEmail, app.log);
  const limiter = pgRateLimiter(db.$client, { keyPrefix: 'contact', points: CONTACT_MESSAGES_PER_HOUR, durationSeconds: 3600 });

  serve(app, endpoints.contact.send, async (request, reply) => {
    await consumeAll([[limiter, request.ip]]);
    await service.receive(request.body, { locale: request.locale, ip: request.ip, userAgent: request.headers['user-agent'] ?? null });
    return reply.code(201).send({ data: { received: true as const, message: request.t('web:contactPage.success') } });
  });
};
