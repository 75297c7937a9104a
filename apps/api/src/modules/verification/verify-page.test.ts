import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { VerificationResult } from '@sceau/verifier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { diplomas } from '../../db/schema.ts';
import { translator } from '../../lib/i18n.ts';
import { seedDemoBatch } from '../../seed/demo-batch.ts';
import { createServices, type Services } from '../../services.ts';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';
import { NON_PUBLIC_FIELDS, PUBLIC_FIELDS, verifyDocument, type CredentialDocument } from '@sceau/credential';
import { verifyPageHtml } from './verify-page.ts';

/** index.html as the build leaves it: the app shell in the root, the SPA's script and stylesheet. */
const INDEX = `<!doctype html><html lang="fr"><head><!--sceau-config--><title>Sceau</title><script type="module" crossorigin src="/assets/index-abc.js"></script><link rel="stylesheet" href="/assets/index-abc.css"></head><body><div id="root"><div class="app-shell">…</div></div><!--/root--></body></html>`;

describe('the server-rendered verdict, as written', () => {
  it('escapes every text the diploma carries', () => {
    const hostile = '<script>alert("x")</script>';
    const result: VerificationResult = {
      verdict: 'authentic',
      source: 'link',
      checks: [{ name: 'integrity', status: 'passed', code: 'hashes_match', details: { note: hostile } }],
      diploma: {
        id: 'AAAAAAAAAAAAAAAAAAAAAA',
        first_name: hostile,
        last_name: "O'Brien & <b>",
        // String.replace's replacement patterns: written as they are, never expanded.
        middle_name: "$' $& $` $1",
        option: `"><img src=x onerror=alert(1)>`,
        issuer: { id: 'x', name: '</script><script>alert(2)</script>' },
      },
    };
    const html = verifyPageHtml(INDEX, {
      id: 'AAAAAAAAAAAAAAAAAAAAAA',
      result,
      credential: { note: '</script><script>alert(3)</script>' },
      kind: 'diplome_etat',
      locale: 'fr',
      t: translator('fr'),
      explorerTxUrl: null,
      checkedAt: new Date('2026-07-01T10:00:00Z'),
      page: 'verify',
    });
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('O&#39;Brien &amp; &lt;b&gt;');
    expect(html).toContain('$&#39; $&amp; $` $1');
    expect(html.match(/<\/html>/g)).toHaveLength(1);
    // The embedded answer cannot close its element either.
    expect(html).toContain('\\u003c/script\\u003e\\u003cscript\\u003ealert(3)');
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-abc.js"></script>');
  });
});

let ctx: ChainTestContext;
let dist: string;
let services: Services;
let app: App;
let rows: (typeof diplomas.$inferSelect)[];

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'sceau-verify-page-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), INDEX);
  ctx = await createChainTestApp({ PUBLIC_URL: 'http://diplomes.test', WEB_DIST: dist });
  services = createServices(ctx.db, ctx.config, { identity: { keys: ctx.keys, chain: ctx.chain } });
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  const batchId = await seedDemoBatch(ctx.db, services.storage, services.issuing!);
  rows = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId));
}, 120_000);
afterAll(async () => {
  await app?.close();
  await ctx?.close();
  await rm(dist, { recursive: true, force: true });
});

const page = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('GET /verify/{id} as HTML (ADR 0128)', () => {
  it('carries the verdict, the holder, the diploma and its issuer, and keeps what the SPA needs to boot', async () => {
    const target = rows[0]!;
    const api = (await page(`/api/verify/${target.id}`)).json().data;
    const res = await page(`/verify/${target.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.body;
    expect(html).toContain('data-verdict="authentic"');
    expect(html).toContain('Authentique');
    expect(html).toContain(`${api.diploma.first_name}`);
    expect(html).toContain(`${api.diploma.last_name}`);
    expect(html).toContain('Diplôme d&#39;État');
    expect(html).toContain(api.diploma.issuer.name.replaceAll("'", '&#39;'));
    expect(html).toContain(`src="/api/verify/${target.id}/photo" width="120" height="160"`);
    expect(html).toContain('Vérifié le');
    expect(html).toContain(`href="/api/verify/${target.id}/pdf" download="diplome-${target.id}.pdf"`);
    // Technical details folded, failing checks (none here) before the others.
    expect(html).toMatch(/<details class="ssr-details">/);
    // The SPA's root, scripts, configuration and the embedded answer.
    expect(html).toContain('<div id="root" data-ssr="verify">');
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-abc.js"></script>');
    expect(html).toContain('<meta name="sceau-config"');
    expect(html).toContain(`id="sceau-verify-data" data-id="${target.id}"`);
    expect(html.indexOf('data-verdict=')).toBeLessThan(html.indexOf('data-testid="verification-diploma"'));
    expect(html.indexOf('data-testid="verification-diploma"')).toBeLessThan(html.indexOf('data-testid="verification-checks"'));
  });

  it('embeds the public credential only, on /verify/{id} and /view-certificate: no value or salt of a hidden field (ADR 0134)', async () => {
    const target = rows[4]!;
    const stored = target.credential as unknown as CredentialDocument;
    for (const url of [`/verify/${target.id}`, `/view-certificate?id=${target.id}`]) {
      const html = (await page(url)).body;
      const json = /<script type="application\/json" id="sceau-verify-data"[^>]*>([^<]*)<\/script>/.exec(html)?.[1];
      const embedded = JSON.parse(json!) as { credential: CredentialDocument };
      expect(Object.keys(embedded.credential.record).sort(), url).toEqual([...PUBLIC_FIELDS].sort());
      expect(verifyDocument(embedded.credential), url).toMatchObject({ integrity: 'ok', targetHash: target.targetHash, hiddenFields: NON_PUBLIC_FIELDS });
      for (const field of NON_PUBLIC_FIELDS) expect(html, `${url} ${field}`).not.toContain(stored.salts[field]!);
      expect(html, url).not.toContain(stored.record.candidate_code!);
    }
  });

  it('is in English when the browser asks for it', async () => {
    const res = await page(`/verify/${rows[1]!.id}`, { 'accept-language': 'en-GB,en;q=0.9' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<html lang="en"');
    expect(res.body).toContain('Authentic');
    expect(res.body).toContain('Checked on');
    expect(res.body).toContain('How this diploma was checked');
  });

  it("follows the web app's chosen language (its cookie) before the browser's", async () => {
    const res = await page(`/verify/${rows[1]!.id}`, { 'accept-language': 'fr', cookie: 'other=1; sceau-lang=en' });
    expect(res.body).toContain('<html lang="en"');
    expect(res.body).toContain('Authentic');
  });

  it('says revoked, with the failing check first and no photo', async () => {
    const target = rows[2]!;
    await ctx.chain.registry.revoke(`0x${target.targetHash}`, 'Fraude constatée');
    services.verification!.invalidate(`0x${target.targetHash}`);
    const res = await page(`/verify/${target.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('data-verdict="revoked"');
    expect(res.body).toContain('Révoqué');
    expect(res.body).not.toContain('/photo"');
    expect(res.body).not.toContain('/pdf"');
    const checks = [...res.body.matchAll(/data-check="([a-z_]+)" data-status="([a-z-]+)"/g)].map((m) => m[2]);
    expect(checks[0]).toBe('failed');
  });

  it('answers an unknown diploma with its translated verdict and a 404', async () => {
    const res = await page('/verify/ZZZZZZZZZZZZZZZZZZZZZZ', { 'accept-language': 'en' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('data-verdict="unknown"');
    expect(res.body).toContain('Unknown diploma');
    expect(res.body).toContain('<div id="root" data-ssr="verify">');
  });

  it('renders /view-certificate?id= the same way; other pages keep the plain shell', async () => {
    const res = await page(`/view-certificate?id=${rows[3]!.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('data-verdict="authentic"');
    const plain = await page('/verification');
    expect(plain.body).toContain('<div id="root"><div class="app-shell">');
    expect(plain.body).not.toContain('data-ssr');
  });

  it('is gzipped over its head compressed once (ADR 0156): the same page as sent plain, its head the same bytes on every answer', async () => {
    const phone = { 'accept-encoding': 'gzip, deflate, br, zstd', 'accept-language': 'fr' };
    const [first, second] = [await page(`/verify/${rows[0]!.id}`, phone), await page(`/verify/${rows[1]!.id}`, phone)];
    for (const [res, row] of [
      [first, rows[0]!],
      [second, rows[1]!],
    ] as const) {
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers.vary).toMatch(/accept-encoding/);
      const html = gunzipSync(res.rawPayload).toString('utf8');
      expect(html).toContain(`data-verdict="authentic"`);
      expect(html).toContain(row.id);
      // The title, which depends on the answer, comes after the shared head, still inside <head>.
      expect(html.indexOf('<title>')).toBeGreaterThan(html.indexOf('<meta name="sceau-config"'));
      expect(html.indexOf('<title>')).toBeLessThan(html.indexOf('</head>'));
    }
    // Both answers start with the same compressed head (after gzip's 10-byte header).
    const shared = firstDifference(first.rawPayload, second.rawPayload);
    expect(shared).toBeGreaterThan(100);
    // Without gzip among what the browser takes, brotli of the whole page; without either, plain.
    const br = await page(`/verify/${rows[0]!.id}`, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toContain('data-verdict="authentic"');
    const preferred = await page(`/verify/${rows[0]!.id}`, { 'accept-encoding': 'br;q=1, gzip;q=0.5' });
    expect(preferred.headers['content-encoding']).toBe('br');
    const plain = await page(`/verify/${rows[0]!.id}`, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('data-verdict="authentic"');
  });
});

function firstDifference(a: Buffer, b: Buffer): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
