import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { pickKeys, pickSections, TEXT_PARTS, type TextPart, type TextPartDefinition } from './src/lib/i18n-parts.ts';

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

export default defineConfig({
  plugins: [react(), textChunks()],
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
