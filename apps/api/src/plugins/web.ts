import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Negotiator } from '@fastify/accept-negotiator';
import fp from 'fastify-plugin';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { APP_ROUTES, isLocale, type Locale } from '@sceau/contracts';
import type { Config } from '../config.ts';
import { gzipAfterPrefix, gzipPrefix, type GzipPrefix } from '../lib/gzip-after-prefix.ts';

/**
 * A page the server writes itself from index.html, per request (the verdict of `/verify/{id}`, ADR
 * 0128): its status and HTML as `head + body`, or null to serve index.html as is. `head` is the part
 * that is the same on every answer in the page's language (its head, the stylesheet inline),
 * compressed once (ADR 0156); it may be empty.
 */
export type ServerPage = (request: FastifyRequest, pathname: string, template: string) => Promise<{ status: number; head: string; body: string } | null>;

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

/** The same, gzip first among what the browser likes as much (for a page gzip costs least to write). */
const HTML_ENCODINGS_GZIP_FIRST = new Negotiator({ supportedValues: ['gzip', 'br', 'identity'] });

/** The compression of an HTML page the client accepts, or null: sent as it is. */
function htmlEncoding(acceptEncoding: string | undefined, preferred: 'gzip' | null = null): HtmlEncoding | null {
  const encoding = acceptEncoding ? (preferred ? HTML_ENCODINGS_GZIP_FIRST : HTML_ENCODINGS).negotiate(acceptEncoding) : null;
  return encoding === 'br' || encoding === 'gzip' ? encoding : null;
}

/** How many shared heads are kept (one per language of the verdict's page). */
const MAX_SHARED_HEADS = 4;

/**
 * The gzip of pages written per request whose first part is the same on every answer (the verdict's
 * page in a language: its head with the stylesheet inline, ADR 0156): that part is compressed the
 * first time it is seen and kept; each answer compresses only the rest.
 */
class SharedHeads {
  private heads: GzipPrefix[] = [];

  gzip(head: string, body: string): Buffer {
    let kept = this.heads.find((one) => one.text === head);
    if (!kept) {
      kept = gzipPrefix(head);
      this.heads = [kept, ...this.heads].slice(0, MAX_SHARED_HEADS);
    }
    return gzipAfterPrefix(kept, body);
  }
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

/** The module the build writes (apps/web/scripts/prerender.ts) that renders the public pages' first screen (ADR 0151). */
export const FIRST_SCREEN_MODULE = path.join('.server', 'first-screen.mjs');

/** One public page's first screen, as the build's module renders it. */
export interface FirstScreen {
  path: string;
  locale: string;
  title: string;
  html: string;
}

/**
 * Renders the first screens once, in a worker thread: the module brings React and the web app's
 * code, with browser stand-ins (an in-memory localStorage), which stay out of the API's own globals.
 */
export async function renderFirstScreens(file: string, configJson: string, timeoutMs = 30_000): Promise<FirstScreen[]> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     import(workerData.url).then((m) => m.renderFirstScreens(workerData.config)).then(
       (screens) => parentPort.postMessage({ screens }),
       (error) => parentPort.postMessage({ error: String(error && error.stack || error) }),
     );`,
    { eval: true, workerData: { url: pathToFileURL(file).href, config: configJson } },
  );
  try {
    return await new Promise<FirstScreen[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`first screens not rendered within ${timeoutMs} ms`)), timeoutMs);
      worker.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      worker.once('message', (message: { screens?: FirstScreen[]; error?: string }) => {
        clearTimeout(timer);
        if (message.screens) resolve(message.screens);
        else reject(new Error(message.error ?? 'no first screens'));
      });
    });
  } finally {
    // The app's modules keep timers alive (the query client's): the worker's job is done.
    await worker.terminate();
  }
}

/**
 * The service worker keeps one copy of the app shell for every route (ADR 0127): it asks for it with
 * this header and gets index.html, never a page's first screen, which it recognises by
 * `FIRST_SCREEN_HEADER` and does not store.
 */
export const SHELL_REQUEST_HEADER = 'x-sceau-shell';
export const FIRST_SCREEN_HEADER = 'x-sceau-first-screen';

/** The SPA's root in index.html, with the app shell it holds until the SPA renders. */
export const APP_ROOT = /<div id="root">[\s\S]*?<\/div><!--\/root-->|<div id="root"><\/div>/;

/**
 * index.html carrying a page's first screen in its root (ADR 0151): the page's language and title.
 * Its forms, buttons and selects are `inert` until the SPA replaces the markup (React's own has no
 * such attribute): they do nothing before the JavaScript is there, so nothing typed or chosen before
 * is lost at the takeover, and without JavaScript the login form cannot send a password in a GET
 * query (index.html's noscript note says JavaScript is needed). Its links work as they are.
 */
export function firstScreenHtml(template: string, screen: FirstScreen): string {
  return template
    .replace(/<html lang="[^"]*"/, `<html lang="${escapeAttribute(screen.locale)}"`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeAttribute(screen.title)}</title>`)
    .replace(APP_ROOT, () => `<div id="root" data-ssr="first-screen">${markFirstScreen(screen.html)}</div><!--/root-->`);
}

/**
 * The first screen's markup as served: its first element marked `data-first-screen` (what the SPA
 * renders has no such mark: `npm run perf:throttled` tells the takeover by it), its controls inert.
 */
function markFirstScreen(html: string): string {
  return html.replace(/^<([a-z][\w-]*)/, '<$1 data-first-screen=""').replace(/<(form|button|select)(?=[\s>])/g, '<$1 inert=""');
}

/** The path a first screen answers for (`/login/` as `/login`), or null. */
function firstScreenPath(pathname: string, screens: ReadonlyMap<string, unknown>): string | null {
  const normal = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  return screens.has(`fr ${normal}`) || screens.has(`en ${normal}`) ? normal : null;
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
  const sharedHeads = new SharedHeads();
  /** `${locale} ${path}` → that page's first screen in index.html, compressed once (ADR 0151). */
  const firstScreens = new Map<string, ReturnType<typeof compressedOnce>>();
  if (hasWeb && dist) {
    const configJson = JSON.stringify(webRuntimeConfig(opts.config));
    const meta = `<meta name="sceau-config" content='${escapeAttribute(configJson)}'>`;
    template = readFileSync(path.join(dist, 'index.html'), 'utf8').replace('<!--sceau-config-->', meta);
    serverTemplate = withInlineStyle(template, dist);
    page = compressedOnce(template);
    const module = path.join(dist, FIRST_SCREEN_MODULE);
    if (existsSync(module)) {
      try {
        for (const screen of await renderFirstScreens(module, configJson)) {
          if (isLocale(screen.locale)) firstScreens.set(`${screen.locale} ${screen.path}`, compressedOnce(firstScreenHtml(serverTemplate, screen)));
        }
      } catch (error) {
        // The app shell still works: those pages get index.html, as before.
        app.log.error({ err: error }, 'first screens not rendered: index.html served on the public pages');
      }
    }
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
      // Written per request (the verdict, the language, the time): gzip over its head compressed
      // once (ADR 0156), else compressed whole at a fast level.
      const shared = verdict.head.length > 0;
      const encoding = htmlEncoding(request.headers['accept-encoding'], shared ? 'gzip' : null);
      const body =
        encoding === 'gzip' && shared
          ? sharedHeads.gzip(verdict.head, verdict.body)
          : encoding
            ? compressHtml(verdict.head + verdict.body, encoding, 'fast')
            : verdict.head + verdict.body;
      if (encoding) reply.header('content-encoding', encoding);
      return reply.code(verdict.status).header('cache-control', 'no-cache').header('vary', 'accept-encoding, accept-language').type('text/html; charset=utf-8').send(body);
    }
    const screenPath = firstScreens.size ? firstScreenPath(pathname, firstScreens) : null;
    if (screenPath) reply.header('vary', `accept-encoding, accept-language, cookie, ${SHELL_REQUEST_HEADER}`);
    const screen = screenPath && !request.headers[SHELL_REQUEST_HEADER] ? firstScreens.get(`${request.locale as Locale} ${screenPath}`) : undefined;
    if (screen) {
      // The reader's language, as /verify/{id} (ADR 0128): the same cache rule as index.html.
      const { body, encoding } = screen(request.headers['accept-encoding']);
      if (encoding) reply.header('content-encoding', encoding);
      return reply.code(200).header('cache-control', 'no-cache').header(FIRST_SCREEN_HEADER, screenPath).type('text/html; charset=utf-8').send(body);
    }
    const { body, encoding } = page(request.headers['accept-encoding']);
    if (encoding) reply.header('content-encoding', encoding);
    return reply
      .code(isAppRoute(pathname, opts.config.product) ? 200 : 404)
      .header('cache-control', 'no-cache')
      .header('vary', screenPath ? `accept-encoding, accept-language, cookie, ${SHELL_REQUEST_HEADER}` : 'accept-encoding')
      .type('text/html; charset=utf-8')
      .send(body);
  });
});
