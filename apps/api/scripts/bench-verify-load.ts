// The load generator of `npm run bench:verify`, in a process of its own so that it shares the
// machine with the server as a client would (bench-verify.ts forks it, once per endpoint).
// It reads its plan (a JSON file named by argv[2]), runs autocannon, or wrk (a load generator in C,
// `--generator wrk`) for the measured by-id and candidate-check runs, for a bounded time with a bounded
// number of connections, and sends its figures back to the parent over IPC, with the CPU time the
// generator itself took per request (what it took from the server on this shared machine).
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
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
  /** The load generator: autocannon (Node, the default) or wrk (C; by-id and candidate-check runs with a duration). */
  generator?: 'autocannon' | 'wrk';
  /** by-id and candidate-check: the Accept-Encoding every request sends (a phone's browser sends one); none when absent. */
  acceptEncoding?: string;
  /** autocannon: requests per second over all connections (a steady load below saturation) instead of as many as answered. */
  rate?: number;
  /** by-id: ask for the verdict's HTML page (`/verify/{id}`, what a scanned QR code opens) instead of the API's answer. */
  page?: boolean;
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
  /** Which generator made the load, and the CPU time (user + system) it took per request. */
  generator: 'autocannon' | 'wrk';
  generatorMsPerRequest: number;
  /** The bytes of an answer as received (status line, headers and body, compressed when it was), on average. */
  bytesPerResponse: number;
}

const plan = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as LoadPlan;
const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
let next = 0;
const client = () => address(1 + ((next++ * 7919) % plan.clients));
const random = () => Math.random();
/** The Accept-Encoding header of the by-id and candidate-check requests, when the plan sends one. */
const encoding: Record<string, string> = plan.acceptEncoding ? { 'accept-encoding': plan.acceptEncoding } : {};
/** by-id: the path asked for an id, and what a browser opening it accepts. */
const byIdPath = plan.page ? '/verify/' : '/api/verify/';
const byIdAccept = plan.page ? 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' : 'application/json';
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
          return {
            ...req,
            path: `${byIdPath}${id}`,
            headers: { ...req.headers, ...encoding, accept: byIdAccept, 'x-forwarded-for': client(), 'accept-language': random() < 0.3 ? 'en' : 'fr' },
          };
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
        headers: { ...req.headers, ...encoding, 'content-type': 'application/json', 'x-forwarded-for': client() },
      }),
    },
  ];
}

const withWrk = plan.generator === 'wrk' && plan.kind !== 'pdf-upload' && !plan.amount && !plan.rate;
const out = withWrk ? await viaWrk() : await viaAutocannon();
process.send!(out);
process.disconnect();

/** Milliseconds with one decimal. */
function ms(value: number): number {
  return +value.toFixed(1);
}

async function viaAutocannon(): Promise<LoadResult> {
  const requests = await requestsOf();
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  // Every response's time (ms), for percentiles autocannon does not give (p95).
  let times = new Float64Array(1 << 16);
  let answered = 0;
  let received = 0;
  // With no callback autocannon returns its tracker (an event emitter) made awaitable.
  const run = autocannon({
    url: plan.url,
    connections: plan.connections,
    pipelining: 1,
    timeout: 10,
    ...(plan.amount ? { amount: plan.amount } : { duration: plan.seconds }),
    ...(plan.rate ? { overallRate: plan.rate } : {}),
    requests,
  }) as unknown as Promise<autocannon.Result> & Pick<autocannon.Instance, 'on'>;
  run.on('response', (_client: unknown, _status: number, bytes: number, ms: number) => {
    received += bytes;
    if (answered === times.length) {
      const grown = new Float64Array(times.length * 2);
      grown.set(times);
      times = grown;
    }
    times[answered++] = ms;
  });
  const result = await run;
  const used = process.cpuUsage(cpu);
  const sorted = times.subarray(0, answered).sort();
  const percentile = (p: number) => (answered ? ms(sorted[Math.min(answered - 1, Math.ceil((p / 100) * answered) - 1)]!) : 0);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const total = result.requests.total;
  const failed = result.non2xx + result.errors + result.timeouts;
  const statusCodes: Record<string, number> = {};
  for (const [code, n] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = (n as { count: number }).count;
  return {
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
    generator: 'autocannon',
    generatorMsPerRequest: total ? +((used.user + used.system) / 1000 / total).toFixed(3) : 0,
    bytesPerResponse: answered ? Math.round(received / answered) : 0,
  };
}

/**
 * The same load from wrk (Debian's `wrk`: C, one epoll loop per thread, Lua for the requests), so
 * that the generator takes less of the machine the server shares with it. Its script gives each
 * thread its share of the ids (a cold walk: thread t sends ids t, t + T, …, each once) or of the
 * bodies, with the same client addresses and languages as autocannon's, and prints its figures as
 * one JSON line. Its CPU time is read from /proc while it runs (its last reading, a few ms before it exits).
 */
async function viaWrk(): Promise<LoadResult> {
  const dir = path.dirname(process.argv[2]!);
  const threads = 2;
  const data = path.join(dir, `wrk-${process.pid}.txt`);
  const script = path.join(dir, `wrk-${process.pid}.lua`);
  const byId = plan.kind === 'by-id';
  await writeFile(data, `${((byId ? plan.ids : plan.bodies) ?? []).join('\n')}\n`);
  await writeFile(script, wrkScript(byId));
  const args = [
    '-t',
    String(threads),
    '-c',
    String(plan.connections),
    '-d',
    `${plan.seconds}s`,
    '--timeout',
    '10s',
    '-s',
    script,
    plan.url,
    '--',
    data,
    String(threads),
    String(plan.clients),
    String(plan.unknownShare ?? 0),
    plan.walk ? 'walk' : 'random',
  ];
  const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const tick = 1000 / 100; // ms per USER_HZ tick
  let cpuMs = 0;
  const poll = setInterval(() => {
    void readFile(`/proc/${child.pid}/stat`, 'utf8')
      .then((stat) => {
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        cpuMs = (Number(fields[11]) + Number(fields[12])) * tick;
      })
      .catch(() => undefined);
  }, 100);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', (error) => reject(new Error(`wrk could not start (apt-get install wrk): ${error.message}`)));
    child.on('exit', resolve);
  });
  clearInterval(poll);
  const json = stdout.split('\n').find((l) => l.startsWith('{"wrk":'));
  if (code !== 0 || !json) throw new Error(`wrk exited with ${code}: ${stdout.slice(-500)}`);
  const w = JSON.parse(json) as {
    wrk: true;
    requests: number;
    seconds: number;
    p50: number;
    p90: number;
    p95: number;
    p99: number;
    max: number;
    status: number;
    connect: number;
    read: number;
    write: number;
    timeout: number;
    bytes: number;
  };
  const errors = w.connect + w.read + w.write;
  const failed = errors + w.status + w.timeout;
  return {
    kind: plan.kind,
    requests: w.requests,
    seconds: +w.seconds.toFixed(2),
    rps: Math.round(w.requests / w.seconds),
    p50Ms: ms(w.p50 / 1000),
    p90Ms: ms(w.p90 / 1000),
    p95Ms: ms(w.p95 / 1000),
    p99Ms: ms(w.p99 / 1000),
    maxMs: Math.round(w.max / 1000),
    non2xx: w.status,
    errors,
    timeouts: w.timeout,
    errorRate: w.requests ? +(failed / w.requests).toFixed(4) : 0,
    // wrk counts answers of 400 and more, not each code.
    statusCodes: { '2xx/3xx': w.requests - w.status, '4xx/5xx': w.status },
    ...(byId && plan.walk ? { distinctBodies: Math.min(w.requests, plan.ids?.length ?? 0) } : {}),
    generator: 'wrk',
    generatorMsPerRequest: w.requests ? +(cpuMs / w.requests).toFixed(3) : 0,
    bytesPerResponse: w.requests ? Math.round(w.bytes / w.requests) : 0,
  };
}

/** wrk's Lua script: arguments are the data file (one id or JSON body a line), threads, client addresses, unknown share, walk|random. */
function wrkScript(byId: boolean): string {
  // The Accept-Encoding of the plan, first of each request's headers (a Lua table entry).
  const luaEncoding = plan.acceptEncoding ? `["accept-encoding"] = ${JSON.stringify(plan.acceptEncoding)}, ` : '';
  return `
local counter = 0
function setup(thread)
  thread:set("index", counter)
  counter = counter + 1
end

function init(args)
  items = {}
  for line in io.lines(args[1]) do
    if #line > 0 then items[#items + 1] = line end
  end
  threads = tonumber(args[2])
  clients = tonumber(args[3])
  unknown = tonumber(args[4])
  walk = args[5] == "walk"
  step = 0
  sent = 0
  math.randomseed(os.time() + index * 7919)
end

local alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
local function unknown_id()
  local t = {}
  for i = 1, 22 do
    local k = math.random(1, 64)
    t[i] = alphabet:sub(k, k)
  end
  return table.concat(t)
end

local function client()
  sent = sent + 1
  local i = 1 + ((sent * threads + index) * 7919) % clients
  return string.format("10.%d.%d.%d", math.floor(i / 65536) % 256, math.floor(i / 256) % 256, i % 256)
end

function request()
  ${
    byId
      ? `local id
  if unknown > 0 and math.random() < unknown then
    id = unknown_id()
  elseif walk then
    id = items[1 + (index + step * threads) % #items]
    step = step + 1
  else
    id = items[math.random(1, #items)]
  end
  local language = math.random() < 0.3 and "en" or "fr"
  return wrk.format("GET", ${JSON.stringify(byIdPath)} .. id, { ${luaEncoding}["accept"] = ${JSON.stringify(byIdAccept)}, ["x-forwarded-for"] = client(), ["accept-language"] = language })`
      : `local body = items[1 + (index + step * threads) % #items]
  step = step + 1
  return wrk.format("POST", "/api/v2/verify-candidate", { ${luaEncoding}["content-type"] = "application/json", ["x-forwarded-for"] = client() }, body)`
  }
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"wrk":true,"requests":%d,"seconds":%f,"p50":%d,"p90":%d,"p95":%d,"p99":%d,"max":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"bytes":%d}\\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50), latency:percentile(90), latency:percentile(95), latency:percentile(99), latency.max,
    e.status, e.connect, e.read, e.write, e.timeout, summary.bytes))
end
`;
}
