/**
 * `npm run build`'s second step (ADR 0151): builds scripts/prerender/first-screen.tsx for Node
 * (`vite build --ssr`, every dependency bundled in) into `dist/.server/first-screen.mjs`, the
 * module the API calls once at start to write the first screen of `/`, `/verification` and
 * `/login` into copies of index.html, in French and English, with the deployment's configuration.
 * Then renders them once with the default configuration as a check: a page that fails to render,
 * or shows a raw key, fails the build.
 *
 *   npx tsx scripts/prerender.ts        # after `vite build` (dist/ must exist)
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type PluginOption, type UserConfig } from 'vite';

const web = resolve(import.meta.dirname, '..');
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

/** A text left as its key (`home.title`, `verify.pageTitle`): a missing translation. */
export const RAW_KEY = /(^|[\s>])(web|verification|errors|[a-z]+):?[a-z][a-zA-Z]*\.[a-z][a-zA-Z.]*(?=[\s<])/;

async function main() {
  const dist = join(web, 'dist');
  if (!existsSync(join(dist, 'index.html'))) throw new Error('dist/index.html is missing: run `vite build` first');
  const file = await buildFirstScreenModule(dist);
  const { renderFirstScreens } = (await import(pathToFileURL(file).href)) as typeof import('./prerender/first-screen.tsx');
  const screens = await renderFirstScreens();
  const summary = screens.map((screen) => {
    if (!/<h1[\s>]/.test(screen.html)) throw new Error(`${screen.locale} ${screen.path}: no h1 in the first screen`);
    return { page: screen.path, locale: screen.locale, title: screen.title, bytes: screen.html.length };
  });
  writeFileSync(join(dist, '.server', 'first-screens.json'), `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`first screens: ${summary.map((s) => `${s.locale}${s.page} ${s.bytes} B`).join(', ')}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  await main();
  // The app's modules keep timers (the query client's): the build step is done.
  process.exit(0);
}
