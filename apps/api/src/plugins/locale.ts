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

/** The web app's chosen language, for the pages the server writes (apps/web lib/i18n.ts, ADR 0128). */
const LOCALE_COOKIE = /(?:^|;\s*)sceau-lang=([a-z]{2})(?:;|$)/;

/** Every request knows its language (locale header, then the web app's cookie, then Accept-Language, then French). */
export const localePlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('locale', 'fr');
  app.decorateRequest('t', null as unknown as Translate);
  app.addHook('onRequest', async (request, reply) => {
    request.locale = negotiateLocale(request.headers[LOCALE_HEADER] ?? request.headers.cookie?.match(LOCALE_COOKIE)?.[1], request.headers['accept-language']);
    request.t = translator(request.locale);
    reply.header('content-language', request.locale);
  });
});
