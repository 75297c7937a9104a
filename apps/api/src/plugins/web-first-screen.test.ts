import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { firstScreenHtml } from './web.ts';

/**
 * The public pages' first screen in the HTML (ADR 0151): a built web app whose `.server` module
 * renders them (here a stand-in with the build module's contract: `renderFirstScreens(configJson)`).
 */
const INDEX = `<!doctype html><html lang="fr"><head><!--sceau-config--><title>Sceau</title><link rel="preload" as="style" crossorigin href="/assets/index-1a2b.css" data-app-style></head><body><noscript>JS</noscript><div id="root"><div class="app-shell">Chargement… / Loading…</div></div><!--/root--><script type="module" src="/assets/index-1a2b.js"></script></body></html>`;

const MODULE = `
const TEXTS = {
  fr: { '/': ['Accueil', 'Les diplômes nationaux authentifiés'], '/verification': ['Vérifier un diplôme', 'Collez le lien'], '/login': ['Connexion', 'Espace réservé'] },
  en: { '/': ['Home', 'National diplomas authenticated'], '/verification': ['Verify a diploma', 'Paste the link'], '/login': ['Sign in', 'For authorised staff'] },
};
export async function renderFirstScreens(configJson) {
  const config = JSON.parse(configJson);
  const issuer = config.issuer.shortName;
  const withProduct = (pages) => ({ ...pages, ['/mon-' + config.product]: ['Résultat ' + config.product, 'Vos résultats'] });
  return Object.entries(TEXTS).flatMap(([locale, pages]) => Object.entries(withProduct(pages)).map(([path, [title, lead]]) => ({
    path, locale, title: title + ' · Sceau',
    html: '<div class="layout"><header>' + issuer + '</header><main><h1>' + title + '</h1><p class="lead">' + lead + '</p>' + (path === '/login' ? '<form class="form"><input name="password" type="password"><button type="submit">Go</button></form><select><option>fr</option></select><a href="/">home</a>' : '') + '</main></div>',
  })));
}`;

async function builtWeb(module: string | null): Promise<string> {
  const dist = await mkdtemp(path.join(os.tmpdir(), 'sceau-web-first-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), INDEX);
  await writeFile(path.join(dist, 'assets', 'index-1a2b.css'), `.layout{display:flex}${' .x{color:red}'.repeat(50)}`);
  if (module !== null) {
    await mkdir(path.join(dist, '.server'));
    await writeFile(path.join(dist, '.server', 'first-screen.mjs'), module);
  }
  return dist;
}

let dist: string;
let ctx: TestContext;
beforeAll(async () => {
  dist = await builtWeb(MODULE);
  ctx = await createTestApp({ WEB_DIST: dist, ISSUER_SHORT_NAME: 'MIN-TEST', PRODUCT: 'bepc' });
});
afterAll(async () => {
  await ctx?.close();
  await rm(dist, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });

describe('first screen in the HTML (ADR 0151)', () => {
  it('sends French by default, English when the browser asks for it, the stored choice (cookie) first', async () => {
    const fr = await get('/');
    expect(fr.statusCode).toBe(200);
    expect(fr.body).toContain('<html lang="fr"');
    expect(fr.body).toContain('<title>Accueil · Sceau</title>');
    expect(fr.body).toContain('<div id="root" data-ssr="first-screen"><div data-first-screen="" class="layout">');
    expect(fr.body).toContain('<h1>Accueil</h1>');
    expect(fr.body).not.toContain('Chargement…');

    const en = await get('/verification', { 'accept-language': 'en-GB,en;q=0.9' });
    expect(en.body).toContain('<html lang="en"');
    expect(en.body).toContain('<h1>Verify a diploma</h1><p class="lead">Paste the link</p>');

    const chosen = await get('/verification', { 'accept-language': 'en', cookie: 'sceau-lang=fr' });
    expect(chosen.body).toContain('<h1>Vérifier un diplôme</h1>');
    const unsupported = await get('/login', { 'accept-language': 'de-DE' });
    expect(unsupported.body).toContain('<h1>Connexion</h1>');
  });

  it('carries the runtime configuration, rendered with it, and the stylesheet inline', async () => {
    const page = await get('/login');
    expect(page.body).toContain('<meta name="sceau-config"');
    expect(page.body).toContain('<header>MIN-TEST</header>');
    expect(page.body).toContain('<style data-app-style>.layout{display:flex}');
    expect(page.body).not.toContain('rel="preload" as="style"');
    expect(page.body).toContain('<script type="module" src="/assets/index-1a2b.js">');
  });

  it('keeps forms, buttons and selects inert until the SPA replaces the markup, links as they are', async () => {
    const page = await get('/login/');
    expect(page.body).toContain('<form inert="" class="form">');
    expect(page.body).toContain('<button inert="" type="submit">');
    expect(page.body).toContain('<select inert=""><option>');
    expect(page.body).toContain('<a href="/">home</a>');
  });

  it('is compressed once (brotli, gzip) and revalidated like index.html, varying by language', async () => {
    const br = await get('/verification', { 'accept-encoding': 'gzip, br', 'accept-language': 'en' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers.vary).toMatch(/accept-encoding/);
    expect(br.headers.vary).toMatch(/accept-language/);
    expect(br.headers['content-type']).toMatch(/^text\/html/);
    const html = brotliDecompressSync(br.rawPayload).toString();
    expect(html).toContain('<h1>Verify a diploma</h1>');
    expect(br.rawPayload.length).toBeLessThan(html.length);

    const gz = await get('/', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toContain('<h1>Accueil</h1>');
  });

  it('gives the service worker the app shell it keeps, and marks a first screen so it stores none', async () => {
    const screen = await get('/verification');
    expect(screen.headers['x-sceau-first-screen']).toBe('/verification');
    expect(screen.headers.vary).toMatch(/x-sceau-shell/);
    const shell = await get('/verification', { 'x-sceau-shell': '1', 'accept-language': 'en' });
    expect(shell.statusCode).toBe(200);
    expect(shell.headers['x-sceau-first-screen']).toBeUndefined();
    expect(shell.headers.vary).toMatch(/x-sceau-shell/);
    expect(shell.body).toContain('Chargement… / Loading…');
  });

  it("serves the configured product's candidate check (/mon-{product}) from the screen rendered for it", async () => {
    const product = await get('/mon-bepc');
    expect(product.headers['x-sceau-first-screen']).toBe('/mon-bepc');
    expect(product.body).toContain('<h1>Résultat bepc</h1>');
    const other = await get('/mon-exetat');
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain('data-ssr');
  });

  it('leaves every other page with index.html and its app shell', async () => {
    const other = await get('/contact');
    expect(other.statusCode).toBe(200);
    expect(other.body).toContain('Chargement… / Loading…');
    expect(other.body).not.toContain('data-ssr');
    expect(other.headers['x-sceau-first-screen']).toBeUndefined();
    const missing = await get('/no-such-page');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Chargement… / Loading…');
  });

  it('does not publish the build module itself', async () => {
    const module = await get('/.server/first-screen.mjs');
    expect(module.body).not.toContain('renderFirstScreens');
  });
});

describe('a first-screen module that fails', () => {
  it('leaves the public pages with index.html (the app shell), the server started', async () => {
    const broken = await builtWeb('export async function renderFirstScreens() { throw new Error("boom"); }');
    const app = await createTestApp({ WEB_DIST: broken });
    try {
      const page = await app.app.inject({ method: 'GET', url: '/' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Chargement… / Loading…');
    } finally {
      await app.close();
      await rm(broken, { recursive: true, force: true });
    }
  });
});

describe('firstScreenHtml', () => {
  it('escapes the title and language it writes into index.html', () => {
    const html = firstScreenHtml(INDEX, { path: '/', locale: 'fr', title: 'A <b> & "c"', html: '<h1>x</h1>' });
    expect(html).toContain('<title>A &lt;b&gt; &amp; &quot;c&quot;</title>');
    expect(html).toContain('<div id="root" data-ssr="first-screen"><h1 data-first-screen="">x</h1></div><!--/root-->');
  });
});
