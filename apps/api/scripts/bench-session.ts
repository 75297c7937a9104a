// A national session in small: issues N synthetic diplomas through the real pipeline, on a throwaway
// database, data folder and local chain, and prints what each stage costs (docs/performance.md).
//
//   npm run bench:session [-- --count 20000] [--batch 5000] [--format csv|xlsx] [--photo 300x400]
//                         [--parallel 3] [--keep]
//
// Per list of `--batch` candidates (a school or a province sends one; the import takes 20,000 rows
// at most): the list and its zip of photos go through the import's check and its durable job
// (ImportsService + pg-boss, as `check-import-file` and `start-import-process` do), validation is
// marked done (one statement: people do it over days), then the generation job (credentials, tree,
// QR payloads, then PDF chunk jobs on the render pool's threads), then the anchoring job. Lists go
// through the pipeline `--parallel` at a time, so one is imported while another is generated.
// The same work done by plain library calls (no database, no files) is measured first, as the
// machine's ceiling. The last line printed is one JSON object with every figure.
import { encodeQrPayload, newDiplomaId, qrFieldsFromRecord, saltRecord } from '@sceau/credential';
import { createDiplomaRenderer, createKeySigner, extractAttachment, preparePhoto, signPdf, verifyPdfSignature, type DiplomaTemplateInput } from '@sceau/pdf';
import { verifyDocument, verifyQrPayload } from '@sceau/credential';
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { and, eq, sql } from 'drizzle-orm';
import { flattenGrants, PERMISSIONS } from '@sceau/contracts';
import pg from 'pg';
import { pino } from 'pino';
import { loadConfig } from '../src/config.ts';
import { createDb, migrateDb, type Db } from '../src/db/client.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../src/db/embedded-postgres.ts';
import { diplomas, educProvinces, examSessions, generationItems, generations, importations, officialSignatures, templates, users } from '../src/db/schema.ts';
import { JobQueue } from '../src/jobs/job-queue.ts';
import { openChain, type OpenChain } from '../src/modules/chain/open-chain.ts';
import { moveGeneration, moveSignature } from '../src/modules/generations/generation-status.ts';
import { closeSharedRenderPool, sharedRenderPool, type RenderJob, type RenderSetup } from '../src/modules/generations/render-pool.ts';
import { loadMinistryKeys } from '../src/modules/keys/ministry-keys.ts';
import { seedCountryTemplate, seedDemoSignatures } from '../src/seed/demo-batch.ts';
import { seedCatalogue, seedDemo } from '../src/seed/seed.ts';
import { createServices } from '../src/services.ts';
import type { Actor } from '../src/policies/actor.ts';
import { NATIONAL } from '../src/policies/scope.ts';
import { candidateList, cpuSince, folderSizes, photoZip, portraits, threadCpu, treeCpu, treeMemory, unionMs, type TreeCpu } from './bench-session-support.ts';
import { ensureFreeDisk, freePort, machineBusySince, machineCpu } from './bench-support.ts';

// ---- arguments -------------------------------------------------------------------------------
const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const count = Number(option('--count') ?? 20_000);
const batchSize = Number(option('--batch') ?? 5_000);
const parallel = Number(option('--parallel') ?? 3);
const format = (option('--format') ?? 'csv') as 'csv' | 'xlsx';
const [photoWidth, photoHeight] = (option('--photo') ?? '300x400').split('x').map(Number);
const keep = args.includes('--keep');
const cores = os.availableParallelism();
const SESSION = 800_000;
function refuse(message: string): never {
  console.error(`bench:session: ${message}`);
  process.exit(2);
}
if (!Number.isInteger(count) || count < 1) refuse('--count must be a positive whole number');
if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 20_000) refuse('--batch must be 1 to 20,000 (the import takes 20,000 rows per list)');
if (!Number.isInteger(parallel) || parallel < 1) refuse('--parallel must be a positive whole number');
if (format !== 'csv' && format !== 'xlsx') refuse('--format must be csv or xlsx');
if (!photoWidth || !photoHeight) refuse('--photo must be WIDTHxHEIGHT, e.g. 300x400');

const MB = 1024 * 1024;
const log = pino({ level: 'warn' });
const say = (line = '') => console.log(line);
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

// ---- disk check ------------------------------------------------------------------------------
// Per diploma: its PDF (~120 KB), its photo (stored once, and in the zip until imported), its rows,
// indexes, jobs and WAL; PostgreSQL may keep up to max_wal_size (1 GB) of WAL on top.
const PER_DIPLOMA = 300 * 1024;
const FIXED = 1.5 * 1024 * MB;
const tmpRoot = os.tmpdir();
await ensureFreeDisk('bench:session', tmpRoot, FIXED + count * PER_DIPLOMA, ` for ${count} diplomas`, 'Free some space, point TMPDIR elsewhere, or lower --count.');

// ---- throwaway environment ---------------------------------------------------------------------
const workDir = await mkdtemp(path.join(tmpRoot, 'sceau-session-'));
await chmod(workDir, 0o755); // the embedded server may run as the postgres user
const dataDir = path.join(workDir, 'data');
await mkdir(dataDir, { recursive: true });
let embedded: EmbeddedPostgresHandle | null = null;
let dropDatabase: (() => Promise<void>) | null = null;
let db: Db | null = null;
let chain: OpenChain | null = null;
let queue: JobQueue | null = null;
let cleaning: Promise<void> | null = null;

async function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    await queue?.stop().catch(() => {});
    await closeSharedRenderPool().catch(() => {});
    await chain?.close().catch(() => {});
    await db?.$client.end().catch(() => {});
    if (keep) {
      await embedded?.stop().catch(() => {});
      say(
        `kept: ${workDir} (data folder${embedded ? ', PostgreSQL cluster' : ''}${dropDatabase ? '; the database on the DATABASE_URL server is kept too' : ''}) — remove it by hand`,
      );
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

const loadBefore = os.loadavg();
{
  const before = await machineCpu();
  await new Promise((r) => setTimeout(r, 1000));
  const busy = await machineBusySince(before);
  if (busy !== null && busy > 20)
    console.warn(`warning: the machine is already ${busy} % busy before the bench starts (load ${loadBefore[0]!.toFixed(1)}): the figures will be low`);
}

// Peak memory of every process involved: this one with its render threads, and its children (the
// embedded PostgreSQL, Anvil). An external PostgreSQL is not counted (it is not ours to measure).
let peakTreeBytes = 0;
let peakSelfBytes = 0;
let sampling = true;
const sampler = (async () => {
  while (sampling) {
    peakSelfBytes = Math.max(peakSelfBytes, process.memoryUsage().rss);
    const tree = await treeMemory(process.pid);
    if (tree) peakTreeBytes = Math.max(peakTreeBytes, tree.bytes);
    await new Promise((r) => setTimeout(r, 250));
  }
})();

try {
  const t0 = performance.now();
  let databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const name = `sceau_session_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    const adminUrl = databaseUrl;
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    };
    databaseUrl = url.toString();
    say(`database: ${name} on the server of DATABASE_URL (dropped at the end; its memory is not counted)`);
  } else {
    embedded = await startEmbeddedPostgres({ dataDir: path.join(workDir, 'postgres'), port: await freePort(), log });
    await embedded.createDatabase('sceau_session');
    databaseUrl = embedded.connectionString('sceau_session');
    say(`database: embedded PostgreSQL in ${workDir}/postgres`);
  }
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', WEB_DIST: '', DATA_DIR: dataDir, DATABASE_URL: databaseUrl, CHAIN_PORT: String(await freePort()) });
  db = createDb(databaseUrl);
  await migrateDb(db);
  await seedCatalogue(db);
  await seedDemo(db);
  const templateId = await seedCountryTemplate(db);
  const keys = await loadMinistryKeys(config.keys, log);
  chain = await openChain(config, log);
  // The services and jobs a server builds (server.ts), this process being its only worker.
  queue = new JobQueue(databaseUrl, log);
  const services = createServices(db, config, { identity: { keys, chain }, log, queue });
  await seedDemoSignatures(db, services.storage);
  const issuingJobs = services.jobs!;
  queue.define(...Object.values(issuingJobs), services.imports.job);
  await queue.start({ work: true });
  const pool = sharedRenderPool();
  await pool.start();
  const [root] = await db.select().from(users).where(eq(users.email, 'root@sceau.example'));
  const [session] = await db.select().from(examSessions).where(eq(examSessions.isCurrent, true));
  const [province] = await db.select().from(educProvinces).where(eq(educProvinces.code, 'KIN-FUN'));
  // Who the services act as: the national root, from this machine (the audit entries say so).
  const actor: Actor = {
    id: root!.id,
    ...flattenGrants([{ name: 'root', permissions: PERMISSIONS.map((name) => ({ name })) }]),
    scope: NATIONAL,
    ip: '127.0.0.1',
    userAgent: 'bench:session',
    locale: 'fr',
  };
  const dbBytesBefore = Number((await db.execute<{ n: string }>(sql`select pg_database_size(current_database()) as n`)).rows[0]!.n);
  say(`set-up (database, seed, keys, Anvil + registry, job queue, render pool): ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  say(
    `machine: ${os.cpus()[0]?.model ?? 'cpu'} × ${cores} cores, ${Math.round(os.totalmem() / 1024 / MB)} GB RAM, Node ${process.version}; load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')}`,
  );
  const lists = Math.ceil(count / batchSize);
  say(
    `session: ${fmt(count)} diplomas in ${lists} list(s) of up to ${fmt(batchSize)} (${format.toUpperCase()} + zip of ${photoWidth}×${photoHeight} photos), ${parallel} list(s) in the pipeline at once; render threads: ${pool.size}`,
  );
  say();

  // ---- baseline: the same work by plain library calls -------------------------------------------
  const photos = await portraits(photoWidth!, photoHeight!);
  const avgPhotoKb = photos.reduce((n, p) => n + p.length, 0) / photos.length / 1024;
  const baseline = await measureBaseline();

  async function measureBaseline() {
    const [template] = await db!.select().from(templates).where(eq(templates.id, templateId));
    const signatures = await db!.select().from(officialSignatures);
    const role: Record<string, 'ministry' | 'inspectorGeneral' | 'juryPresident'> = { ministry: 'ministry', inspector_general: 'inspectorGeneral', jury: 'juryPresident' };
    const signatureImages: Record<string, Uint8Array> = {};
    for (const s of signatures) signatureImages[role[s.kind]!] = new Uint8Array((await services.storage.get(s.imageKey))!);
    const design = template!.design as unknown as DiplomaTemplateInput;
    const renderer = await createDiplomaRenderer({ template: design, signatureImages });
    const privateKeyPem = keys.active.privateKey!.export({ format: 'pem', type: 'pkcs8' }) as string;
    const signer = createKeySigner({ privateKey: privateKeyPem, certificateChainDer: keys.active.certificateChainDer });
    const issuer = {
      id: config.issuer.id,
      name: config.issuer.name,
      jwks_url: 'http://localhost/.well-known/jwks.json',
      registry: { chain_id: chain!.chainId, contract: chain!.address.toLowerCase() },
    };
    const photo = new Uint8Array(await preparePhoto(photos[0]!, renderer.template.photo));
    const M = Math.min(400, Math.max(100, Math.floor(count / 10)));
    const jobs: Array<{ job: RenderJob }> = [];
    const times = { credential: 0, render: 0, sign: 0, hash: 0, photo: 0 };
    // CPU time of this thread (not wall time): on a shared, busy machine wall time measures the others too.
    const cpuNow = () => {
      const u = process.threadCpuUsage();
      return (u.user + u.system) / 1000;
    };
    const one = async (i: number, timed: boolean) => {
      let t = cpuNow();
      // As the import fits a photo (imports-service: 38.1 × 50.8 mm at 200 dpi, ≤ 30 KB).
      await preparePhoto(photos[i % photos.length]!, { w: 38.1, h: 50.8 }, { dpi: 200, maxBytes: 30_000 });
      const t1 = cpuNow();
      const salted = saltRecord(
        {
          diploma_id: newDiplomaId(),
          candidate_code: `2026${String(i).padStart(10, '0')}`,
          last_name: 'Ilunga',
          middle_name: 'Banza',
          first_name: 'Grâce',
          birth_date: '2007-01-09',
          birth_place: 'Matadi',
          gender: 'F',
          option: 'Littéraire',
          option_code: 'LIT',
          school: 'Complexe scolaire',
          school_code: 'KIN-FUN-C1-E1',
          centre: 'Centre 1',
          centre_code: 'KIN-FUN-C1',
          educ_province: 'Kinshasa-Funa',
          educ_province_code: 'KIN-FUN',
          session: 'Session 2026',
          session_year: 2026,
          percentage: 65.8,
          issue_date: '2026-07-01',
          issuer: config.issuer.id,
        },
        issuer,
      );
      const targetHash = Buffer.from(salted.targetHash).toString('hex');
      const qr = await encodeQrPayload(qrFieldsFromRecord(salted.record, targetHash), keys.active.es256);
      const credentialJson = new TextEncoder().encode(JSON.stringify({ record: salted.record, salts: salted.salts, targetHash }));
      const t2 = cpuNow();
      const fields = {
        name: 'Ilunga Banza Grâce',
        birthPlace: 'Matadi',
        birthDate: '9 janvier 2007',
        option: 'Littéraire',
        school: 'Complexe scolaire',
        centre: 'Centre 1',
        session: '2026',
        percentage: '65,8',
        issueDate: '1 juillet 2026',
        diplomaNumber: salted.record.diploma_id,
        province: 'Kinshasa-Funa',
        issuePlace: 'Kinshasa',
        candidateCode: salted.record.candidate_code,
      };
      const qrContents = { verifyUrl: `http://localhost/verify/${salted.record.diploma_id}`, offlinePayload: qr.text };
      jobs.push({ job: { fields, photo, qr: qrContents, credentialJson } });
      const unsigned = await renderer.render(fields, photo, qrContents, credentialJson);
      const t3 = cpuNow();
      const signed = await signPdf(unsigned, signer);
      const t4 = cpuNow();
      createHash('sha256').update(signed).digest('hex');
      const t5 = cpuNow();
      if (timed) {
        times.photo += t1 - t;
        times.credential += t2 - t1;
        times.render += t3 - t2;
        times.sign += t4 - t3;
        times.hash += t5 - t4;
      }
      t = t5;
    };
    for (let i = 0; i < 30; i++) await one(i, false); // warm-up (JIT)
    jobs.length = 0;
    for (let i = 0; i < M; i++) await one(i, true);
    const perDoc = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, v / M])) as typeof times;
    // Render + sign + hash on every core at once: the render pool's threads, fed from memory.
    const setup: RenderSetup = {
      key: 'baseline',
      template: design,
      signatureImages,
      signer: { privateKeyPem, certificateChainDer: keys.active.certificateChainDer },
      longTerm: await services.timestamping!.setup(),
    };
    const copy = (j: RenderJob): RenderJob => ({ ...j, photo: j.photo.slice(), credentialJson: j.credentialJson.slice() });
    await Promise.all(jobs.slice(0, 20).map((j) => pool.render(setup, copy(j.job)))); // set-up sent, workers warm
    const tp = performance.now();
    await Promise.all(jobs.map((j) => pool.render(setup, copy(j.job))));
    const poolPerSecond = M / ((performance.now() - tp) / 1000);
    const onePerDocMs = perDoc.credential + perDoc.render + perDoc.sign + perDoc.hash;
    return { documents: M, perDocMs: perDoc, oneCorePerSecond: 1000 / onePerDocMs, allCoresRenderSignHashPerSecond: poolPerSecond };
  }
  say(`baseline (plain library calls, no database, no files; ${baseline.documents} diplomas; one core as CPU time of the thread):`);
  say(
    `  one core: credential + QR ${baseline.perDocMs.credential.toFixed(2)} ms, render ${baseline.perDocMs.render.toFixed(2)} ms, PAdES sign ${baseline.perDocMs.sign.toFixed(2)} ms, SHA-256 ${baseline.perDocMs.hash.toFixed(3)} ms` +
      ` = ${fmt(baseline.oneCorePerSecond)} diplomas/s per core; photo fit ${baseline.perDocMs.photo.toFixed(2)} ms (${photoWidth}×${photoHeight}, ${avgPhotoKb.toFixed(1)} KB)`,
  );
  say(
    `  ${pool.size} render threads, render + sign + hash only: ${fmt(baseline.allCoresRenderSignHashPerSecond)} diplomas/s (${fmt(baseline.allCoresRenderSignHashPerSecond / cores)} per core)`,
  );
  say();
  pool.stats.documents = 0;
  pool.stats.renderMs = 0;
  pool.stats.signMs = 0;

  // ---- the session ------------------------------------------------------------------------------
  type Times = { prepare: [number, number]; import: [number, number]; generate: [number, number]; anchor: [number, number] };
  const timings: Times[] = [];
  // CPU spent by everything involved while each list was in each stage. Only one list at a time
  // (--parallel 1) makes a stage's CPU its own; with lists overlapping only the total is meaningful.
  const zeroCpu = (): TreeCpu & { total: number } => ({ main: 0, threads: 0, postgres: 0, other: 0, total: 0 });
  const stageCpu = { import: zeroCpu(), generate: zeroCpu(), anchor: zeroCpu() };
  const addCpu = async (key: keyof typeof stageCpu, from: TreeCpu | null): Promise<TreeCpu | null> => {
    const now = await treeCpu(process.pid);
    if (from && now) {
      const d = cpuSince(from, now);
      for (const k of Object.keys(d) as (keyof typeof d)[]) stageCpu[key][k] += d[k];
    }
    return now;
  };
  const statusOf = async (id: number) =>
    (await db!.select({ status: generations.status, signature: generations.signatureStatus, error: generations.lastError }).from(generations).where(eq(generations.id, id)))[0]!;
  async function until<T>(what: string, check: () => Promise<T | null>, timeoutMs = 3_600_000): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value !== null) return value;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function runList(index: number): Promise<void> {
    const from = index * batchSize;
    const to = Math.min(count, from + batchSize);
    const t = {} as Times;
    let s = performance.now();
    const list = await readFile(inputPath(index, format));
    const zip = await readFile(inputPath(index, 'zip'));
    await rm(inputPath(index, format));
    await rm(inputPath(index, 'zip'));
    t.prepare = [s, performance.now()];

    // Import: the upload's check (draft batch), the start's check, the durable job (photos, rows).
    let cpu = await treeCpu(process.pid);
    s = performance.now();
    const checked = await services.imports.checkFile(actor, { template_id: templateId, session_id: session!.id, province_id: province!.id }, { list, photos: zip });
    if (checked.problems.length) throw new Error(`list ${index + 1}: ${checked.problems.length} problems, first: ${JSON.stringify(checked.problems[0])}`);
    const batchId = checked.generationId;
    const importationId = await services.imports.startImport(actor, batchId, `Session — liste ${index + 1}`);
    await until(`import of list ${index + 1}`, async () => {
      const [row] = await db!.select({ status: importations.status, error: importations.errorKey }).from(importations).where(eq(importations.id, importationId));
      if (row!.status === 'failed') throw new Error(`import of list ${index + 1} failed: ${row!.error}`);
      return row!.status === 'completed' ? true : null;
    });
    t.import = [s, performance.now()];
    cpu = await addCpu('import', cpu);

    // Validation marked done (people check photos and data over days), then the launch as the
    // route does after its one-time code: "in progress" and the generation job.
    s = performance.now();
    await db!.transaction(async (tx) => {
      await tx.update(generationItems).set({ photoStatus: 'validated', dataStatus: 'validated', updatedAt: new Date() }).where(eq(generationItems.generationId, batchId));
      await moveGeneration(tx, batchId, 'ready_for_generation', { actorId: root!.id, reason: 'bench: validation marked done' });
      await moveGeneration(tx, batchId, 'in_progress', { actorId: root!.id, changes: { progressDone: 0, progressTotal: 0, lastError: null } });
    });
    await queue!.send(issuingJobs.generate, { generationId: batchId }, { singletonKey: `generate:${batchId}` });
    await until(`generation of list ${index + 1}`, async () => {
      const b = await statusOf(batchId);
      if (b.status === 'failed') throw new Error(`generation of list ${index + 1} failed: ${b.error}`);
      return b.status === 'ready_for_signature' ? true : null;
    });
    t.generate = [s, performance.now()];
    cpu = await addCpu('generate', cpu);

    // "Appliquer la signature": the anchoring job.
    s = performance.now();
    await db!.transaction((tx) => moveSignature(tx, batchId, 'in_progress', { actorId: root!.id }));
    await queue!.send(issuingJobs.anchor, { generationId: batchId }, { singletonKey: `anchor:${batchId}` });
    await until(`anchoring of list ${index + 1}`, async () => ((await statusOf(batchId)).status === 'completed' ? true : null));
    t.anchor = [s, performance.now()];
    await addCpu('anchor', cpu);
    timings[index] = t;
    const done = timings.filter(Boolean).length;
    say(
      `  list ${index + 1}/${lists} (${fmt(to - from)}): import ${((t.import[1] - t.import[0]) / 1000).toFixed(1)} s, generation ${((t.generate[1] - t.generate[0]) / 1000).toFixed(1)} s, anchoring ${((t.anchor[1] - t.anchor[0]) / 1000).toFixed(1)} s  [${done}/${lists} done]`,
    );
  }

  // The lists and zips a school would send, written before the session so that making them is not counted.
  const inputsDir = path.join(workDir, 'inputs');
  await mkdir(inputsDir);
  const inputPath = (index: number, ext: string) => path.join(inputsDir, `list-${index}.${ext}`);
  {
    const s = performance.now();
    for (let index = 0; index < lists; index++) {
      const from = index * batchSize;
      const to = Math.min(count, from + batchSize);
      await writeFile(inputPath(index, format), await candidateList(from, to, format));
      await writeFile(inputPath(index, 'zip'), await photoZip(from, to, photos));
    }
    say(`inputs: ${lists} list(s) and photo zip(s) written in ${((performance.now() - s) / 1000).toFixed(1)} s (not counted)`);
  }

  const cpu0 = await machineCpu();
  const sessionCpu0 = await treeCpu(process.pid);
  const threads0 = await threadCpu(process.pid);
  const sessionStart = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, lists) }, async () => {
      while (next < lists) await runList(next++);
    }),
  );
  const sessionMs = performance.now() - sessionStart;
  const machineBusy = await machineBusySince(cpu0);
  const sessionCpu1 = await treeCpu(process.pid);
  const threads1 = await threadCpu(process.pid);
  // This process's threads other than the main one, by CPU spent during the session: the render
  // threads come first, then libuv's pool (file I/O, zlib), V8's helpers (garbage collection).
  const threadsMsPerDiploma = [...threads1]
    .filter(([tid]) => tid !== process.pid)
    .map(([tid, ms]) => +((ms - (threads0.get(tid) ?? 0)) / count).toFixed(2))
    .filter((ms) => ms > 0)
    .sort((a, b) => b - a);
  const perDiploma = (c: TreeCpu & { total: number }) =>
    Object.fromEntries(Object.entries(c).map(([k, v]) => [k, +(v / count).toFixed(2)])) as unknown as TreeCpu & { total: number };
  const cpuMsPerDiploma = sessionCpu0 && sessionCpu1 ? perDiploma(cpuSince(sessionCpu0, sessionCpu1)) : null;
  const loadAfter = os.loadavg();

  // ---- checks: every diploma once, published, a sample verified --------------------------------------
  const [totals] = await db
    .select({
      n: sql<number>`count(*)::int`,
      items: sql<number>`count(distinct ${diplomas.itemId})::int`,
      withPdf: sql<number>`count(${diplomas.pdfKey})::int`,
      pdfBytes: sql<number>`coalesce(sum(${diplomas.pdfBytes}), 0)::float8`,
    })
    .from(diplomas);
  if (totals!.n !== count || totals!.items !== count || totals!.withPdf !== count)
    throw new Error(`expected ${count} diplomas with a PDF, one per candidate; found ${totals!.n} for ${totals!.items} candidates (${totals!.withPdf} with a PDF)`);
  const [unpublished] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(generations)
    .where(and(sql`${generations.status} <> 'completed'`, sql`${generations.title} like 'Session — liste %'`));
  if (unpublished!.n) throw new Error(`${unpublished!.n} lists not published`);
  const jwks = keys.jwks();
  const sample = await db.select().from(diplomas).orderBy(sql`random()`).limit(5);
  for (const row of sample) {
    const pdf = (await services.storage.get(row.pdfKey!))!;
    if (createHash('sha256').update(pdf).digest('hex') !== row.pdfSha256) throw new Error(`PDF of ${row.id}: not the stored hash`);
    if (!verifyPdfSignature(pdf).intact) throw new Error(`PDF of ${row.id}: signature not intact`);
    const attached = JSON.parse(new TextDecoder().decode((await extractAttachment(pdf, 'credential.json'))!));
    if (attached.signature.targetHash !== row.targetHash || verifyDocument(attached).integrity !== 'ok') throw new Error(`PDF of ${row.id}: credential does not verify`);
    if (verifyQrPayload(row.qrPayload, jwks).status !== 'valid') throw new Error(`QR of ${row.id} does not verify`);
  }

  // ---- figures ------------------------------------------------------------------------------------
  sampling = false;
  await sampler;
  const dbBytes = Number((await db.execute<{ n: string }>(sql`select pg_database_size(current_database()) as n`)).rows[0]!.n) - dbBytesBefore;
  const files = await folderSizes(config.filesDir);
  const fileBytes = Object.values(files).reduce((a, b) => a + b, 0);
  const perSecond = count / (sessionMs / 1000);
  const stage = (key: keyof Times) => {
    const busyMs = unionMs(timings.map((t) => t[key]));
    const summedMs = timings.reduce((n, t) => n + (t[key][1] - t[key][0]), 0);
    return {
      seconds: +(busyMs / 1000).toFixed(2),
      diplomasPerSecond: Math.round(count / (busyMs / 1000)),
      perCore: Math.round(count / (busyMs / 1000) / cores),
      summedSeconds: +(summedMs / 1000).toFixed(2),
    };
  };
  const stages = { import: stage('import'), generation: stage('generate'), anchoring: stage('anchor') };
  const kbPerDiploma = (dbBytes + fileBytes) / count / 1024;
  const result = {
    count,
    lists,
    listSize: batchSize,
    format,
    photo: `${photoWidth}x${photoHeight}`,
    cores,
    renderThreads: pool.size,
    database: dropDatabase ? 'external' : 'embedded',
    seconds: +(sessionMs / 1000).toFixed(1),
    diplomasPerSecond: Math.round(perSecond),
    diplomasPerSecondPerCore: Math.round(perSecond / cores),
    stages,
    cpuMsPerDiploma,
    threadsCpuMsPerDiploma: threadsMsPerDiploma,
    stageCpuMsPerDiploma: parallel === 1 ? { import: perDiploma(stageCpu.import), generation: perDiploma(stageCpu.generate), anchoring: perDiploma(stageCpu.anchor) } : null,
    workerRenderMsPerDoc: +(pool.stats.renderMs / Math.max(1, pool.stats.documents)).toFixed(2),
    workerSignMsPerDoc: +(pool.stats.signMs / Math.max(1, pool.stats.documents)).toFixed(2),
    baseline: {
      perDocMs: Object.fromEntries(Object.entries(baseline.perDocMs).map(([k, v]) => [k, +v.toFixed(3)])),
      oneCorePerSecond: Math.round(baseline.oneCorePerSecond),
      allCoresRenderSignHashPerSecond: Math.round(baseline.allCoresRenderSignHashPerSecond),
    },
    peakMemoryMb: Math.round(peakTreeBytes / MB),
    peakMemoryThisProcessMb: Math.round(peakSelfBytes / MB),
    databaseMbPer1000: +(((dbBytes / count) * 1000) / MB).toFixed(1),
    filesMbPer1000: +(((fileBytes / count) * 1000) / MB).toFixed(1),
    filesMbPer1000ByFolder: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, +(((v / count) * 1000) / MB).toFixed(1)])),
    avgPdfKb: +(totals!.pdfBytes / count / 1024).toFixed(1),
    kbPerDiploma: +kbPerDiploma.toFixed(1),
    sessionMinutes: +(SESSION / perSecond / 60).toFixed(1),
    machineCpuBusyPercent: machineBusy,
    loadAverage: { before: loadBefore.map((l) => +l.toFixed(2)), after: loadAfter.map((l) => +l.toFixed(2)) },
    node: process.version,
  };
  const line = (name: string, s: (typeof stages)['import']) =>
    say(
      `  ${name.padEnd(11)} ${s.seconds.toFixed(1).padStart(7)} s busy  ${fmt(s.diplomasPerSecond).padStart(6)} diplomas/s  ${fmt(s.perCore).padStart(5)} per core   (summed over lists ${s.summedSeconds.toFixed(1)} s)`,
    );
  say();
  say(`checked: ${fmt(count)} diplomas, one per candidate, each with its PDF; every list published (anchored); 5 random PDFs: stored hash, PAdES intact, credential and QR verify`);
  say();
  say(`stages (time at least one list was in the stage; they overlap across lists):`);
  line('import', stages.import);
  line('generation', stages.generation);
  line('anchoring', stages.anchoring);
  say(`  in the render threads: render ${result.workerRenderMsPerDoc} ms + PAdES sign ${result.workerSignMsPerDoc} ms per diploma`);
  const cpuLine = (c: TreeCpu & { total: number }) =>
    `${c.total.toFixed(2)} ms (main thread ${c.main.toFixed(2)}, other threads ${c.threads.toFixed(2)}, PostgreSQL ${c.postgres.toFixed(2)}, Anvil ${c.other.toFixed(2)})`;
  say();
  say(`CPU time per diploma (every process involved; the figure to compare on a busy machine):`);
  if (cpuMsPerDiploma) say(`  whole session: ${cpuLine(cpuMsPerDiploma)}${dropDatabase ? '; the external PostgreSQL is not counted' : ''}`);
  if (result.stageCpuMsPerDiploma) {
    say(`  import:      ${cpuLine(result.stageCpuMsPerDiploma.import)}`);
    say(`  generation:  ${cpuLine(result.stageCpuMsPerDiploma.generation)}`);
    say(`  anchoring:   ${cpuLine(result.stageCpuMsPerDiploma.anchoring)}`);
  } else say(`  per stage: run with --parallel 1 (lists overlap otherwise)`);
  say(`  this process's other threads, each: ${threadsMsPerDiploma.slice(0, 8).join(', ')}${threadsMsPerDiploma.length > 8 ? ', …' : ''} ms`);
  if (cpuMsPerDiploma) say(`  at this CPU cost, 2 idle cores would issue ${fmt((cores * 1000) / cpuMsPerDiploma.total)} diplomas/s`);
  say();
  say(
    `overall: ${fmt(count)} diplomas in ${(sessionMs / 1000).toFixed(1)} s (first list's import → last list anchored): ${fmt(result.diplomasPerSecond)} diplomas/s, ${fmt(result.diplomasPerSecondPerCore)} per core (${cores} cores)`,
  );
  say(
    `  baseline on the same machine: ${fmt(baseline.allCoresRenderSignHashPerSecond)} diplomas/s for render + sign + hash alone on ${pool.size} threads (${Math.round((100 * perSecond) / baseline.allCoresRenderSignHashPerSecond)} % of it reached end to end)`,
  );
  say(
    `  machine CPU ${machineBusy ?? '?'} % busy during the session; load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(1)).join(' ')} after`,
  );
  say(
    `  peak memory (PSS of this process, its render threads, ${dropDatabase ? 'Anvil' : 'PostgreSQL and Anvil'}): ${fmt(result.peakMemoryMb)} MB; this process alone (RSS) ${fmt(result.peakMemoryThisProcessMb)} MB`,
  );
  say(
    `  storage per 1,000 diplomas: database ${result.databaseMbPer1000} MB, files ${result.filesMbPer1000} MB (${Object.entries(result.filesMbPer1000ByFolder)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}); ${result.kbPerDiploma} KB per diploma in all (PDF ${result.avgPdfKb} KB)`,
  );
  say(`  a session of ${fmt(SESSION)} at this rate: ${fmt(result.sessionMinutes, 1)} minutes (goal: under 45)`);
  await cleanUp();
  say(JSON.stringify(result));
} catch (error) {
  console.error(error);
  sampling = false;
  await cleanUp();
  process.exit(1);
}
