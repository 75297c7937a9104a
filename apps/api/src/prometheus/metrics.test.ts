import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import { connect } from 'node:net';
import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanUpPlatforms, demoBatch, freePort, makeDataDir, platformChildren, platformEnv, PlatformProcess } from '../../test/server-process.ts';

// The real platform as `npm run serve` starts it, with METRICS_PORT: scraped after a few requests
// and verifications, alone and as a cluster of two API processes, then stopped by SIGINT.

let dataDir = '';
afterAll(() => cleanUpPlatforms([dataDir]), 60_000);

/** The value of one series (`name{labels}`), or undefined when it is not exposed. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrape(port: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
}

/** A GET on a connection of its own, so that a cluster's processes share the requests. */
function getOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(2_000, () => (socket.destroy(), resolve(false)));
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** SIGINT, as Ctrl-C: the exit code and what the server printed. */
async function interrupt(server: PlatformProcess): Promise<{ code: number | null; output: string }> {
  const exited = once(server.child, 'exit') as Promise<[number | null, string | null]>;
  server.child.kill('SIGINT');
  const [code] = await exited;
  return { code, output: server.output() };
}

function expectQuietStop({ code, output }: { code: number | null; output: string }) {
  expect(code, output).toBe(0);
  expect(output).toContain('Sceau stopped.');
  // No stack trace (pino puts it in "stack"; an uncaught error prints "    at …"), no error line.
  expect(output).not.toMatch(/\n\s+at |\\n\s+at |"stack"/);
  expect(output).not.toMatch(/"level":(50|60)/);
  expect(output).not.toContain('exited unexpectedly');
}

const processGroup = async (pid: number) => Number((await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ')[2]);

describe('Prometheus metrics on METRICS_PORT', () => {
  it('exposes HTTP, verification, issuing, queue and process series with route patterns, on loopback only, and stops quietly on SIGINT', { timeout: 180_000 }, async () => {
    dataDir = await makeDataDir('sceau-metrics-');
    const env = await platformEnv(dataDir, { DEMO_DATA: 'true', LOG_LEVEL: 'info', METRICS_PORT: String(await freePort()) });
    const server = await PlatformProcess.start(env);
    const base = server.base;

    const { batchId, diplomaIds } = await demoBatch(base);
    const id = diplomaIds[0]!;

    // A verification computed, the same answered from the cache, one by an uploaded link, one unknown.
    for (let i = 0; i < 2; i++) expect((await fetch(`${base}/verify/${id}`)).status).toBe(200);
    const form = new FormData();
    form.set('cert_url', `http://localhost/verify/${id}`);
    expect((await fetch(`${base}/generations/verify`, { method: 'POST', body: form })).status).toBe(200);
    expect((await fetch(`${base}/verify/AAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(200);
    expect((await fetch(`${base}/no-such-route/${id}`)).status).toBe(404);

    const text = await scrape(env.METRICS_PORT!);
    expect(value(text, 'sceau_http_requests_total{method="GET",route="/api/verify/:id",status="200"}')).toBe(3);
    expect(value(text, 'sceau_http_requests_total{method="POST",route="/api/generations/verify",status="200"}')).toBe(1);
    expect(value(text, 'sceau_http_requests_total{method="GET",route="/api/generations/:id",status="200"}')).toBe(1);
    expect(value(text, 'sceau_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(value(text, 'sceau_http_request_duration_seconds_count{method="GET",route="/api/verify/:id",status="200"}')).toBe(3);
    expect(value(text, 'sceau_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/verify/:id",status="200"}')).toBe(3);
    // Route labels are patterns: no id, no raw URL, in any series.
    expect(text).not.toContain(id);
    expect(text).not.toContain('no-such-route');
    const routes = new Set([...text.matchAll(/route="([^"]*)"/g)].map((m) => m[1]!));
    expect(routes).toContain('/api/generations/:id');
    for (const route of routes) expect(route).toMatch(/^(unmatched|\/[\w/:.*-]*)$/);
    for (const route of routes) expect(route.split('/')).not.toContain(String(batchId));
    expect(value(text, 'sceau_verifications_total{verdict="authentic",path="id"}')).toBe(3);
    expect(value(text, 'sceau_verifications_total{verdict="unknown",path="id"}')).toBe(1);
    // The demo batch: 12 diplomas issued and published, none revoked.
    expect(value(text, 'sceau_batches{status="completed"}')).toBe(1);
    expect(value(text, 'sceau_batches{status="in_progress"}')).toBe(0);
    expect(value(text, 'sceau_diplomas{state="issued"}')).toBe(12);
    expect(value(text, 'sceau_diplomas{state="published"}')).toBe(12);
    expect(value(text, 'sceau_diplomas{state="revoked"}')).toBe(0);
    expect(value(text, 'sceau_job_queue_depth{queue="generation.generate",state="ready"}')).toBe(0);
    expect(value(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(value(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);

    // Only on loopback: the machine's other address serves the platform's port, not the metrics'.
    const outside = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    if (outside) {
      expect(await accepts(outside, Number(env.PORT))).toBe(true);
      expect(await accepts(outside, Number(env.METRICS_PORT))).toBe(false);
    }
    expect((await fetch(`http://127.0.0.1:${env.METRICS_PORT}/other`)).status).toBe(404);

    // Ctrl-C signals the terminal's whole process group: PostgreSQL and Anvil are outside it, so
    // they stop when the platform stops them, last.
    const children = await platformChildren(dataDir);
    expect(children.map((c) => c.name).sort()).toEqual(['anvil', 'postgres']);
    for (const child of children) expect(await processGroup(child.pid)).not.toBe(await processGroup(server.child.pid!));
    expectQuietStop(await interrupt(server));
    expect(await platformChildren(dataDir)).toEqual([]);
  });

  it('adds up the processes of a cluster (API_PROCESSES=2), and stops quietly on SIGINT', { timeout: 180_000 }, async () => {
    const env = await platformEnv(dataDir, { LOG_LEVEL: 'info', API_PROCESSES: '2', METRICS_PORT: String(await freePort()) });
    const server = await PlatformProcess.start(env);
    const health = 'sceau_http_requests_total{method="GET",route="/api/health",status="200"}';
    const before = value(await scrape(env.METRICS_PORT!), health) ?? 0;
    for (let i = 0; i < 12; i++) expect(await getOnNewConnection(`${server.base}/health`)).toBe(200);
    const text = await scrape(env.METRICS_PORT!);
    // Every request counted once, whichever process answered it (connections alternate between them).
    expect(value(text, health)! - before).toBe(12);
    expect(value(text, 'sceau_diplomas{state="issued"}')).toBe(12);
    expectQuietStop(await interrupt(server));
  });

  it('stops in order on SIGINT while its API processes are still starting: PostgreSQL and Anvil stopped too', { timeout: 180_000 }, async () => {
    const dir = await makeDataDir('sceau-metrics-start-');
    try {
      const env = await platformEnv(dir, { LOG_LEVEL: 'info', API_PROCESSES: '2', METRICS_PORT: String(await freePort()) });
      const server = PlatformProcess.launch(env);
      // The metrics port opens just before the API processes are forked; they take seconds to start.
      await server.waitForOutput(/"msg":"metrics on http/);
      expect(server.output()).not.toContain('API process listening');
      expectQuietStop(await interrupt(server));
      expect(await platformChildren(dir)).toEqual([]);
    } finally {
      await cleanUpPlatforms([dir]);
    }
  });
});
