import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { APP_ROUTES } from '@sceau/contracts';
import type { Config } from '../config.ts';

/** The settings the browser needs, handed over in index.html so one build serves every deployment. */
export function webRuntimeConfig(config: Config) {
  return {
    appName: 'Sceau',
    oauthClientId: config.oauth.clientId,
    oauthClientSecret: config.oauth.clientSecret,
    product: config.product,
    contactEmail: config.contactEmail,
    googleClientId: config.googleClientId,
    /** The candidate check form calls `${candidateCheckUrl}/v2/verify-candidate` with this api-token (ADR 0090). */
    candidateCheckUrl: config.candidateCheck.url ?? '/api',
    candidateCheckToken: config.candidateCheck.token,
  };
}

function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll("'", '&#39;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** Whether a path is one of the web app's routes (else the app shows its 404 page, with a 404 status). */
export function isAppRoute(pathname: string, product: string): boolean {
  return APP_ROUTES.some(({ path: pattern }) => {
    const source = pattern
      .replace(':product', product)
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return new RegExp(`^${source}/?$`).test(pathname);
  });
}

/**
 * Serves the built web app: hashed assets cached for a year, every other GET gets index.html with
 * the runtime configuration (the SPA's router decides what a path shows, including its 404 page).
 */
export const webPlugin = fp(async (app: FastifyInstance, opts: { config: Config }) => {
  const dist = opts.config.webDist;
  const hasWeb = Boolean(dist && existsSync(path.join(dist, 'index.html')));
  let indexHtml = '';
  if (hasWeb && dist) {
    const meta = `<meta name="sceau-config" content='${escapeAttribute(JSON.stringify(webRuntimeConfig(opts.config)))}'>`;
    indexHtml = readFileSync(path.join(dist, 'index.html'), 'utf8').replace('<!--sceau-config-->', meta);
    await app.register(fastifyStatic, {
      root: dist,
      index: false,
      wildcard: false,
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  } else {
    app.log.warn({ dist }, 'web app not built: serving the API only (run `npm run build`)');
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    if (!hasWeb || isApi || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.code(404).send({ code: 'not_found', message: request.t('errors:not_found') });
    }
    return reply
      .code(isAppRoute(pathname, opts.config.product) ? 200 : 404)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(indexHtml);
  });
});
