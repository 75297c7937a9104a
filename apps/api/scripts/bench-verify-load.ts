// The load generator of `npm run bench:verify`, in a process of its own so that it shares the
// machine with the server as a client would (bench-verify.ts forks it, once per endpoint).
// It reads its plan (a JSON file named by argv[2]), runs autocannon for a bounded time with a bounded number
// of connections, and sends its figures back to the parent over IPC.
import { readFile } from 'node:fs/promises';
import autocannon from 'autocannon';

export interface LoadPlan {
  kind: 'by-id' | 'pdf-upload' | 'candidate-check';
  url: string;
  seconds: number;
  connections: number;
  /** Simulated client addresses (X-Forwarded-For; the server trusts its proxy). */
  clients: number;
  /** by-id: the ids to spread the load over, and the share of unknown ids. */
  ids?: string[];
  unknownShare?: number;
  /** by-id: walk the ids in order, each once (a cold cache: every request a diploma not asked before), instead of drawing them at random. */
  walk?: boolean;
  /** pdf-upload: files of distinct diploma PDFs, sent in turn. */
  pdfFiles?: string[];
  /** candidate-check: JSON bodies, sent in turn. */
  bodies?: string[];
  /** A count of requests instead of a duration (warm-up passes). */
  amount?: number;
}

export interface LoadResult {
  kind: LoadPlan['kind'];
  requests: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p90Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  errorRate: number;
  statusCodes: Record<string, number>;
  /** pdf-upload and a walk over ids: how many distinct files or ids were sent (beyond, requests repeat and may be answered from the cache). */
  distinctBodies?: number;
}

const plan = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as LoadPlan;
const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
let next = 0;
const client = () => address(1 + ((next++ * 7919) % plan.clients));
const random = () => Math.random();
const unknownId = () => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let id = '';
  for (let i = 0; i < 22; i++) id += alphabet[Math.floor(random() * 64)];
  return id;
};

async function requestsOf(): Promise<autocannon.Request[]> {
  if (plan.kind === 'by-id') {
    const ids = plan.ids ?? [];
    const unknown = plan.unknownShare ?? 0;
    let i = 0;
    return [
      {
        method: 'GET',
        setupRequest: (req) => {
          // A warm-up pass and a cold run walk the ids in order; the cached runs draw them at random.
          const id = random() < unknown ? unknownId() : plan.amount || plan.walk ? ids[i++ % ids.length]! : ids[Math.floor(random() * ids.length)]!;
          return { ...req, path: `/api/verify/${id}`, headers: { ...req.headers, 'x-forwarded-for': client(), 'accept-language': random() < 0.3 ? 'en' : 'fr' } };
        },
      },
    ];
  }
  if (plan.kind === 'pdf-upload') {
    const boundary = '----sceau-bench-verify';
    const bodies = await Promise.all(
      (plan.pdfFiles ?? []).map(async (file) =>
        Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="cert_document"; filename="diplome.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
          await readFile(file),
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      ),
    );
    let i = 0;
    return [
      {
        method: 'POST',
        setupRequest: (req) => {
          const body = bodies[i++ % bodies.length]!;
          return {
            ...req,
            path: '/api/generations/verify',
            body,
            headers: { ...req.headers, 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-forwarded-for': client() },
          };
        },
      },
    ];
  }
  const bodies = plan.bodies ?? [];
  let i = 0;
  return [
    {
      method: 'POST',
      setupRequest: (req) => ({
        ...req,
        path: '/api/v2/verify-candidate',
        body: bodies[i++ % bodies.length]!,
        headers: { ...req.headers, 'content-type': 'application/json', 'x-forwarded-for': client() },
      }),
    },
  ];
}

const requests = await requestsOf();
const started = process.hrtime.bigint();
// Every response's time (ms), for percentiles autocannon does not give (p95).
let times = new Float64Array(1 << 16);
let answered = 0;
// With no callback autocannon returns its tracker (an event emitter) made awaitable.
const run = autocannon({
  url: plan.url,
  connections: plan.connections,
  pipelining: 1,
  timeout: 10,
  ...(plan.amount ? { amount: plan.amount } : { duration: plan.seconds }),
  requests,
}) as unknown as Promise<autocannon.Result> & Pick<autocannon.Instance, 'on'>;
run.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
  if (answered === times.length) {
    const grown = new Float64Array(times.length * 2);
    grown.set(times);
    times = grown;
  }
  times[answered++] = ms;
});
const result = await run;
const sorted = times.subarray(0, answered).sort();
const percentile = (p: number) => (answered ? +sorted[Math.min(answered - 1, Math.ceil((p / 100) * answered) - 1)]!.toFixed(1) : 0);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const total = result.requests.total;
const failed = result.non2xx + result.errors + result.timeouts;
const statusCodes: Record<string, number> = {};
for (const [code, n] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = (n as { count: number }).count;
const out: LoadResult = {
  kind: plan.kind,
  requests: total,
  seconds: +seconds.toFixed(2),
  rps: Math.round(total / (plan.amount ? seconds : result.duration)),
  p50Ms: percentile(50),
  p90Ms: percentile(90),
  p95Ms: percentile(95),
  p99Ms: percentile(99),
  maxMs: result.latency.max,
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  errorRate: total ? +(failed / total).toFixed(4) : 0,
  statusCodes,
  ...(plan.kind === 'pdf-upload' ? { distinctBodies: Math.min(total, plan.pdfFiles?.length ?? 0) } : {}),
  ...(plan.kind === 'by-id' && plan.walk ? { distinctBodies: Math.min(total, plan.ids?.length ?? 0) } : {}),
};
process.send!(out);
process.disconnect();
