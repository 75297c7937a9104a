/**
 * `npm run size` (after `npm run build`): the JavaScript a first visit of the public pages
 * downloads, as the server sends it: the build's brotli and gzip copies of each file (ADR 0126),
 * or the file itself where the build wrote none (the server then sends it as is). Read from the
 * Vite manifest (apps/web/dist/.vite/manifest.json):
 *
 *   the entry (index.html's script) and everything it imports statically
 *   + the modules the entry imports dynamically at start, whatever the page (BOOT_MODULES)
 *   + the page's lazy chunk as the router loads it (src/app/pages.ts) and its static imports,
 *
 * each file counted once. One line per page, then one JSON line; exits 1 when the brotli bytes are
 * above the budget: what every current browser receives over HTTPS, which is how the platform is
 * served (docs/deployment.md). The gzip bytes (a client without brotli) are printed beside them.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { routeTextParts } from '../src/lib/i18n-parts';

export const BUDGET_KB = 150;

/** The pages measured, by the route pattern of src/app/pages.ts, and the address shown. */
export const PAGES = [
  { label: '/', route: '/', access: 'public' },
  { label: '/verify/{id}', route: '/verify/:id', access: 'public' },
] as const;

/** Texts are measured in French, the default language (English ones are smaller). */
const LANGUAGE = 'fr';

/**
 * Dynamic imports every first visit makes before the page shows, whatever the page: the boot
 * texts (src/lib/i18n.ts waits for them).
 */
export const BOOT_MODULES = [`virtual:sceau-texts/${LANGUAGE}/boot`] as const;

/** The text chunks the router loads with a route's page. */
export function routeTextModules(route: string, access = 'public'): string[] {
  return routeTextParts({ path: route, access }).map((part) => `virtual:sceau-texts/${LANGUAGE}/${part}`);
}

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** The source module of each route's page, read from the `import('@/…')` of src/app/pages.ts. */
export function routePageModules(pagesSource: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const match of pagesSource.matchAll(/'([^']+)':\s*\(\)\s*=>\s*import\('@\/([^']+)'\)/g)) {
    out.set(match[1]!, `src/${match[2]!}`);
  }
  return out;
}

/** The manifest key of a source module written without its extension. */
function manifestKey(manifest: Manifest, module: string): string {
  for (const key of [module, `${module}.tsx`, `${module}.ts`]) if (manifest[key]) return key;
  throw new Error(`${module}: not in the build's manifest (was the file moved? run npm run build)`);
}

/** The JavaScript files a chunk brings: itself and its static imports, transitively. */
function staticClosure(manifest: Manifest, key: string, files: Set<string>, css: Set<string>, seen = new Set<string>()): void {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key}: missing from the manifest`);
  files.add(chunk.file);
  for (const sheet of chunk.css ?? []) css.add(sheet);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, files, css, seen);
}

export interface PageFiles {
  js: string[];
  css: string[];
}

export function pageFiles(manifest: Manifest, pageModules: string | readonly string[], bootModules: readonly string[] = BOOT_MODULES): PageFiles {
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry in the manifest, found ${entries.length}`);
  const js = new Set<string>();
  const css = new Set<string>();
  const seen = new Set<string>();
  staticClosure(manifest, entries[0]![0], js, css, seen);
  for (const module of bootModules) staticClosure(manifest, manifestKey(manifest, module), js, css, seen);
  for (const module of typeof pageModules === 'string' ? [pageModules] : pageModules) staticClosure(manifest, manifestKey(manifest, module), js, css, seen);
  return { js: [...js].sort(), css: [...css].sort() };
}

/** The bytes the server sends for `file` in this encoding: the build's compressed copy, else the file. */
export function sentBytes(file: string, encoding: 'br' | 'gz', sizeOf: (path: string) => number | null = fileSize): number {
  const copy = sizeOf(`${file}.${encoding}`);
  if (copy !== null) return copy;
  const plain = sizeOf(file);
  if (plain === null) throw new Error(`${file}: missing from the build`);
  return plain;
}

function fileSize(path: string): number | null {
  return existsSync(path) ? statSync(path).size : null;
}

export interface PageSize {
  page: string;
  files: number;
  gzip_bytes: number;
  br_bytes: number;
  /** brotli KB, the budget's measure. */
  kb: number;
  gzip_kb: number;
  css_kb: number;
}

export function measure(distDir: string, pagesSource: string, sizeOf: (path: string) => number | null = fileSize): PageSize[] {
  const manifestPath = join(distDir, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} not found: run npm run build first`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const modules = routePageModules(pagesSource);
  const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
  return PAGES.map(({ label, route, access }) => {
    const module = modules.get(route);
    if (!module) throw new Error(`${route}: no page in src/app/pages.ts`);
    const { js, css } = pageFiles(manifest, [module, ...routeTextModules(route, access)]);
    const total = (files: string[], encoding: 'br' | 'gz') => files.reduce((sum, file) => sum + sentBytes(join(distDir, file), encoding, sizeOf), 0);
    const gzip = total(js, 'gz');
    const br = total(js, 'br');
    return { page: label, files: js.length, gzip_bytes: gzip, br_bytes: br, kb: kb(br), gzip_kb: kb(gzip), css_kb: kb(total(css, 'br')) };
  });
}

function main(): void {
  const webDir = join(dirname(fileURLToPath(import.meta.url)), '..');
  let sizes: PageSize[];
  try {
    sizes = measure(join(webDir, 'dist'), readFileSync(join(webDir, 'src', 'app', 'pages.ts'), 'utf8'));
  } catch (error) {
    console.error(`size: ${(error as Error).message}`);
    process.exit(2);
  }
  for (const size of sizes) {
    const verdict = size.kb <= BUDGET_KB ? 'ok' : `OVER the ${BUDGET_KB} KB goal`;
    console.log(
      `${size.page.padEnd(14)} ${size.kb.toFixed(1).padStart(6)} KB of JavaScript sent brotli (${size.gzip_kb.toFixed(1)} KB gzip; ${size.files} files; CSS ${size.css_kb.toFixed(1)} KB)  ${verdict}`,
    );
  }
  const over = sizes.filter((size) => size.kb > BUDGET_KB);
  console.log(JSON.stringify({ budget_kb: BUDGET_KB, ok: over.length === 0, pages: sizes }));
  if (over.length > 0) process.exit(1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
