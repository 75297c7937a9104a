import cluster from 'node:cluster';
import { createServer, type Server } from 'node:http';
import { AggregatorRegistry } from 'prom-client';
import { registry } from './metrics.ts';

type MetricsJson = Awaited<ReturnType<typeof registry.getMetricsAsJSON>>;
const REQUEST = 'sceau:metrics-request';
const ANSWER = 'sceau:metrics-answer';
/** A process that does not answer in time is left out of this scrape rather than failing it. */
const ANSWER_TIMEOUT_MS = 2_000;

/** In an HTTP process of a cluster: answers its primary's requests with this process's metrics. */
export function answerMetricsRequests(): void {
  process.on('message', (message: { type?: string; id?: number }) => {
    if (message?.type !== REQUEST) return;
    void registry.getMetricsAsJSON().then((metrics) => process.send?.({ type: ANSWER, id: message.id, metrics }));
  });
}

let nextRequest = 0;

/** This process's metrics and, in a cluster's primary, those of every HTTP process it forked. */
async function everyProcess(): Promise<MetricsJson[]> {
  const own = await registry.getMetricsAsJSON();
  if (!cluster.isPrimary) return [own];
  const workers = Object.values(cluster.workers ?? {}).filter((w) => w?.isConnected());
  const id = nextRequest++;
  const answers = await Promise.all(
    workers.map(
      (worker) =>
        new Promise<MetricsJson | null>((resolve) => {
          const onMessage = (message: { type?: string; id?: number; metrics?: MetricsJson }) => {
            if (message?.type !== ANSWER || message.id !== id) return;
            done(message.metrics ?? null);
          };
          const timer = setTimeout(() => done(null), ANSWER_TIMEOUT_MS);
          const done = (metrics: MetricsJson | null) => {
            clearTimeout(timer);
            worker!.off('message', onMessage);
            resolve(metrics);
          };
          worker!.on('message', onMessage);
          worker!.send({ type: REQUEST, id });
        }),
    ),
  );
  return [own, ...answers.filter((a): a is MetricsJson => a !== null)];
}

/**
 * The metrics in Prometheus's text format. Several processes are added up by prom-client's
 * AggregatorRegistry (counters and histograms summed, so totals cover the cluster); one process is
 * served as is.
 */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  const all = await everyProcess();
  if (all.length === 1) return { contentType: registry.contentType, body: await registry.metrics() };
  const merged = AggregatorRegistry.aggregate(all);
  return { contentType: merged.contentType, body: await merged.metrics() };
}

/**
 * `GET /metrics` on a port of its own (ADR 0122), on loopback unless `METRICS_HOST` says otherwise:
 * nothing on the public port, no token to leak; Prometheus scrapes it on the machine or through
 * the network the operators choose.
 */
export async function startMetricsServer(host: string, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at /metrics\n');
      return;
    }
    metricsText().then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
      (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics could not be collected: ${(error as Error).message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
