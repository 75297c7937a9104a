import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { EndpointShape } from '@sceau/contracts';
import type { Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';
import { pickKeys, pickSections, TEXT_PARTS, type TextPart, type TextPartDefinition } from './src/lib/i18n-parts.ts';
import { publicPrecache } from './scripts/precache.ts';
import type { Manifest } from './scripts/size.ts';

const apiTarget = process.env.SCEAU_API_URL ?? 'http://localhost:3000';

/**
 * `virtual:sceau-texts/{lang}/{part}`: one chunk per language and part of the web app's texts,
 * cut from packages/i18n's catalogues as src/lib/i18n-parts.ts says (ADR 0097). `boot` holds the
 * unclaimed sections of `web`; a part, its sections, namespaces and picked keys.
 */
function textChunks(): Plugin {
  const prefix = 'virtual:sceau-texts/';
  const locales = dirname(dirname(createRequire(import.meta.url).resolve('@sceau/i18n/locales/fr/web.json')));
  return {
    name: 'sceau-text-chunks',
    resolveId(id) {
      return id.startsWith(prefix) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(`\0${prefix}`)) return undefined;
      const [lang = '', part = ''] = id.slice(prefix.length + 1).split('/');
      if (!/^[a-z]{2}$/.test(lang) || (part !== 'boot' && !(part in TEXT_PARTS))) throw new Error(`unknown text chunk ${id}`);
      const read = (namespace: string) => {
        const file = join(locales, lang, `${namespace}.json`);
        this.addWatchFile(file);
        return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      };
      const texts: Record<string, unknown> = { web: pickSections(read('web'), part as TextPart | 'boot') };
      if (part !== 'boot') {
        const definition: TextPartDefinition = TEXT_PARTS[part as TextPart];
        for (const namespace of definition.namespaces ?? []) texts[namespace] = read(namespace);
        for (const [namespace, paths] of Object.entries(definition.pick ?? {})) texts[namespace] = pickKeys(read(namespace), paths);
      }
      return `export default ${JSON.stringify(texts)};`;
    },
  };
}

/**
 * `virtual:sceau-endpoints`: each API call's method and path (and whether it sends a form or answers
 * a file), read from the endpoint definitions of @sceau/contracts at build time (ADR 0125). The web
 * takes its types from the definitions and only this data at run time: the definitions' zod schemas
 * would otherwise all come into the first page's JavaScript.
 */
function endpointRoutes(): Plugin {
  const id = 'virtual:sceau-endpoints';
  return {
    name: 'sceau-endpoints',
    resolveId(source) {
      return source === id ? `\0${id}` : undefined;
    },
    async load(source) {
      if (source !== `\0${id}`) return undefined;
      const { endpoints } = (await import('@sceau/contracts')) as typeof import('@sceau/contracts');
      const routes = Object.fromEntries(
        Object.entries(endpoints).map(([area, group]) => [
          area,
          Object.fromEntries(
            Object.entries(group).map(([name, definition]: [string, EndpointShape]) => [
              name,
              { method: definition.method, path: definition.path, ...(definition.multipart ? { multipart: true } : {}), ...(definition.file ? { file: definition.file } : {}) },
            ]),
          ),
        ]),
      );
      return `export default ${JSON.stringify(routes)};`;
    },
  };
}

/**
 * The app's stylesheet does not hold back the first paint (ADR 0131): the build's
 * `<link rel="stylesheet">` becomes a preload (fetched at once, at the highest priority), which
 * main.tsx applies before React renders. Until then the inline styles of index.html draw the app
 * shell; the pages the server writes carry the stylesheet inline (apps/api plugins/web.ts).
 */
function nonBlockingStylesheet(): Plugin {
  return {
    name: 'sceau-non-blocking-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const links = html.match(/<link rel="stylesheet"[^>]*>/g) ?? [];
        if (links.length !== 1) throw new Error(`expected one stylesheet link in index.html, found ${links.length}`);
        return html.replace(/<link rel="stylesheet"([^>]*)>/, '<link rel="preload" as="style"$1 data-app-style>');
      },
    },
  };
}

/**
 * The app's JavaScript does not compete with the page's first paint (ADR 0151, amended): the entry
 * script and its modulepreloads are fetched at low priority. Every public page's first content is
 * in its HTML (the first screen or the verdict, with the style inline), so none of them needs the
 * scripts to paint; the browser then gives the HTML and its images (the diploma's photo) the
 * bandwidth first. It also tells Lighthouse's simulation the truth: a module script that happened to
 * finish downloading before the observed first paint (a fast local server) was otherwise counted as
 * render-blocking, with every chunk, in its FCP and LCP (2.1–2.5 s instead of 0.7 s).
 */
function lowPriorityScripts(): Plugin {
  return {
    name: 'sceau-low-priority-scripts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        if (!/<script type="module"/.test(html)) throw new Error('expected a module script in index.html');
        return html.replace(/<(script type="module"|link rel="modulepreload")/g, '<$1 fetchpriority="low"');
      },
    },
  };
}

/** Colours of src/styles/app.css (--color-blue, --color-page). */
const THEME_COLOR = '#0b3d91';
const BACKGROUND_COLOR = '#f6f8fb';

/**
 * The web app manifest and the service worker (src/sw.ts), in production builds only: the dev
 * server and the tests register none (ADR 0127). The manifest link and registerSW.js are written
 * into the built index.html.
 */
function installable() {
  const web = fileURLToPath(new URL('.', import.meta.url));
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src',
    filename: 'sw.ts',
    injectRegister: 'script-defer',
    registerType: 'autoUpdate',
    devOptions: { enabled: false },
    manifest: {
      id: '/',
      name: 'Sceau — vérification des diplômes',
      short_name: 'Sceau',
      description: 'Plateforme nationale de délivrance et de vérification des diplômes',
      lang: 'fr',
      dir: 'ltr',
      start_url: '/verification',
      scope: '/',
      display: 'standalone',
      theme_color: THEME_COLOR,
      background_color: BACKGROUND_COLOR,
      categories: ['education', 'utilities'],
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
      ],
    },
    injectManifest: {
      rollupFormat: 'iife',
      // index.html is not precached: the server completes it (runtime configuration); sw.ts keeps that copy.
      // The manifest and its icons are added by the plugin itself.
      globPatterns: ['assets/*.{js,css}'],
      maximumFileSizeToCacheInBytes: 1024 * 1024,
      manifestTransforms: [
        (entries) => {
          const manifest = JSON.parse(readFileSync(join(web, 'dist', '.vite', 'manifest.json'), 'utf8')) as Manifest;
          const wanted = publicPrecache(manifest, readFileSync(join(web, 'src', 'app', 'pages.ts'), 'utf8'));
          return { manifest: entries.filter((entry) => !entry.url.startsWith('assets/') || wanted.has(entry.url)), warnings: [] };
        },
      ],
    },
  });
}

export default defineConfig({
  plugins: [
    react(),
    textChunks(),
    endpointRoutes(),
    nonBlockingStylesheet(),
    lowPriorityScripts(),
    // Brotli and gzip copies of every text asset, written once at build: the server sends the one the
    // browser accepts (@fastify/static preCompressed) instead of compressing on each request.
    // index.html is left out: the server completes it at start (runtime configuration) and compresses it then.
    installable(),
    compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(js|mjs|css|json|svg|txt|webmanifest)$/, threshold: 512, logLevel: 'silent' }),
  ],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: { '/api': { target: apiTarget, changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // .vite/manifest.json: which chunks each entry and page loads, read by `npm run size`.
    manifest: true,
    rolldownOptions: {
      // The workspace packages are pure modules (constants, zod schemas, codecs): what a chunk does
      // not use is left out. Without this, the entry carried all of zod for a few constants.
      treeshake: { moduleSideEffects: [{ test: /[\\/]packages[\\/](contracts|credential|i18n)[\\/]src[\\/]/, sideEffects: false }] },
      output: {
        // Everything the entry imports statically in one chunk beside it (ADR 0151, amended): every
        // page loads all of it anyway, and the default split made 20 files of it (10 under 2 KB),
        // 20 requests on HTTP/1.1's six connections before the app can start. The entry module
        // itself stays out (its chunk is index.html's script, which the manifest names).
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'], test: (id) => !/[\\/]apps[\\/]web[\\/](index\.html|src[\\/]main\.tsx)$/.test(id) }] },
      },
    },
  },
  test: {
    name: 'web',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'jsdom',
    setupFiles: [fileURLToPath(new URL('./src/test/setup.ts', import.meta.url))],
    restoreMocks: true,
    unstubGlobals: true,
    css: false,
  },
});
