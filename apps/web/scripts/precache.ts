/**
 * The files the service worker precaches (ADR 0127): what the public pages need to open with no
 * network, in French and English: the entry and its imports, the boot texts, each public route's
 * page chunk with its texts, and the chunks those pages load on demand (the offline QR check, the
 * camera, the QR decoder). Staff pages are left to the network: a verifier on a phone plan should
 * not download them. Read from the build's Vite manifest with size.ts's chunk walk.
 */
import { APP_ROUTES } from '@sceau/contracts';
import { routeTextParts } from '../src/lib/i18n-parts.ts';
import { type Manifest, pageFiles, routePageModules } from './size.ts';

export const LANGUAGES = ['fr', 'en'] as const;

/** The manifest key of a source module written without its extension, or null. */
function keyOf(manifest: Manifest, module: string): string | null {
  for (const key of [module, `${module}.tsx`, `${module}.ts`]) if (manifest[key]) return key;
  return null;
}

/** A chunk and, transitively, the chunks it loads on demand (the camera's QR decoder, the JavaScript ECDSA). */
function addWithLazyChunks(manifest: Manifest, key: string, modules: Set<string>): void {
  if (modules.has(key)) return;
  modules.add(key);
  for (const lazy of manifest[key]?.dynamicImports ?? []) addWithLazyChunks(manifest, lazy, modules);
}

/** The dist-relative files (JavaScript and CSS) to precache. */
export function publicPrecache(manifest: Manifest, pagesSource: string): Set<string> {
  const pages = routePageModules(pagesSource);
  const modules = new Set<string>();
  for (const route of APP_ROUTES) {
    if (route.access !== 'public') continue;
    const page = pages.get(route.path);
    const key = page ? keyOf(manifest, page) : null;
    if (!key) throw new Error(`${route.path}: its page is not in the build's manifest`);
    addWithLazyChunks(manifest, key, modules);
    for (const language of LANGUAGES) for (const part of routeTextParts(route)) modules.add(`virtual:sceau-texts/${language}/${part}`);
  }
  const notFound = keyOf(manifest, 'src/features/not-found/not-found-page');
  if (notFound) modules.add(notFound);
  const boot = LANGUAGES.map((language) => `virtual:sceau-texts/${language}/boot`);
  const { js, css } = pageFiles(
    manifest,
    [...modules].filter((module) => manifest[module]),
    boot,
  );
  return new Set([...js, ...css]);
}
