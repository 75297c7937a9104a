import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pdfWithInflatingContents, pdfWithObjects } from '@sceau/verifier/hostile-pdfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { createServices } from '../../services.ts';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';

// ADR 0114: an uploaded PDF that is not the ministry's own is parsed in a thread with limits.

let ctx: ChainTestContext;
let app: App;
let base: string;

beforeAll(async () => {
  ctx = await createChainTestApp({ PUBLIC_URL: 'http://diplomes.test' });
  const services = createServices(ctx.db, ctx.config, { identity: { keys: ctx.keys, chain: ctx.chain } });
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  // Over a real socket: the health checks below share the event loop with the upload, as in production.
  base = await app.listen({ host: '127.0.0.1', port: 0 });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await ctx?.close();
});

function upload(pdf: Uint8Array, locale: 'fr' | 'en') {
  const form = new FormData();
  form.append('cert_document', new Blob([pdf], { type: 'application/pdf' }), 'diplome.pdf');
  return fetch(`${base}/api/generations/verify`, { method: 'POST', body: form, headers: { 'x-locale': locale } });
}

/**
 * Sends `pdf` and, until its answer, asks GET /api/health every 50 ms; measures the answer's time,
 * the slowest health answer, the event loop's largest delay and the process's largest RSS growth.
 */
async function attack(pdf: Uint8Array, locale: 'fr' | 'en') {
  const rss0 = process.memoryUsage().rss;
  let peakRss = rss0;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  const started = performance.now();
  let done = false;
  const answer = upload(pdf, locale).then(async (res) => ({ status: res.status, body: (await res.json()) as { code: string; errors?: Record<string, string[]> } }));
  void answer.finally(() => (done = true));
  const health: { status: number; ms: number }[] = [];
  while (!done) {
    const sent = performance.now();
    const res = await fetch(`${base}/api/health`);
    await res.arrayBuffer();
    health.push({ status: res.status, ms: performance.now() - sent });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const result = await answer;
  const ms = performance.now() - started;
  clearInterval(sampler);
  delay.disable();
  return { ...result, ms, health, maxLoopDelayMs: delay.max / 1e6, rssGrowthMb: (peakRss - rss0) / 1024 / 1024 };
}

describe('verification of a hostile PDF upload', () => {
  it('a million objects (4.3 MB): refused with a translated 422 in bounded time and memory, health answering meanwhile', async () => {
    const pdf = pdfWithObjects(1_000_000);
    expect(pdf.length).toBeLessThan(5 * 1024 * 1024);
    const fr = await attack(pdf, 'fr');
    expect(fr.status).toBe(422);
    expect(fr.body.errors?.cert_document).toEqual([expect.stringMatching(/^Ce document n'a pas pu être analysé/)]);
    // Before ADR 0114: ~15-40 s of CPU on the event loop and ~450 MB. Generous bounds, not a benchmark.
    expect(fr.ms).toBeLessThan(20_000);
    expect(fr.rssGrowthMb).toBeLessThan(200);
    expect(fr.health.length).toBeGreaterThan(0);
    // Loose on purpose (a loaded 2-core machine): the point is that health is answered meanwhile.
    expect(fr.health.every((h) => h.status === 200 && h.ms < 5_000)).toBe(true);
    expect(fr.maxLoopDelayMs).toBeLessThan(3_000);

    const en = await attack(pdf, 'en');
    expect(en.status).toBe(422);
    expect(en.body.errors?.cert_document).toEqual([expect.stringMatching(/^This document could not be analysed/)]);
  }, 120_000);

  it('a deflate bomb in the page contents (200 MB of spaces in 200 KB): refused the same way', async () => {
    const pdf = pdfWithInflatingContents(200 * 1024 * 1024);
    const res = await attack(pdf, 'en');
    expect(res.status).toBe(422);
    expect(res.body.errors?.cert_document?.[0]).toMatch(/could not be analysed/);
    expect(res.ms).toBeLessThan(20_000);
    expect(res.rssGrowthMb).toBeLessThan(200);
  }, 120_000);

  it('a foreign PDF within the limits still gets its usual answer (parsed in the thread: not a diploma, unsigned)', async () => {
    const res = await upload(pdfWithObjects(1_000), 'en');
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { verdict: string; checks: { name: string; code: string }[] } };
    expect(data.verdict).toBe('altered');
    expect(data.checks.map((c) => `${c.name}:${c.code}`)).toEqual(expect.arrayContaining(['integrity:not_a_diploma', 'pdf_signature:pdf_unsigned']));
  }, 60_000);
});
