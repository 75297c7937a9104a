// Loads the public verification endpoints on 127.0.0.1 and prints what they sustain: requests per
// second, p50/p95/p99 latency and the error rate, per scenario, against a database of 100,000
// diplomas (docs/performance.md, "Verification").
//
//   npm run bench:verify [-- --seconds 10] [--diplomas 100000] [--ids 20000] [--connections 32] [--keep]
//                        [--only by-id-cold,page-cold,by-id,pdf-upload,candidate-check] [--cpu-prof DIR]
//                        [--log-level info] [--processes N] [--generator autocannon|wrk] [--accept-encoding 'gzip, deflate, br, zstd'|none]
//                        [--steady-rate 1000]
//
// The scenarios: by id with a cold cache (every request a diploma no one asked for before, as on
// results day when each candidate checks their own), the same as the verdict's HTML page a scanned
// QR code opens (`/verify/{id}`, with the web build when there is one), by id over a working set already answered
// once (cached), PDF upload, and the candidate check. The server runs as a ministry would run it on
// results day: one API process per core (API_PROCESSES, ADR 0106; 2 here), behind the reverse proxy
// (TRUST_PROXY), the default per-address limits, log level warn (the hot routes log at warn anyway).
//
// The diplomas are real: salted credentials, Merkle trees, signed roots and QR payloads written by
// the issuing service's own credential phase, each batch anchored on the local chain. Only the
// diplomas whose PDF the upload test sends are rendered (the PDF stage is bench:issue's subject).
// The server is the platform's Fastify app with its services, in this process, or with
// `--processes N` the platform's own cluster of N HTTP processes on one port (server.ts, as
// `API_PROCESSES=N npm start` runs them); the load generator (autocannon, or wrk) runs in a child process
// so both share the machine as a server and its clients do.
// The last line printed is one JSON object: { byIdCold, pageCold, byId, pdfUpload, candidateCheck } with rps,
// p50Ms, p95Ms, p99Ms and errors (the error rate) each.
import { preparePhoto, diplomeEtatTemplate } from '@sceau/pdf';
import { fork, spawnSync } from 'node:child_process';
import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import pg from 'pg';
import { pino } from 'pino';
import sharp from 'sharp';
import { buildApp } from '../src/app.ts';
import { forkHttpProcesses } from '../src/cluster.ts';
import { loadConfig } from '../src/config.ts';
import { createDb, migrateDb, type Db } from '../src/db/client.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../src/db/embedded-postgres.ts';
import { diplomas, educProvinces, examSessions, generationItems, generations, institutionOptions, institutions, nationalResults } from '../src/db/schema.ts';
import { LocalFileStorage } from '../src/lib/storage.ts';
import { openChain, type OpenChain } from '../src/modules/chain/open-chain.ts';
import { moveGeneration, moveSignature } from '../src/modules/generations/generation-status.ts';
import type { IssuingService } from '../src/modules/generations/issuing-service.ts';
import { closeSharedRenderPool } from '../src/modules/generations/render-pool.ts';
import { loadMinistryKeys } from '../src/modules/keys/ministry-keys.ts';
import { seedCountryTemplate, seedDemoSignatures } from '../src/seed/demo-batch.ts';
import { seedCatalogue, seedDemo } from '../src/seed/seed.ts';
import { createServices } from '../src/services.ts';
import type { LoadPlan, LoadResult } from './bench-verify-load.ts';
import { describeMachineProbe, probeMachine } from '@sceau/process/machine-probe';
import { ensureFreeDisk, freePort, machineBusySince, machineCpu } from './bench-support.ts';

// ---- arguments -------------------------------------------------------------------------------
const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const seconds = Number(option('--seconds') ?? 10);
const diplomaCount = Number(option('--diplomas') ?? 100_000);
const connections = Number(option('--connections') ?? 32);
const keep = args.includes('--keep');
/**
 * The load generator of the measured by-id and candidate-check runs: autocannon (Node, in a child
 * process; the default, as every figure in docs/performance.md), or wrk (`--generator wrk`, Debian's
 * `wrk`, in C). Both send the same requests; wrk takes a third less CPU per request on this shared
 * machine, but in the runs of 2026-11-27 the server did no more requests for it and wrk's p99 was
 * higher (docs/performance.md). The upload runs and the warm-ups stay autocannon's. Each run prints
 * the generator and its CPU time per request.
 */
const generator = (option('--generator') ?? 'autocannon') as 'autocannon' | 'wrk';
/**
 * The Accept-Encoding of the by-id and candidate-check requests: by default what Chrome on a phone
 * sends, so that the server compresses its answers as it does for the people checking their
 * diplomas (brotli, ADR 0126); `--accept-encoding none` sends none (answers as they are, as every
 * run before 2026-11-28 measured). Each run prints the bytes of an answer as received.
 */
const PHONE_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';
const acceptEncodingOption = option('--accept-encoding') ?? PHONE_ACCEPT_ENCODING;
const acceptEncoding = acceptEncodingOption === 'none' ? undefined : acceptEncodingOption;
/**
 * After the cold run at full load, the same kind of requests at this steady rate (req/s, 0: none)
 * for up to 5 s: below saturation answers go out compressed, at saturation as they are (ADR 0126,
 * 2026-11-28); the two "answer … B as received" show both.
 */
const steadyRate = Number(option('--steady-rate') ?? 1000);
const STEADY_SECONDS = Math.min(5, seconds);
if (generator !== 'autocannon' && generator !== 'wrk') throw new Error('--generator must be autocannon or wrk');
if (generator === 'wrk' && spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error !== undefined) throw new Error('--generator wrk: wrk is not installed (apt-get install wrk)');
/** Endpoints to load (default all); e.g. `--only pdf-upload` while working on one. */
const only =
  option('--only')
    ?.split(',')
    .map((s) => s.trim()) ?? null;
const wanted = (kind: string) => !only || only.includes(kind);
/**
 * The web build the verdict's HTML page is written with (`page-cold`): `npm run build`'s. Without
 * one, that scenario is left out (the server then serves the API only).
 */
const webDist = path.resolve(import.meta.dirname, '../../web/dist');
const pageBuild = wanted('page-cold') && existsSync(path.join(webDist, 'index.html')) ? webDist : '';
if (wanted('page-cold') && !pageBuild) console.log('page-cold: no web build (run `npm run build`): the HTML page is not measured');
/** A folder for the server's CPU profile of each measured run (`.cpuprofile`, Chrome DevTools), and their summary. */
const profileDir = option('--cpu-prof') ? path.resolve(option('--cpu-prof')!) : null;
/** The server's log level (default warn: no line per request); `info` logs every request, as a default production start does, to a file. */
const serverLogLevel = option('--log-level') ?? 'warn';
/**
 * HTTP processes serving the API (1: this process, which --cpu-prof can profile; N > 1: the
 * platform's node:cluster of server.ts, ADR 0106). Default: results day's, one per core.
 */
const processes = Number(option('--processes') ?? (option('--cpu-prof') ? 1 : Math.max(1, os.availableParallelism())));
if (!Number.isInteger(processes) || processes < 1 || processes > 16) throw new Error('--processes must be a whole number from 1 to 16');
if (!['fatal', 'error', 'warn', 'info', 'debug'].includes(serverLogLevel)) throw new Error('--log-level must be one of fatal, error, warn, info, debug');
for (const [name, value, min] of [
  ['--seconds', seconds, 1],
  ['--diplomas', diplomaCount, 1_000],
  ['--connections', connections, 1],
] as const) {
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number ≥ ${min}`);
}
/** PDFs sent once before the measured upload run (the server's code warmed up, as after minutes of service). */
const PDF_WARM_UP = 200;
/** Distinct PDFs for the upload test: enough that a run at the goal (200/s) never sends one twice, and the warm-up's (none without the upload test). */
const pdfCount = wanted('pdf-upload') ? Math.min(6_000, Math.max(500, 250 * seconds)) + PDF_WARM_UP : 0;
/** Diplomas per batch (a batch is one anchoring transaction). */
const BATCH = 10_000;
/** The ids the by-id load spreads over (a results-day working set), and the share of unknown ids. */
// At most a fifth of the diplomas, so that the cold run has the others (each asked once).
const workingSet = wanted('by-id') ? Math.min(Math.floor(diplomaCount / 5), Number(option('--ids') ?? 20_000)) : 0;
const UNKNOWN_SHARE = 0.05;
const CLIENTS = 50_000;

const MB = 1024 * 1024;
const log = pino({ level: 'warn' });
const say = (line: string) => console.log(line);
const cores = os.availableParallelism();
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

// ---- disk check ------------------------------------------------------------------------------
// Per diploma ~3.5 KB of credential JSON, its row, four indexes and their WAL (~15 KB in all); per
// rendered PDF ~120 KB (stored, and a copy for the load generator) and its photo; PostgreSQL may
// keep up to max_wal_size (1 GB) of WAL on top.
const tmpRoot = os.tmpdir();
await ensureFreeDisk(
  'bench:verify',
  tmpRoot,
  1.5 * 1024 * MB + diplomaCount * 15 * 1024 + pdfCount * 260 * 1024,
  '',
  'Free some space, point TMPDIR elsewhere, or lower --diplomas / --seconds.',
);

// ---- throwaway environment ---------------------------------------------------------------------
const workDir = await mkdtemp(path.join(tmpRoot, 'sceau-bench-verify-'));
await chmod(workDir, 0o755); // the embedded server may run as the postgres user
const dataDir = path.join(workDir, 'data');
await mkdir(dataDir, { recursive: true });
let embedded: EmbeddedPostgresHandle | null = null;
let dropDatabase: (() => Promise<void>) | null = null;
let db: Db | null = null;
let chain: OpenChain | null = null;
let closeApp: (() => Promise<void>) | null = null;
let cleaning: Promise<void> | null = null;
/** The load generator running now, stopped with the bench. */
let loadChild: ReturnType<typeof fork> | null = null;

async function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    loadChild?.kill();
    await closeApp?.().catch(() => {});
    await closeSharedRenderPool().catch(() => {});
    await chain?.close().catch(() => {});
    await db?.$client.end().catch(() => {});
    if (keep) {
      await embedded?.stop().catch(() => {});
      say(`kept: ${workDir} (data folder, PostgreSQL cluster, PDFs) — remove it by hand`);
      return;
    }
    await dropDatabase?.().catch((e: unknown) => console.error('could not drop the bench database:', e));
    await embedded?.stop().catch(() => {});
    await rm(workDir, { recursive: true, force: true });
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  });
}

/** Runs the load generator in its own process and waits for its figures. */
let plans = 0;
async function runLoad(plan: LoadPlan): Promise<LoadResult> {
  const planFile = path.join(workDir, `load-plan-${++plans}.json`);
  await writeFile(planFile, JSON.stringify(plan));
  return new Promise((resolve, reject) => {
    if (cleaning) return reject(new Error('stopping'));
    const child = fork(path.join(import.meta.dirname, 'bench-verify-load.ts'), [planFile], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    loadChild = child;
    let result: LoadResult | null = null;
    child.on('message', (message) => (result = message as LoadResult));
    child.on('error', reject);
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`load generator exited with ${code}`))));
  });
}

type Measured = LoadResult & { cpuMsPerRequest: number; userMsPerRequest: number; systemMsPerRequest: number; postgresMsPerRequest: number | null; loadAverage: string };

/** The functions that took the most CPU in a profile (self time), and by package. */
function summariseProfile(
  profile: { nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>; samples?: number[]; timeDeltas?: number[] },
  requests: number,
): string[] {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  profile.samples?.forEach((id, i) => {
    const frame = byNode.get(id)!;
    const us = profile.timeDeltas?.[i] ?? 0;
    total += us;
    const where = frame.url
      .replace(/^file:\/\//, '')
      .replace(/^.*\/node_modules\//, '')
      .replace(/^.*\/work\/main\//, '');
    const name = `${frame.functionName || '(anonymous)'} ${where ? `${where}:${frame.lineNumber + 1}` : ''}`.trim();
    self.set(name, (self.get(name) ?? 0) + us);
    const pkg =
      frame.functionName === '(idle)'
        ? '(idle)'
        : !frame.url
          ? frame.functionName.startsWith('(')
            ? frame.functionName
            : '(native)'
          : frame.url.startsWith('node:')
            ? `node:${frame.url.slice(5).split('/')[0]}`
            : where.startsWith('@')
              ? where.split('/').slice(0, 2).join('/')
              : where.split('/')[0]!;
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
  });
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `      ${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000 / Math.max(1, requests)).toFixed(3)} ms/req  ${k}`);
  return ['    by package (self time):', ...top(byPackage, 12), '    by function (self time):', ...top(self, 25)];
}

/** The HTTP processes of the cluster (--processes N), whose CPU time is the server's. */
let serverPids: number[] = [];
/** User and system CPU time (µs) of the server: this process, or the cluster's HTTP processes (/proc/PID/stat). */
async function serverCpu(): Promise<{ user: number; system: number }> {
  if (!serverPids.length) return process.cpuUsage();
  const tick = 1e6 / 100; // USER_HZ is 100 on Linux
  let user = 0;
  let system = 0;
  for (const pid of serverPids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    user += Number(fields[11]) * tick;
    system += Number(fields[12]) * tick;
  }
  return { user, system };
}

/**
 * User and system CPU time (µs) of the embedded PostgreSQL's client backends, per process (by parent
 * pid), or null when the database is another server's: with the server's, what a
 * request costs the machine apart from the load generator.
 */
async function postgresCpu(): Promise<Map<number, number> | null> {
  if (!embedded) return null;
  try {
    const master = Number((await readFile(path.join(workDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    const tick = 1e6 / 100; // USER_HZ
    const byPid = new Map<number, number>();
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => null);
      if (!stat) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== master) continue;
      // Client backends only ("postgres: user db 127.0.0.1(port) …"): not the checkpointer, autovacuum
      // or WAL writer, still busy with the diplomas just written.
      const command = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
      if (/\d+\.\d+\.\d+\.\d+\(\d+\)|\[local\]/.test(command)) byPid.set(Number(entry), (Number(fields[11]) + Number(fields[12])) * tick);
    }
    return byPid;
  } catch {
    return null;
  }
}

/** CPU time (µs) PostgreSQL's processes spent between two readings (a backend that ended meanwhile is not counted). */
const postgresSpent = (before: Map<number, number> | null, after: Map<number, number> | null) =>
  before && after ? [...after].reduce((sum, [pid, us]) => sum + us - (before.get(pid) ?? 0), 0) : null;

/** One measured run: the load, the server's CPU time per request, its CPU profile with --cpu-prof. */
async function measure(name: string, plan: LoadPlan): Promise<Measured> {
  let session: Session | null = null;
  if (profileDir && !serverPids.length) {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
  }
  const before = await serverCpu();
  const pgBefore = await postgresCpu();
  const result = await runLoad(plan);
  const after = await serverCpu();
  const pgAfter = await postgresCpu();
  const used = { user: after.user - before.user, system: after.system - before.system };
  const perRequest = (us: number) => +(us / 1000 / Math.max(1, result.requests)).toFixed(3);
  const cpuMsPerRequest = perRequest(used.user + used.system);
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    await mkdir(profileDir!, { recursive: true });
    const file = path.join(profileDir!, `${name.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`);
    await writeFile(file, JSON.stringify(profile));
    say(`   profile: ${file}`);
    for (const row of summariseProfile(profile as never, result.requests)) say(row);
  }
  return {
    ...result,
    cpuMsPerRequest,
    userMsPerRequest: perRequest(used.user),
    systemMsPerRequest: perRequest(used.system),
    postgresMsPerRequest: postgresSpent(pgBefore, pgAfter) === null ? null : perRequest(postgresSpent(pgBefore, pgAfter)!),
    loadAverage: load(),
  };
}

const line = (name: string, r: Measured) =>
  `${name.padEnd(16)} ${String(r.rps).padStart(6)} req/s   p50 ${r.p50Ms.toFixed(1).padStart(6)} ms   p95 ${r.p95Ms.toFixed(1).padStart(6)} ms   p99 ${r.p99Ms.toFixed(1).padStart(6)} ms   max ${r.maxMs.toFixed(0).padStart(5)} ms   errors ${(r.errorRate * 100).toFixed(2)} %   server CPU ${r.cpuMsPerRequest.toFixed(3)} ms/request (user ${r.userMsPerRequest.toFixed(3)}, system ${r.systemMsPerRequest.toFixed(3)})${r.postgresMsPerRequest === null ? '' : `   PostgreSQL CPU ${r.postgresMsPerRequest.toFixed(3)} ms/request`}   ${r.generator} CPU ${r.generatorMsPerRequest.toFixed(3)} ms/request   answer ${r.bytesPerResponse.toLocaleString('en')} B as received   (${r.requests} requests in ${r.seconds} s; status ${JSON.stringify(r.statusCodes)}; load average ${r.loadAverage})`;
const figures = (r: Measured | null) =>
  r
    ? {
        rps: r.rps,
        p50Ms: r.p50Ms,
        p95Ms: r.p95Ms,
        p99Ms: r.p99Ms,
        errors: r.errorRate,
        cpuMsPerRequest: r.cpuMsPerRequest,
        postgresMsPerRequest: r.postgresMsPerRequest,
        generator: r.generator,
        generatorMsPerRequest: r.generatorMsPerRequest,
        bytesPerResponse: r.bytesPerResponse,
        loadAverage: r.loadAverage,
      }
    : null;

// ---- diplomas ----------------------------------------------------------------------------------
const lastNames = ['Ngalula', 'Mukendi', 'Mbuyamba', 'Ilunga', 'Nsimba', 'Kasongo', 'Mwamba', 'Lukusa', 'Nzuzi', 'Kabila', 'Tshala', 'Mbala', 'Lokwa', 'Bofaya'];
const middleNames = ['Kabamba', 'Tshibangu', 'Tshilombo', 'wa Kalombo', 'Luzolo', 'Banza', 'Ngoy', 'Kanku', 'Makiese', 'Mulumba', 'Mpoyi', 'Nkiambi'];
const firstNames = [
  'Élodie',
  'Patrick',
  'Marie-Élodie',
  'Joseph',
  'Grâce',
  'Héritier',
  'Bénédicte',
  'Daniel',
  'Thérèse',
  'Aimé',
  'Rebecca',
  'Noëlla',
  'Gaël',
  'Anaïs',
  'Josué',
  'Françoise',
];
const places = ['Kinshasa', 'Mbuji-Mayi', 'Kananga', 'Lubumbashi', 'Matadi', 'Kindu', 'Kolwezi', 'Tshikapa', 'Kikwit', 'Kisangani', 'Boma', 'Bandundu'];

interface Place {
  templateId: number;
  sessionId: number;
  provinceId: number;
  schoolId: number;
  centreId: number;
  optionId: number;
}

/** A batch of `count` validated candidates, launched (in progress), as an import and validation leave it. */
async function candidates(db: Db, place: Place, from: number, count: number, photoKeys: string[] | null, title: string): Promise<number> {
  const [batch] = await db
    .insert(generations)
    .values({
      type: 'diplome_etat',
      templateId: place.templateId,
      title,
      sessionId: place.sessionId,
      educProvinceId: place.provinceId,
      institutionId: place.schoolId,
      centreId: place.centreId,
      optionId: place.optionId,
    })
    .returning({ id: generations.id });
  for (let start = 0; start < count; start += 1_000) {
    const rows: (typeof generationItems.$inferInsert)[] = [];
    for (let j = start; j < Math.min(count, start + 1_000); j++) {
      const i = from + j;
      rows.push({
        generationId: batch!.id,
        candidateCode: `2026${String(i + 1).padStart(10, '0')}`,
        lastName: lastNames[i % lastNames.length]!,
        middleName: middleNames[(i * 7) % middleNames.length]!,
        firstName: firstNames[(i * 5) % firstNames.length]!,
        birthDate: `${2005 + (i % 3)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
        birthPlace: places[(i * 3) % places.length]!,
        gender: i % 2 ? 'M' : 'F',
        optionId: place.optionId,
        institutionId: place.schoolId,
        centreId: place.centreId,
        percentageTenths: 500 + ((i * 37) % 450),
        photoKey: photoKeys ? photoKeys[j % photoKeys.length]! : null,
        photoStatus: 'validated',
        dataStatus: 'validated',
        sourceRow: j + 2,
      });
    }
    await db.insert(generationItems).values(rows);
  }
  await db.transaction(async (tx) => {
    await moveGeneration(tx, batch!.id, 'pending_validation', { reason: 'bench' });
    await moveGeneration(tx, batch!.id, 'ready_for_generation', {});
    await moveGeneration(tx, batch!.id, 'in_progress', {});
  });
  return batch!.id;
}

/** Signs the batch (status) and anchors its root on the chain: it is published. */
async function publish(db: Db, issuing: IssuingService, batchId: number): Promise<void> {
  await db.transaction((tx) => moveSignature(tx, batchId, 'in_progress'));
  await issuing.anchor(batchId);
  const [batch] = await db.select({ status: generations.status }).from(generations).where(eq(generations.id, batchId));
  if (batch!.status !== 'completed') throw new Error(`batch ${batchId} not published: ${batch!.status}`);
}

try {
  const t0 = performance.now();
  say(`machine: ${os.cpus()[0]?.model ?? 'cpu'} × ${cores} cores, ${Math.round(os.totalmem() / 1024 / MB)} GB RAM, Node ${process.version}; load average at the start: ${load()}`);
  // Figures from two runs compare only on machines that check alike (docs/performance.md, "The machine under the figures").
  const machineCheck = probeMachine();
  say(describeMachineProbe(machineCheck));
  let databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const name = `sceau_bench_verify_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const adminUrl = databaseUrl;
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    };
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    say(`database: ${name} on the server of DATABASE_URL (dropped at the end)`);
  } else {
    embedded = await startEmbeddedPostgres({ dataDir: path.join(workDir, 'postgres'), port: await freePort(), log });
    await embedded.createDatabase('sceau_bench');
    databaseUrl = embedded.connectionString('sceau_bench');
    say(`database: embedded PostgreSQL in ${workDir}/postgres`);
  }
  const port = await freePort();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    WEB_DIST: pageBuild,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    CHAIN_PORT: String(await freePort()),
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    // Behind the documented reverse proxy: clients are told apart by X-Forwarded-For.
    TRUST_PROXY: 'loopback',
  });
  db = createDb(databaseUrl);
  await migrateDb(db);
  await seedCatalogue(db);
  await seedDemo(db); // catalogue of schools, the national results of session 2026 (candidate check)
  const storage = new LocalFileStorage(config.filesDir);
  const templateId = await seedCountryTemplate(db);
  await seedDemoSignatures(db, storage);
  const keys = await loadMinistryKeys(config.keys, log);
  chain = await openChain(config, log);
  const services = createServices(db, config, { identity: { keys, chain }, log });
  const issuing = services.issuing!;
  say(`set-up (database, seed, keys, Anvil + registry): ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const [session] = await db.select().from(examSessions).where(eq(examSessions.isCurrent, true));
  const [province] = await db.select().from(educProvinces).where(eq(educProvinces.code, 'KIN-FUN'));
  const [school] = await db.select().from(institutions).where(eq(institutions.educProvinceId, province!.id)).limit(1);
  const [schoolOption] = await db.select().from(institutionOptions).where(eq(institutionOptions.institutionId, school!.id)).limit(1);
  const place: Place = { templateId, sessionId: session!.id, provinceId: province!.id, schoolId: school!.id, centreId: school!.centreId!, optionId: schoolOption!.optionId };

  // 1. The bulk: credentials, trees, signed roots and QR payloads by the issuing service's credential
  //    phase, one anchoring transaction per batch of 10,000; no PDF (never read by this bench).
  let t = performance.now();
  const bulk = diplomaCount - pdfCount;
  for (let from = 0, n = 1; from < bulk; from += BATCH, n++) {
    const count = Math.min(BATCH, bulk - from);
    const batchId = await candidates(db, place, from, count, null, `Banc d'essai vérification ${n}`);
    await (issuing as unknown as { writeCredentials(id: number): Promise<void> }).writeCredentials(batchId);
    await db.transaction((tx) => moveGeneration(tx, batchId, 'ready_for_signature', { changes: { generatedAt: new Date() } }));
    await publish(db, issuing, batchId);
    if (process.stdout.isTTY) process.stdout.write(`\r  diplomas written and anchored: ${from + count}/${bulk}`);
  }
  const bulkS = (performance.now() - t) / 1000;
  if (process.stdout.isTTY) process.stdout.write('\r');
  say(
    `1. ${bulk} diplomas (credentials, Merkle trees, signed roots, QR payloads; ${Math.ceil(bulk / BATCH)} batches anchored): ${bulkS.toFixed(1)} s, ${Math.round(bulk / bulkS)}/s`,
  );

  // 2. The PDFs the upload test sends: one more batch, issued in full (render pool, PAdES), anchored.
  t = performance.now();
  const pdfFiles: string[] = [];
  if (pdfCount > 0) {
    const photos = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const noise = await sharp({
          create: { width: 300, height: 400, channels: 3, background: { r: 120 + i * 5, g: 100, b: 90 }, noise: { type: 'gaussian', mean: 128, sigma: 18 } },
        })
          .jpeg({ quality: 90 })
          .toBuffer();
        return preparePhoto(noise, diplomeEtatTemplate.photo);
      }),
    );
    const photoKeys = await Promise.all(
      photos.map(async (photo, i) => {
        const key = `photos/bench-verify/${i}.jpg`;
        await storage.put(key, Buffer.from(photo));
        return key;
      }),
    );
    const pdfBatch = await candidates(db, place, bulk, pdfCount, photoKeys, "Banc d'essai vérification — PDF");
    await issuing.generate(pdfBatch);
    await publish(db, issuing, pdfBatch);
    await closeSharedRenderPool(); // its workers would otherwise sit beside the server
    const pdfDir = path.join(workDir, 'pdfs');
    await mkdir(pdfDir);
    const pdfRows = await db
      .select({ id: diplomas.id, pdfKey: diplomas.pdfKey })
      .from(diplomas)
      .where(and(eq(diplomas.generationId, pdfBatch), isNotNull(diplomas.pdfKey)));
    for (const row of pdfRows) {
      const file = path.join(pdfDir, `${row.id}.pdf`);
      await writeFile(file, (await storage.get(row.pdfKey!))!);
      pdfFiles.push(file);
    }
    say(`2. ${pdfFiles.length} diplomas with their PDF (rendered, PAdES-signed, anchored) for the upload test: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const [{ n: total } = { n: 0 }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(diplomas)
    .innerJoin(generations, eq(generations.id, diplomas.generationId))
    .where(eq(generations.status, 'completed'));
  // The tables as they are on results day, long after the issuing (autovacuum would get to them
  // minutes later, during the measured runs): fresh rows otherwise look like an empty table to the
  // planner, and each diploma's earlier row versions (written, then completed, then sealed) would be
  // visited and their hint bits set by the first read of each, which results day never pays.
  await db.execute(sql`vacuum (analyze)`);
  say(`   database: ${total} published diplomas (vacuumed, analysed)`);

  // 3. The server: the platform's app and services, as server.ts builds them, on 127.0.0.1.
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  if (processes === 1) {
    const serverLog = serverLogLevel === 'warn' ? log : pino({ level: serverLogLevel }, pino.destination({ dest: path.join(workDir, 'server.log'), sync: false }));
    const inProcess = await buildApp({ db, config, services }, { loggerInstance: serverLog });
    app = inProcess;
    // The revocation index, as server.ts starts it: filled from the registry's events, then current.
    const stopWatching = services.verification!.watchRevocations({ onError: () => {} });
    for (let i = 0; i < 200 && !services.verification!.revocationStatus().current; i++) await new Promise((r) => setTimeout(r, 50));
    if (!services.verification!.revocationStatus().current) throw new Error('the revocation index did not catch up with the chain');
    const index = services.verification!.revocationStatus();
    say(`revocation index: current, ${index.size} revoked hashes, read up to block ${index.scannedTo}`);
    await inProcess.listen({ host: '127.0.0.1', port });
    closeApp = async () => {
      stopWatching();
      await inProcess.close();
      // Requests whose client (the load generator) has gone may still be running: let them end
      // before the database pool closes under them.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    };
  } else {
    // The platform's cluster: N HTTP processes running server.ts on one port, each with its own
    // caches and revocation index, on this bench's database, chain and keys (ADR 0106).
    cluster.setupPrimary({ exec: path.join(import.meta.dirname, '../src/server.ts'), execArgv: ['--import', 'tsx'] });
    const env: Record<string, string> = {
      NODE_ENV: 'test',
      LOG_LEVEL: serverLogLevel,
      WEB_DIST: pageBuild,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      CHAIN_RPC_URL: chain.connection.rpcUrl,
      CHAIN_ID: String(chain.chainId),
      REGISTRY_ADDRESS: chain.address,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: config.publicUrl,
      TRUST_PROXY: 'loopback',
      API_PROCESSES: String(processes),
    };
    const httpProcesses = forkHttpProcesses(processes, env, log);
    await httpProcesses.ready;
    serverPids = Object.values(cluster.workers ?? {})
      .map((w) => w!.process.pid!)
      .filter(Boolean);
    closeApp = async () => {
      await httpProcesses.stop();
    };
  }
  const base = `http://127.0.0.1:${port}`;

  // Sanity: the answers are right before they are timed.
  // Every published diploma in a random order: the first `workingSet` are the cached scenario's, the
  // others the cold one's (each asked once; none of them answered before the cold run).
  const everyId = (
    await db
      .select({ id: diplomas.id })
      .from(diplomas)
      .innerJoin(generations, eq(generations.id, diplomas.generationId))
      .where(eq(generations.status, 'completed'))
      .orderBy(sql`random()`)
  ).map((r) => r.id);
  const knownId = everyId.pop()!; // the sanity check's, left out of both scenarios
  const ids = everyId.slice(0, workingSet);
  const coldIds = everyId.slice(workingSet);
  const check = async (what: string, response: Response, verdict: string) => {
    const body = (await response.json()) as { data?: { verdict?: string } };
    if (body.data?.verdict !== verdict) throw new Error(`${what}: expected ${verdict}, got ${JSON.stringify(body).slice(0, 300)}`);
  };
  await check('a known id', await fetch(`${base}/api/verify/${knownId}`), 'authentic');
  await check('an unknown id', await fetch(`${base}/api/verify/${'A'.repeat(22)}`), 'unknown');
  if (pdfFiles.length) {
    const form = new FormData();
    form.append('cert_document', new Blob([await readFile(pdfFiles.at(-1)!)], { type: 'application/pdf' }), 'diplome.pdf');
    await check('a PDF', await fetch(`${base}/api/generations/verify`, { method: 'POST', body: form }), 'authentic');
  }
  say(
    `3. server on ${base} (${processes === 1 ? 'this process' : `${processes} HTTP processes, pids ${serverPids.join(', ')}`}): a known id authentic, an unknown id unknown${pdfFiles.length ? ', a PDF authentic' : ''}`,
  );
  if (profileDir && serverPids.length) say('   --cpu-prof profiles the in-process server only (run without --processes)');
  say('');

  const results: { byIdCold: Measured | null; pageCold: Measured | null; byId: Measured | null; pdfUpload: Measured | null; candidateCheck: Measured | null } = {
    byIdCold: null,
    pageCold: null,
    byId: null,
    pdfUpload: null,
    candidateCheck: null,
  };
  const common = { url: base, connections, clients: CLIENTS, seconds, generator, ...(acceptEncoding ? { acceptEncoding } : {}) };

  // The verdict page's cold run walks ids of its own, set apart before the API's runs.
  const pageIds = pageBuild ? coldIds.splice(-Math.min(Math.floor(coldIds.length / 3), 20_000)) : [];
  let cpu = await machineCpu();
  if (wanted('by-id-cold')) {
    // By id, cold: ids walked in order, each once, none asked before (no cached answer in any
    // process): every request is the database read and the verdict of a diploma not seen before.
    const warmId = coldIds.pop()!;
    // Ids of their own for the steady run that follows: none of the full-load run's.
    const steadyIds = steadyRate > 0 && !profileDir ? coldIds.splice(-Math.min(Math.floor(coldIds.length / 4), steadyRate * STEADY_SECONDS)) : [];
    await fetch(`${base}/api/verify/${warmId}`); // the route's code warmed up (one id, not in the run)
    results.byIdCold = await measure('by id, cold', { ...common, kind: 'by-id', ids: coldIds, unknownShare: 0, walk: true });
    say(`${line('by id, cold', results.byIdCold)}; machine CPU ${await machineBusySince(cpu)} %`);
    if (results.byIdCold.requests > coldIds.length) {
      say(`   note: ${results.byIdCold.requests - coldIds.length} requests repeated an id already asked (answered from the cache); raise --diplomas to avoid it`);
    }
    if (steadyIds.length) {
      const steady = await measure(`by id, cold, ${steadyRate}/s`, {
        ...common,
        kind: 'by-id',
        ids: steadyIds,
        unknownShare: 0,
        walk: true,
        seconds: STEADY_SECONDS,
        rate: steadyRate,
      });
      say(`${line('by id, cold, steady', steady)}   (${steadyRate.toLocaleString('en')} req/s asked: below saturation)`);
    }
  }
  if (pageBuild) {
    // The verdict's HTML page, cold: what a scanned QR code opens (ADR 0128), written per request
    // and gzipped over its shared head (ADR 0156), over ids of its own (none asked before, by the API run either).
    await fetch(`${base}/verify/${pageIds.pop()!}`, { headers: { accept: 'text/html' } }); // warmed up on one id
    cpu = await machineCpu();
    results.pageCold = await measure('verdict page, cold', { ...common, kind: 'by-id', ids: pageIds, unknownShare: 0, walk: true, page: true });
    say(`${line('verdict page, cold', results.pageCold)}; machine CPU ${await machineBusySince(cpu)} %`);
  }
  if (wanted('by-id')) {
    // By id, first pass: every id of the working set once (uncached: one database read each; the
    // revocation status comes from the revocation index, the batch root's anchoring is read once).
    const first = await runLoad({ ...common, kind: 'by-id', ids, unknownShare: 0, amount: ids.length - 1 });
    say(`by id, warm-up: the working set's ${ids.length} ids once each (first look-ups), ${first.rps} req/s, p99 ${first.p99Ms} ms`);
    if (processes > 1) {
      // Each process keeps its own answers (ADR 0106) and a pass sends each id to one of them: more
      // passes, in another order each time, until each process has nearly all (a miss ≤ 2 %).
      const passes = Math.ceil(Math.log(0.02) / Math.log(1 - 1 / processes));
      for (let pass = 2; pass <= passes; pass++) {
        const warm = await runLoad({ ...common, kind: 'by-id', ids: [...ids].sort(() => Math.random() - 0.5), unknownShare: 0, amount: ids.length - 1 });
        say(`by id, warm-up pass ${pass}/${passes} (the working set again, for the other processes' caches): ${warm.rps} req/s`);
      }
    }
    // Then the measured run: ids drawn at random from the working set, 5 % unknown ids.
    cpu = await machineCpu();
    results.byId = await measure('by id', { ...common, kind: 'by-id', ids, unknownShare: UNKNOWN_SHARE });
    say(`${line('by id', results.byId)}; machine CPU ${await machineBusySince(cpu)} %`);
  }

  if (wanted('pdf-upload')) {
    // Warm-up: other PDFs, each once (the measured run never sends them, so none is answered from the cache).
    const warmUp = await runLoad({ ...common, kind: 'pdf-upload', pdfFiles: pdfFiles.slice(-PDF_WARM_UP), connections: Math.min(connections, 16), amount: PDF_WARM_UP });
    say(`PDF upload warm-up: ${warmUp.requests} distinct PDFs, ${warmUp.rps} req/s`);
    cpu = await machineCpu();
    results.pdfUpload = await measure('PDF upload', { ...common, kind: 'pdf-upload', pdfFiles: pdfFiles.slice(0, -PDF_WARM_UP), connections: Math.min(connections, 16) });
    say(`${line('PDF upload', results.pdfUpload)}; machine CPU ${await machineBusySince(cpu)} %`);
    if ((results.pdfUpload.distinctBodies ?? 0) < results.pdfUpload.requests) {
      say(
        `   note: ${results.pdfUpload.requests - results.pdfUpload.distinctBodies!} uploads repeated a PDF already sent (answered from the cache); raise the PDF count to avoid it`,
      );
    }
  }

  const candidateRoute = app
    ? app.hasRoute({ method: 'POST', url: '/api/v2/verify-candidate' })
    : (await fetch(`${base}/api/v2/verify-candidate`, { method: 'POST' })).status !== 404;
  if (!wanted('candidate-check')) {
    // not asked for
  } else if (!candidateRoute) {
    say('candidate check: POST /api/v2/verify-candidate does not exist in this build: skipped');
  } else {
    // Candidates of the national results with two classmates of the same school and session.
    const rows = await db.select().from(nationalResults).where(eq(nationalResults.sessionId, session!.id)).limit(3_000);
    const bySchool = new Map<string, typeof rows>();
    for (const r of rows) bySchool.set(r.institutionCode, [...(bySchool.get(r.institutionCode) ?? []), r]);
    const name = (r: (typeof rows)[number]) => [r.lastName, r.middleName, r.firstName].filter(Boolean).join(' ');
    const bodies: string[] = [];
    for (const group of bySchool.values()) {
      for (let i = 0; i + 2 < group.length && bodies.length < 2_000; i++) {
        const [me, a, b] = [group[i]!, group[(i + 1) % group.length]!, group[(i + 2) % group.length]!];
        if (name(a).toLowerCase() === name(b).toLowerCase()) continue;
        bodies.push(
          JSON.stringify({
            'api-token': config.candidateCheck.acceptedTokens[0],
            fullname: name(me),
            code: me.candidateCode,
            birthdate: me.birthDate,
            fullname_collegue_1: name(a),
            fullname_collegue_2: name(b),
            session_id: me.sessionId,
          }),
        );
      }
    }
    if (!bodies.length) {
      say('candidate check: no candidates in the national results registry: skipped');
    } else {
      const first = (await (await fetch(`${base}/api/v2/verify-candidate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodies[0] })).json()) as {
        data?: { recognised?: boolean };
      };
      if (first.data?.recognised !== true) throw new Error(`candidate check: a registered candidate is not recognised: ${JSON.stringify(first).slice(0, 300)}`);
      cpu = await machineCpu();
      results.candidateCheck = await measure('candidate check', { ...common, kind: 'candidate-check', bodies });
      say(`${line('candidate check', results.candidateCheck)}; machine CPU ${await machineBusySince(cpu)} % (${bodies.length} candidates in turn)`);
    }
  }

  say('');
  say(
    `server: ${processes === 1 ? 'one process (this one)' : `${processes} HTTP processes (node:cluster)`}, log level ${serverLogLevel}; its CPU time per request counts the server only (not the load generator, PostgreSQL or Anvil)`,
  );
  say(
    `database: ${total} published diplomas; cold run over ${coldIds.length} ids never asked before; by-id working set ${ids.length} ids (+${UNKNOWN_SHARE * 100} % unknown), ${CLIENTS} simulated client addresses; ${connections} connections`,
  );
  say(`load average at the end: ${load()} (${cores} cores; the load generator, PostgreSQL and Anvil share them with the server)`);
  // The goals (issues 11 and 14; docs/performance.md), judged run by run: a run that missed says so beside its machine check.
  const goals = [
    { name: 'by id, cold', result: results.byIdCold, rps: 3_000, p99Ms: 50 },
    { name: 'by id, cached', result: results.byId, rps: 5_000, p99Ms: 50 },
    { name: 'PDF upload', result: results.pdfUpload, rps: 200, p99Ms: null },
    { name: 'candidate check', result: results.candidateCheck, rps: 2_000, p99Ms: null },
  ].flatMap(({ name, result, rps, p99Ms }) => {
    if (!result) return [];
    const met = result.rps >= rps && result.errorRate === 0 && (p99Ms === null || result.p99Ms < p99Ms);
    return [
      {
        name,
        met,
        line: `${met ? 'met   ' : 'MISSED'}  ${name}: ≥ ${rps.toLocaleString('en-US')}/s${p99Ms === null ? '' : ` with p99 < ${p99Ms} ms`}, no errors (${result.rps.toLocaleString('en-US')}/s, p99 ${result.p99Ms.toFixed(1)} ms)`,
      },
    ];
  });
  say(`\n${goals.map((goal) => goal.line).join('\n')}\n${describeMachineProbe(machineCheck)}`);
  const summary = {
    machineCheck,
    goals: goals.map(({ name, met }) => ({ name, met })),
    byIdCold: figures(results.byIdCold),
    pageCold: figures(results.pageCold),
    byId: figures(results.byId),
    pdfUpload: figures(results.pdfUpload),
    candidateCheck: figures(results.candidateCheck),
  };
  await cleanUp();
  say(JSON.stringify(summary));
} catch (error) {
  console.error(error);
  await cleanUp();
  process.exit(1);
}
