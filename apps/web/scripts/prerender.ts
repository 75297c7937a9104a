/**
 * `npm run build`'s second step (ADR 0151): builds scripts/prerender/first-screen.tsx for Node
 * (`vite build --ssr`, every dependency bundled in) into `dist/.server/first-screen.mjs`, the
 * module the API calls once at start to write the first screen of `/`, `/verification` and
 * `/login` into copies of index.html, in French and English, with the deployment's configuration.
 * Then renders them once with the default configuration as a check: a page that fails to render,
 * or shows a raw key, fails the build.
 *
 *   node --import tsx scripts/prerender.ts                    # after `vite build`
 *   options: --dist DIR (default dist/), --config JSON (a runtime configuration, as the server's meta)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type PluginOption, type UserConfig } from 'vite';

const web = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
export const FIRST_SCREEN_MODULE = join('.server', 'first-screen.mjs');

/** Only the plugins that make the app's code (React, the text chunks, the endpoints): no service worker, no compression. */
const SSR_PLUGINS = /^(vite:react|sceau-text-chunks|sceau-endpoints)/;

function pluginName(plugin: PluginOption): string {
  return plugin && typeof plugin === 'object' && 'name' in plugin ? String(plugin.name) : '';
}

export async function buildFirstScreenModule(dist = join(web, 'dist')): Promise<string> {
  const { default: config } = (await import(pathToFileURL(join(web, 'vite.config.ts')).href)) as { default: UserConfig };
  const plugins = (config.plugins ?? []).flat(Number.POSITIVE_INFINITY as 1).filter((plugin) => SSR_PLUGINS.test(pluginName(plugin as PluginOption)));
  const outDir = join(dist, '.server');
  await build({
    configFile: false,
    root: web,
    logLevel: 'warn',
    plugins,
    resolve: config.resolve,
    define: { 'import.meta.env.SSR': 'true' },
    ssr: { noExternal: true, target: 'node' },
    build: {
      ssr: join(web, 'scripts', 'prerender', 'first-screen.tsx'),
      outDir,
      emptyOutDir: true,
      copyPublicDir: false,
      minify: false,
      rolldownOptions: { output: { entryFileNames: 'first-screen.mjs', codeSplitting: false } },
    },
  });
  return join(outDir, 'first-screen.mjs');
}

type Catalogue = { [key: string]: string | Catalogue };

/** Every key of the web app's catalogues (`home.title`, `verification:verdict.authentic`), to find one shown as is. */
export function catalogueKeys(): Set<string> {
  const keys = new Set<string>();
  const walk = (namespace: string, node: Catalogue, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (typeof value === 'string') {
        keys.add(path.replace(/_(one|other|zero|few|many|two)$/, ''));
        keys.add(`${namespace}:${path}`);
      } else walk(namespace, value, path);
    }
  };
  for (const namespace of ['web', 'errors', 'verification']) {
    walk(namespace, JSON.parse(readFileSync(require.resolve(`@sceau/i18n/locales/fr/${namespace}.json`), 'utf8')) as Catalogue, '');
  }
  return keys;
}

/** The texts of some markup (tags out, entities decoded), one per element. */
export function textsOf(html: string): string[] {
  const decode = (text: string) =>
    text
      .replace(/&#x27;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const attributes = [...html.matchAll(/\s(?:aria-label|placeholder|alt|title)="([^"]*)"/g)].map((m) => decode(m[1]!));
  const texts = html
    .replace(/<!-- -->/g, '')
    .split(/<[^>]+>/)
    .map((text) => decode(text).trim())
    .filter(Boolean);
  return [...texts, ...attributes];
}

/** The texts of a first screen that are a catalogue key rather than its translation. */
export function rawKeysIn(html: string, keys: ReadonlySet<string>): string[] {
  return textsOf(html).filter((text) => keys.has(text));
}

async function main(argv: readonly string[]) {
  const at = (name: string) => {
    const index = argv.indexOf(`--${name}`);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const dist = resolve(at('dist') ?? join(web, 'dist'));
  const file = await buildFirstScreenModule(dist);
  const { renderFirstScreens } = (await import(pathToFileURL(file).href)) as typeof import('./prerender/first-screen.tsx');
  const screens = await renderFirstScreens(at('config') ?? null);
  const keys = catalogueKeys();
  for (const screen of screens) {
    if (!/<h1[\s>]/.test(screen.html)) throw new Error(`${screen.locale} ${screen.path}: no h1 in the first screen`);
    const raw = rawKeysIn(screen.html, keys);
    if (raw.length) throw new Error(`${screen.locale} ${screen.path}: texts shown as their key: ${raw.join(', ')}`);
  }
  // What was rendered with the default configuration, to read (the server renders its own at start).
  writeFileSync(join(dist, '.server', 'first-screens.json'), `${JSON.stringify(screens, null, 2)}\n`);
  console.log(`first screens: ${screens.map((s) => `${s.locale}${s.path} ${s.html.length} B`).join(', ')}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  await main(process.argv.slice(2));
  // The app's modules keep timers (the query client's): the build step is done.
  process.exit(0);
}
