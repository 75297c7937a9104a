/**
 * The service worker (ADR 0127), built by vite-plugin-pwa (injectManifest) into dist/sw.js and
 * registered by production builds only.
 *
 * - Precache: the public pages' JavaScript, CSS and texts, the icons (scripts/precache.ts).
 * - Pages: one copy of the app shell, the server's index.html with its runtime configuration (all
 *   the app's routes answer the same document), network first, kept under one key; offline, or
 *   when the network is slower than SHELL_TIMEOUT_S, the cached shell opens whichever route.
 *   /verify/{id} and /view-certificate are never stored (the server may render a holder's name
 *   into them), only answered by the shell when the network fails.
 * - The ministry's published keys: stale-while-revalidate (network first when the page asks with
 *   `cache: 'no-cache'`), fetched at install, so a QR code's signature can be checked offline.
 * - /api/: not handled here at all, never stored (personal data, tokens, verdicts that a
 *   revocation may change).
 * A new version takes over at once (skipWaiting, clientsClaim); open pages keep the code they
 * loaded and the next navigation gets the new one.
 */
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { NetworkFirst, NetworkOnly, StaleWhileRevalidate } from 'workbox-strategies';

interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
declare const self: {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install', listener: (event: ExtendableEventLike) => void): void;
};

const SHELL_CACHE = 'sceau-shell';
/** The one key the shell is kept under, whatever route brought it. */
const SHELL_KEY = '/__shell';
/** Fetched at install: the route the installed app opens on (the manifest's start_url). */
const START_URL = '/verification';
const KEYS_CACHE = 'sceau-keys';
const KEY_PATHS = ['/.well-known/jwks.json', '/.well-known/sceau-issuer.json'];
/** On a very slow network the cached shell opens the page; the API calls still go out. */
const SHELL_TIMEOUT_S = 4;
/** Paths of the server that are not the app's pages. */
const NOT_PAGES = /^\/(api|docs|\.well-known)(\/|$)/;
/** Pages the server may render with a holder's data: never stored. */
const PERSONAL_PAGES = /^\/(verify\/[^/]+|view-certificate)\/?$/;

self.skipWaiting();
clientsClaim();
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

const okOnly = new CacheableResponsePlugin({ statuses: [200] });
const shellKey = { cacheKeyWillBeUsed: async () => SHELL_KEY };
const fromShell = {
  handlerDidError: async () => (await caches.open(SHELL_CACHE).then((cache) => cache.match(SHELL_KEY))) ?? undefined,
};

/**
 * The server writes the first screen of a few public pages into their HTML (ADR 0151): such a page
 * is not the shell (it would open every route with that page's content). The shell is asked for with
 * `x-sceau-shell` (apps/api plugins/web.ts), which gets index.html on every path.
 */
function isShell(response: Response): boolean {
  return response.status === 200 && (response.headers.get('content-type') ?? '').startsWith('text/html') && !response.headers.has('x-sceau-first-screen');
}

async function warm(): Promise<void> {
  // Offline or failing: the install still succeeds, the first online navigation fills the caches.
  await Promise.allSettled([
    fetch(START_URL, { credentials: 'same-origin', headers: { 'x-sceau-shell': '1' } }).then(async (response) => {
      if (isShell(response)) await (await caches.open(SHELL_CACHE)).put(SHELL_KEY, response);
    }),
    // One by one: addAll stores nothing when one of them fails.
    ...KEY_PATHS.map((key) => caches.open(KEYS_CACHE).then((cache) => cache.add(key))),
  ]);
}
self.addEventListener('install', (event) => event.waitUntil(warm()));

registerRoute(({ request, url, sameOrigin }) => sameOrigin && request.mode === 'navigate' && PERSONAL_PAGES.test(url.pathname), new NetworkOnly({ plugins: [fromShell] }));
registerRoute(
  ({ request, url, sameOrigin }) => sameOrigin && request.mode === 'navigate' && !NOT_PAGES.test(url.pathname),
  new NetworkFirst({
    cacheName: SHELL_CACHE,
    networkTimeoutSeconds: SHELL_TIMEOUT_S,
    plugins: [shellKey, { cacheWillUpdate: async ({ response }) => (isShell(response) ? response : null) }],
  }),
);

const keysFresh = new NetworkFirst({ cacheName: KEYS_CACHE, networkTimeoutSeconds: 5, plugins: [okOnly] });
const keysQuick = new StaleWhileRevalidate({ cacheName: KEYS_CACHE, plugins: [okOnly] });
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && KEY_PATHS.includes(url.pathname),
  (options) => (options.request.cache === 'no-cache' || options.request.cache === 'reload' ? keysFresh : keysQuick).handle(options),
);
