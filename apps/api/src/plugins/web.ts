import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Negotiator } from '@fastify/accept-negotiator';
import fp from 'fastify-plugin';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { APP_ROUTES } from '@sceau/contracts';
import type { Config } from '../config.ts';

/**
 * A page the server writes itself from index.html (the verdict of `/verify/{id}`, ADR 0128): its
 * HTML and status, or null to serve index.html as is.
 */
export type ServerPage = (request: FastifyRequest, pathname: string, template: string) => Promise<{ status: number; html: string } | null>;

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
    /** Who runs the platform (ADR 0129): the header, footer and home page name it from here. */
    issuer: {
      /** Its id (domain): the offline QR check names the issuer it checked (ADR 0133). */
      id: config.issuer.id,
      name: config.issuer.name,
      nameEn: config.issuer.nameEn,
      shortName: config.issuer.shortName,
      emblemUrl: config.issuer.emblemUrl,
      address: config.issuer.address,
      email: config.issuer.email,
      phone: config.issuer.phone,
      website: config.issuer.website,
    },
    /** The footer's app and social links; a null one is not shown. */
    links: config.links,
    phoneCountry: config.phoneCountry,
  };
}

function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll("'", '&#39;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** Files of the build whose name carries no hash (ADR 0127). */
const UNHASHED_APP_FILES = new Set(['sw.js', 'registerSW.js', 'manifest.webmanifest']);

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

const HTML_ENCODINGS = new Negotiator({ supportedValues: ['br', 'gzip', 'identity'] });
type HtmlEncoding = 'br' | 'gzip';

/** The compression of an HTML page the client accepts, or null: sent as it is. */
function htmlEncoding(acceptEncoding: string | undefined): HtmlEncoding | null {
  const encoding = acceptEncoding ? HTML_ENCODINGS.negotiate(acceptEncoding) : null;
  return encoding === 'br' || encoding === 'gzip' ? encoding : null;
}

/** 'best' for a page compressed once (as the build does the assets), 'fast' for one written per request. */
function compressHtml(html: string, encoding: HtmlEncoding, effort: 'best' | 'fast'): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: effort === 'best' ? 11 : 5, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } })
    : gzipSync(html, { level: effort === 'best' ? 9 : 6 });
}

/**
 * index.html with its configuration, compressed once at start: the copy the client accepts. A
 * not-found handler, which serves it, is no route, so @fastify/compress's per-route hooks would
 * not reach it anyway.
 */
function compressedOnce(html: string) {
  const copies = { br: compressHtml(html, 'br', 'best'), gzip: compressHtml(html, 'gzip', 'best') };
  return (acceptEncoding: string | undefined): { body: string | Buffer; encoding: HtmlEncoding | null } => {
    const encoding = htmlEncoding(acceptEncoding);
    return encoding ? { body: copies[encoding], encoding } : { body: html, encoding: null };
  };
}

/**
 * The template the server-written pages start from (ADR 0128): index.html with the app's stylesheet,
 * which the build links as a preload applied by the SPA (ADR 0131), written into a `<style>`
 * element, so that the verdict is drawn with its look from the HTML alone (no second request before
 * the first paint, and the same look without JavaScript).
 */
export function withInlineStyle(template: string, dist: string): string {
  return template.replace(/<link rel="preload" as="style"[^>]*href="\/assets\/([\w.-]+\.css)"[^>]*data-app-style[^>]*>/, (link, file: string) => {
    const css = path.join(dist, 'assets', file);
    return existsSync(css) ? `<style data-app-style>${readFileSync(css, 'utf8').replace(/<\/style/gi, '<\\/style')}</style>` : link;
  });
}

/**
 * Serves the built web app: hashed assets cached for a year as immutable, sent in the brotli or gzip
 * copy the build wrote when the browser accepts it (ADR 0126); every other GET gets index.html with
 * the runtime configuration (the SPA's router decides what a path shows, including its 404 page),
 * compressed like the API's answers (app.ts).
 */
export const webPlugin = fp(async (app: FastifyInstance, opts: { config: Config; pages?: ServerPage | null }) => {
  const dist = opts.config.webDist;
  const hasWeb = Boolean(dist && existsSync(path.join(dist, 'index.html')));
  let page: ReturnType<typeof compressedOnce> = () => ({ body: '', encoding: null });
  let template = '';
  let serverTemplate = '';
  if (hasWeb && dist) {
    const meta = `<meta name="sceau-config" content='${escapeAttribute(JSON.stringify(webRuntimeConfig(opts.config)))}'>`;
    template = readFileSync(path.join(dist, 'index.html'), 'utf8').replace('<!--sceau-config-->', meta);
    serverTemplate = withInlineStyle(template, dist);
    page = compressedOnce(template);
    await app.register(fastifyStatic, {
      root: dist,
      index: false,
      wildcard: false,
      // `x.js.br` / `x.js.gz` from the build, chosen by Accept-Encoding (with Vary), else `x.js`.
      preCompressed: true,
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
        // The service worker, its registration and the manifest keep their names across versions:
        // revalidated on every load, so that a new version reaches users at once (ADR 0127).
        else if (UNHASHED_APP_FILES.has(path.basename(filePath).replace(/\.(br|gz)$/, ''))) res.header('cache-control', 'no-cache');
      },
    });
  } else {
    app.log.warn({ dist }, 'web app not built: serving the API only (run `npm run build`)');
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    if (!hasWeb || isApi || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.code(404).send({ code: 'not_found', message: request.t('errors:not_found') });
    }
    const verdict = await opts.pages?.(request, pathname, serverTemplate);
    if (verdict) {
      // Written per request (the verdict, the language, the time): compressed at a fast level.
      const encoding = htmlEncoding(request.headers['accept-encoding']);
      const body = encoding ? compressHtml(verdict.html, encoding, 'fast') : verdict.html;
      if (encoding) reply.header('content-encoding', encoding);
      return reply.code(verdict.status).header('cache-control', 'no-cache').header('vary', 'accept-encoding, accept-language').type('text/html; charset=utf-8').send(body);
    }
    const { body, encoding } = page(request.headers['accept-encoding']);
    if (encoding) reply.header('content-encoding', encoding);
    return reply
      .code(isAppRoute(pathname, opts.config.product) ? 200 : 404)
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .type('text/html; charset=utf-8')
      .send(body);
  });
});
