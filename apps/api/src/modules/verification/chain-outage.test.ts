// Chain down means "could not check" (ADR 0137): the API's chain goes through a TCP proxy the test
// hangs and restores, with a staleness bound of 5 s. Once the process's view of the revocations is
// older than the bound, no path answers "authentic" (by id, the server-rendered page, an upload,
// a QR) and readiness says degraded with the chain's state; once the chain is back, everything is
// authentic again without a restart. Then the QR path and a batch revoked whole (item 3).
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connectChain, createRegistry } from '@sceau/chain';
import { readinessResponse } from '@sceau/contracts';
import { encodeQrPayload, verifyQrPayload } from '@sceau/credential';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { diplomas, generations } from '../../db/schema.ts';
import { JobQueue } from '../../jobs/job-queue.ts';
import { seedDemoBatch } from '../../seed/demo-batch.ts';
import { createServices, type Services } from '../../services.ts';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';
import { registry } from '../../prometheus/metrics.ts';
import { TcpProxy } from '../../../test/tcp-proxy.ts';
import type { OpenChain } from '../chain/open-chain.ts';

const INDEX = `<!doctype html><html lang="fr"><head><!--sceau-config--><title>Sceau</title></head><body><div id="root"></div><!--/root--></body></html>`;
const BOUND_SECONDS = 5;

let ctx: ChainTestContext;
let dist: string;
let proxy: TcpProxy;
let queue: JobQueue;
let services: Services;
let app: App;
let rows: (typeof diplomas.$inferSelect)[];
let root: string;
let stopWatching: () => void;

type Data = { verdict: string; checks: Array<{ name: string; status: string; code: string; message: string; details: Record<string, unknown> | null }> };

const byId = async (id: string, locale = 'fr'): Promise<Data> => (await app.inject({ method: 'GET', url: `/api/verify/${id}`, headers: { 'x-locale': locale } })).json().data;
const page = async (id: string) => (await app.inject({ method: 'GET', url: `/verify/${id}` })).body;
const ready = async () => app.inject({ method: 'GET', url: '/api/health/ready' });
const gauge = async (name: string) => (await registry.getSingleMetric(name)!.get()).values[0]?.value;
const check = (data: Data, name: string) => data.checks.find((c) => c.name === name)!;

function upload(fields: { pdf?: Uint8Array; url?: string }): Promise<Data> {
  const boundary = '----sceau-outage';
  const chunks: Buffer[] = [];
  if (fields.url !== undefined) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="cert_url"\r\n\r\n${fields.url}\r\n`));
  if (fields.pdf) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="cert_document"; filename="d.pdf"\r\nContent-Type: application/pdf\r\n\r\n`));
    chunks.push(Buffer.from(fields.pdf), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return app
    .inject({ method: 'POST', url: '/api/generations/verify', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(chunks) })
    .then((res) => res.json().data);
}

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'sceau-outage-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), INDEX);
  ctx = await createChainTestApp({ PUBLIC_URL: 'http://diplomes.test', WEB_DIST: dist, REVOCATION_MAX_STALENESS_SECONDS: String(BOUND_SECONDS) });
  // Issued on the chain directly; the app under test reaches the same chain through the proxy only.
  const seeding = createServices(ctx.db, ctx.config, { identity: { keys: ctx.keys, chain: ctx.chain } });
  const batchId = await seedDemoBatch(ctx.db, seeding.storage, seeding.issuing!);
  rows = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId));
  root = (await ctx.db.select().from(generations).where(eq(generations.id, batchId)))[0]!.merkleRoot!;

  proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(ctx.chain.local!.rpcUrl).port) });
  const connection = connectChain({ rpcUrl: `http://127.0.0.1:${proxy.port}`, chainId: ctx.chain.chainId, requestTimeoutMs: 2_000, retryCount: 0 });
  const proxied: OpenChain = { ...ctx.chain, connection, registry: createRegistry(connection, ctx.chain.address), close: async () => {} };
  queue = new JobQueue(ctx.databaseUrl, ctx.log);
  await queue.start({ work: false });
  services = createServices(ctx.db, ctx.config, { identity: { keys: ctx.keys, chain: proxied }, queue });
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  stopWatching = services.verification!.watchRevocations();
  await vi.waitFor(() => expect(services.verification!.revocationStatus().current).toBe(true), { timeout: 20_000, interval: 50 });
}, 120_000);

afterAll(async () => {
  stopWatching?.();
  await app?.close();
  await queue?.stop();
  await proxy?.close();
  await ctx?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

describe('chain down means "could not check" (ADR 0137)', () => {
  it('every path answers authentic while the chain answers, could-not-check once the view is older than the bound, and authentic again when it is back', async () => {
    const pdf = (await services.storage.get(rows[2]!.pdfKey!))!;
    const authenticEverywhere = async () => {
      expect((await byId(rows[0]!.id)).verdict).toBe('authentic');
      expect(await page(rows[1]!.id)).toContain('data-verdict="authentic"');
      expect((await upload({ pdf })).verdict).toBe('authentic');
      expect((await upload({ url: rows[3]!.qrPayload })).verdict).toBe('authentic');
    };
    // Answered, and now cached (answers, texts, chain reads).
    await authenticEverywhere();
    const before = await ready();
    expect(before.statusCode).toBe(200);
    const healthy = readinessResponse.parse(before.json());
    expect(healthy).toMatchObject({ status: 'ready', checks: { chain: 'ok' }, chain: { reachable: true, max_staleness_seconds: BOUND_SECONDS } });
    expect(healthy.chain.last_block).toBeGreaterThan(0);
    expect(healthy.chain.index_lag_seconds).toBeLessThan(BOUND_SECONDS);

    // A hung node (connections open, nothing answers): each read would wait for its 2 s timeout.
    proxy.hang();
    await vi.waitFor(() => expect(services.verification!.chainView().stale).toBe(true), { timeout: 20_000, interval: 100 });

    // Cached by id (answer and its serialised text), a diploma never asked, the page, an upload, a QR: none authentic.
    for (const id of [rows[0]!.id, rows[4]!.id]) {
      const data = await byId(id, 'en');
      expect(data.verdict).toBe('incomplete');
      expect(check(data, 'not_revoked')).toMatchObject({ status: 'not-checked', code: 'chain_unreachable', message: 'The blockchain could not be reached.' });
    }
    const html = await page(rows[1]!.id);
    expect(html).toContain('data-verdict="incomplete"');
    expect(html).not.toContain('data-verdict="authentic"');
    expect(html).toContain('data-check="not_revoked" data-status="not-checked"');
    const uploaded = await upload({ pdf });
    expect(uploaded.verdict).toBe('incomplete');
    expect(check(uploaded, 'not_revoked').status).toBe('not-checked');
    const scanned = await upload({ url: rows[3]!.qrPayload });
    expect(scanned.verdict).toBe('incomplete');
    expect(check(scanned, 'not_revoked').status).toBe('not-checked');
    // The watcher knows the chain is down: a diploma never asked is answered without waiting on the node.
    const started = performance.now();
    expect((await byId(rows[5]!.id)).verdict).toBe('incomplete');
    expect(performance.now() - started).toBeLessThan(1_500);

    // Readiness: degraded (still serving), the chain's state; liveness unchanged.
    const degraded = await ready();
    expect(degraded.statusCode).toBe(200);
    const state = readinessResponse.parse(degraded.json());
    expect(state).toMatchObject({ status: 'degraded', checks: { database: 'ok', chain: 'failing', jobs: 'ok' }, chain: { reachable: false } });
    expect(state.chain.last_block).toBeGreaterThanOrEqual(healthy.chain.last_block!); // the last block the watcher saw
    expect(state.chain.index_lag_seconds).toBeGreaterThan(BOUND_SECONDS);
    expect((await app.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({ status: 'ok' });
    // Prometheus: the chain unreachable, the index's lag past the bound.
    expect(await gauge('sceau_chain_reachable')).toBe(0);
    expect(await gauge('sceau_revocation_index_lag_seconds')).toBeGreaterThan(BOUND_SECONDS);
    expect(await gauge('sceau_chain_last_block')).toBe(state.chain.last_block);

    proxy.resume();
    await vi.waitFor(() => expect(services.verification!.revocationStatus().current).toBe(true), { timeout: 20_000, interval: 100 });
    await authenticEverywhere();
    expect((await byId(rows[4]!.id)).verdict).toBe('authentic');
    expect(readinessResponse.parse((await ready()).json())).toMatchObject({ status: 'ready', checks: { chain: 'ok' }, chain: { reachable: true } });
    expect(await gauge('sceau_chain_reachable')).toBe(1);
    expect(await gauge('sceau_revocation_index_lag_seconds')).toBeLessThan(BOUND_SECONDS);
  });

  it('a cached answer is kept only while the view behind it is within the bound: without a watcher, it is checked on the chain again', async () => {
    // A second process that does not watch the chain: its answers rest on their own chain reads.
    const other = createServices(ctx.db, ctx.config, { identity: { keys: ctx.keys, chain: ctx.chain } });
    const input = { diplomaId: rows[6]!.id };
    expect((await other.verification!.verify(input)).verdict).toBe('authentic');
    expect(other.verification!.isCached(input)).toBe(true);
    const reads = vi.spyOn(ctx.chain.registry, 'isRevoked');
    try {
      await vi.waitFor(() => expect(other.verification!.isCached(input)).toBe(false), { timeout: (BOUND_SECONDS + 5) * 1000, interval: 200 });
      expect((await other.verification!.verify(input)).verdict).toBe('authentic');
      expect(reads).toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
  });

  it('the QR path checks the batch: a QR of a diploma whose whole batch is revoked says revoked; a QR alone never says "not revoked" for its batch', async () => {
    const target = rows[7]!;
    // A QR signed by the ministry for a diploma this platform does not hold: only the QR's own hash is known.
    const jwks = ctx.keys.jwks();
    const read = verifyQrPayload(target.qrPayload, jwks);
    if (read.status !== 'valid') throw new Error('the seeded QR does not verify');
    const alone = (await encodeQrPayload({ ...read.fields, diploma_id: randomBytes(16).toString('base64url') }, ctx.keys.active.es256)).text;
    const qrOnly = await upload({ url: alone });
    expect(check(qrOnly, 'not_revoked')).toMatchObject({ status: 'not-checked', code: 'batch_unchecked' });
    expect(qrOnly.verdict).toBe('incomplete');

    await ctx.chain.registry.revoke(`0x${root}`, 'Session annulée');
    await vi.waitFor(
      async () => {
        const scanned = await upload({ url: target.qrPayload });
        expect(scanned.verdict).toBe('revoked');
        expect(check(scanned, 'not_revoked')).toMatchObject({ status: 'failed', code: 'batch_revoked' });
      },
      { timeout: 15_000, interval: 200 },
    );
    // Never "passed" from the QR alone, whose batch is now revoked.
    expect(check(await upload({ url: alone }), 'not_revoked').status).not.toBe('passed');
  });
});
