import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.ts';

/** A built web app as `npm run build` leaves it: hashed assets with their brotli and gzip copies. */
let dist: string;
let ctx: TestContext;
const script = `console.log(${JSON.stringify('Vérification du diplôme '.repeat(400))});`;
const manifest = JSON.stringify({ name: 'Sceau', short_name: 'Sceau', start_url: '/verification', display: 'standalone', icons: [] });

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'sceau-web-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), `<!doctype html><html><head><!--sceau-config--></head><body>${'<!-- app shell -->'.repeat(100)}</body></html>`);
  await writeFile(path.join(dist, 'assets', 'app-1a2b3c.js'), script);
  // Distinct contents, so that the test sees which copy was sent.
  await writeFile(path.join(dist, 'assets', 'app-1a2b3c.js.br'), brotliCompressSync(`${script}//br`));
  await writeFile(path.join(dist, 'assets', 'app-1a2b3c.js.gz'), gzipSync(`${script}//gz`));
  await writeFile(path.join(dist, 'sw.js'), 'self.skipWaiting();');
  await writeFile(path.join(dist, 'registerSW.js'), "navigator.serviceWorker.register('/sw.js');");
  await writeFile(path.join(dist, 'manifest.webmanifest'), manifest);
  await writeFile(path.join(dist, 'manifest.webmanifest.br'), brotliCompressSync(manifest));
  ctx = await createTestApp({ WEB_DIST: dist });
});
afterAll(async () => {
  await ctx?.close();
  await rm(dist, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) => ctx.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('what the server sends (ADR 0126)', () => {
  it("sends a hashed asset in the build's brotli copy, else its gzip copy, else as is, cached as immutable", async () => {
    const br = await get('/assets/app-1a2b3c.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(`${script}//br`);

    const gz = await get('/assets/app-1a2b3c.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(`${script}//gz`);

    const plain = await get('/assets/app-1a2b3c.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('compresses the app page, with its runtime configuration, and the API answers worth it', async () => {
    const page = await get('/verification', 'br');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(page.rawPayload).toString()).toContain('<meta name="sceau-config"');

    const document = await get('/api/docs/json', 'gzip');
    expect(document.statusCode).toBe(200);
    expect(document.headers['content-encoding']).toBe('gzip');
    const json = gunzipSync(document.rawPayload);
    expect(JSON.parse(json.toString()).openapi).toMatch(/^3\./);
    expect(document.rawPayload.length).toBeLessThan(json.length / 4);
  });

  it('leaves small answers and clients that accept no compression alone', async () => {
    const small = await get('/api/health', 'br, gzip');
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    const identity = await get('/api/docs/json');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(identity.body).openapi).toMatch(/^3\./);
  });
});

describe('installable app (ADR 0127)', () => {
  it('sends the service worker and its registration revalidated on every load, not as immutable', async () => {
    for (const url of ['/sw.js', '/registerSW.js']) {
      const response = await get(url, 'br, gzip');
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    }
  });

  it('sends the web app manifest as application/manifest+json, revalidated, compressed when accepted', async () => {
    const br = await get('/manifest.webmanifest', 'br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString()).start_url).toBe('/verification');
    const plain = await get('/manifest.webmanifest');
    expect(plain.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(JSON.parse(plain.body).display).toBe('standalone');
  });
});
