import { LOCALE_HEADER, type Locale } from '@sceau/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { negotiateLocale, type Translate, translator } from '../lib/i18n.ts';

declare module 'fastify' {
  interface FastifyRequest {
    locale: Locale;
    t: Translate;
  }
}

/** Every request knows its language (locale header, then Accept-Language, then French). */
export const localePlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('locale', 'fr');
  app.decorateRequest('t', null as unknown as Translate);
  app.addHook('onRequest', async (request, reply) => {
    request.locale = negotiateLocale(request.headers[LOCALE_HEADER], request.headers['accept-language']);
    request.t = translator(request.locale);
    reply.header('content-language', request.locale);
  });
});
