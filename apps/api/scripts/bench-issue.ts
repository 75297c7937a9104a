// Issues N demo-like diplomas end to end, as the generation and signature jobs do, on a throwaway
// database, data folder and local chain, and prints what each stage costs (docs/performance.md).
//
//   npm run bench:issue [-- --count 10000] [--keep] [--workers 2]
//
// Stages: candidates (photos + bulk insert: the import, not timed as issuing), credentials + Merkle
// tree + QR payloads (one transaction), PDF render + PAdES signature on the render pool's worker
// threads, pipelined with the storage writes and database updates, and the anchoring transaction.
// The last line printed is one JSON object with every figure.
import { verifyDocument, verifyQrPayload } from '@sceau/credential';
import { diplomeEtatTemplate, extractAttachment, preparePhoto, verifyPdfSignature } from '@sceau/pdf';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { pino } from 'pino';
import sharp from 'sharp';
import { loadConfig } from '../src/config.ts';
import { createDb, migrateDb, type Db } from '../src/db/client.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../src/db/embedded-postgres.ts';
import { diplomas, educProvinces, examSessions, generationItems, generations, institutionOptions, institutions } from '../src/db/schema.ts';
import { LocalFileStorage } from '../src/lib/storage.ts';
import { openChain, type OpenChain } from '../src/modules/chain/open-chain.ts';
import { moveGeneration, moveSignature } from '../src/modules/generations/generation-status.ts';
import { IssuingService } from '../src/modules/generations/issuing-service.ts';
import { closeSharedRenderPool, sharedRenderPool } from '../src/modules/generations/render-pool.ts';
import { loadMinistryKeys } from '../src/modules/keys/ministry-keys.ts';
import { seedCountryTemplate, seedDemoSignatures } from '../src/seed/demo-batch.ts';
import { seedCatalogue, seedDemo } from '../src/seed/seed.ts';
import { ensureFreeDisk, freePort, machineBusySince, machineCpu } from './bench-support.ts';

// ---- arguments -------------------------------------------------------------------------------
const args = process.argv.slice(2);
function option(name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}
const count = Number(option('--count') ?? 10_000);
const keep = args.includes('--keep');
const cores = os.availableParallelism();
const workers = Number(option('--workers') ?? cores);
if (!Number.isInteger(count) || count < 1) throw new Error('--count must be a positive whole number');
if (!Number.isInteger(workers) || workers < 1) throw new Error('--workers must be a positive whole number');

const MB = 1024 * 1024;
const rssMb = () => Math.round(process.memoryUsage().rss / MB);
/** The JavaScript heap still in use after a full collection (RSS also counts memory V8 keeps but no longer uses). */
const liveHeapMb = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round(process.memoryUsage().heapUsed / MB);
};
const log = pino({ level: 'warn' });
const say = (line: string) => console.log(line);

// ---- disk check ------------------------------------------------------------------------------
// Per diploma: the PDF (~100 KB), its photo (~20 KB), its rows, indexes and their WAL; PostgreSQL
// may keep up to max_wal_size (1 GB) of WAL on top.
const PER_DIPLOMA = 300 * 1024;
const FIXED = 1.5 * 1024 * MB;
const tmpRoot = os.tmpdir();
await ensureFreeDisk('bench:issue', tmpRoot, FIXED + count * PER_DIPLOMA, ` for ${count} diplomas`, 'Free some space, point TMPDIR elsewhere, or lower --count.');

// ---- throwaway environment ---------------------------------------------------------------------
const workDir = await mkdtemp(path.join(tmpRoot, 'sceau-bench-'));
await chmod(workDir, 0o755); // the embedded server may run as the postgres user
const dataDir = path.join(workDir, 'data');
await mkdir(dataDir, { recursive: true });
let embedded: EmbeddedPostgresHandle | null = null;
let dropDatabase: (() => Promise<void>) | null = null;
let db: Db | null = null;
let chain: OpenChain | null = null;
let cleaning: Promise<void> | null = null;

async function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    await closeSharedRenderPool().catch(() => {});
    await chain?.close().catch(() => {});
    await db?.$client.end().catch(() => {});
    if (keep) {
      await embedded?.stop().catch(() => {});
      say(`kept: ${workDir} (data folder, PostgreSQL cluster${dropDatabase ? '' : ''}) — remove it by hand`);
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

const busyText = (pct: number | null) => (pct === null ? '' : `; machine CPU ${pct} % busy`);

// Figures mean something only on an otherwise idle machine: say so when it is not.
{
  const before = await machineCpu();
  await new Promise((r) => setTimeout(r, 1000));
  const busy = await machineBusySince(before);
  if (busy !== null && busy > 20)
    console.warn(`warning: the machine is already ${busy} % busy before the bench starts (load ${os.loadavg()[0]!.toFixed(1)}): the figures will be low`);
}

// Peak memory of this process (main thread and render workers; PostgreSQL and Anvil are apart).
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 25);
sampler.unref();

try {
  const t0 = performance.now();
  let databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    // A database of its own on the given server, dropped at the end.
    const name = `sceau_bench_${randomBytes(4).toString('hex')}`;
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
    say(`database: ${name} on the server of DATABASE_URL (dropped at the end)`);
  } else {
    embedded = await startEmbeddedPostgres({ dataDir: path.join(workDir, 'postgres'), port: await freePort(), log });
    await embedded.createDatabase('sceau_bench');
    databaseUrl = embedded.connectionString('sceau_bench');
    say(`database: embedded PostgreSQL in ${workDir}/postgres`);
  }
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', WEB_DIST: '', DATA_DIR: dataDir, DATABASE_URL: databaseUrl, CHAIN_PORT: String(await freePort()) });
  db = createDb(databaseUrl);
  await migrateDb(db);
  await seedCatalogue(db);
  await seedDemo(db);
  const storage = new LocalFileStorage(config.filesDir);
  const templateId = await seedCountryTemplate(db);
  await seedDemoSignatures(db, storage);
  const keys = await loadMinistryKeys(config.keys, log);
  chain = await openChain(config, log);
  const issuing = new IssuingService(db, config, keys, storage, chain, log);
  const pool = sharedRenderPool({ size: workers });
  // As a server does at start: the workers load their code once, before any batch.
  const warm = performance.now();
  await pool.start();
  const poolStartS = (performance.now() - warm) / 1000;
  const setupS = (performance.now() - t0) / 1000;
  say(`set-up (database, seed, keys, Anvil + registry, render pool): ${setupS.toFixed(1)} s, of which the render workers' start ${poolStartS.toFixed(2)} s`);
  say(
    `machine: ${os.cpus()[0]?.model ?? 'cpu'} × ${cores} cores, ${Math.round(os.totalmem() / 1024 / MB)} GB RAM, Node ${process.version}; render workers: ${pool.size}; diplomas: ${count}`,
  );
  say('');

  // ---- candidates: photos and one bulk insert per 1,000 rows ----------------------------------
  const [session] = await db.select().from(examSessions).where(eq(examSessions.isCurrent, true));
  const [province] = await db.select().from(educProvinces).where(eq(educProvinces.code, 'KIN-FUN'));
  const [school] = await db.select().from(institutions).where(eq(institutions.educProvinceId, province!.id)).limit(1);
  const [schoolOption] = await db.select().from(institutionOptions).where(eq(institutionOptions.institutionId, school!.id)).limit(1);
  // Portraits as a validated upload leaves them (preparePhoto: 200 dpi, ≤ 30 KB), textured like a
  // real photo rather than flat colours; 64 of them, each candidate with a file of its own.
  const photos = await Promise.all(
    Array.from({ length: 64 }, async (_, i) => {
      const hue = (i * 37) % 360;
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="400"><defs><radialGradient id="g"><stop offset="0" stop-color="hsl(${hue},30%,88%)"/><stop offset="1" stop-color="hsl(${hue},35%,65%)"/></radialGradient></defs><rect width="300" height="400" fill="url(#g)"/><circle cx="150" cy="150" r="72" fill="hsl(${(hue + 20) % 360},25%,35%)"/><path d="M30 400 C 40 270, 260 270, 270 400 Z" fill="hsl(${hue},25%,30%)"/></svg>`;
      const noise = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 18 } } })
        .png()
        .toBuffer();
      const base = await sharp(Buffer.from(svg))
        .composite([{ input: noise, blend: 'soft-light' }])
        .jpeg({ quality: 90 })
        .toBuffer();
      return preparePhoto(base, diplomeEtatTemplate.photo);
    }),
  );
  const avgPhotoKb = photos.reduce((n, p) => n + p.length, 0) / photos.length / 1024;
  let t = performance.now();
  const [batch] = await db
    .insert(generations)
    .values({
      type: 'diplome_etat',
      templateId,
      title: `Banc d'essai — ${count} diplômes`,
      sessionId: session!.id,
      educProvinceId: province!.id,
      institutionId: school!.id,
      centreId: school!.centreId,
      optionId: schoolOption!.optionId,
    })
    .returning({ id: generations.id });
  const batchId = batch!.id;
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
  const INSERT_ROWS = 1000;
  const WRITE_CONCURRENCY = 64;
  for (let from = 0; from < count; from += INSERT_ROWS) {
    const rows: (typeof generationItems.$inferInsert)[] = [];
    const writes: Array<() => Promise<void>> = [];
    for (let i = from; i < Math.min(count, from + INSERT_ROWS); i++) {
      const photoKey = `photos/bench/${batchId}/${i + 1}.jpg`;
      writes.push(() => storage.put(photoKey, Buffer.from(photos[i % photos.length]!)));
      rows.push({
        generationId: batchId,
        candidateCode: `2026${String(i + 1).padStart(10, '0')}`,
        lastName: lastNames[i % lastNames.length]!,
        middleName: middleNames[(i * 7) % middleNames.length]!,
        firstName: firstNames[(i * 5) % firstNames.length]!,
        birthDate: `${2005 + (i % 3)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
        birthPlace: places[(i * 3) % places.length]!,
        gender: i % 2 ? 'M' : 'F',
        optionId: schoolOption!.optionId,
        institutionId: school!.id,
        centreId: school!.centreId!,
        percentageTenths: 500 + ((i * 37) % 450),
        photoKey,
        photoStatus: 'validated',
        dataStatus: 'validated',
        sourceRow: i + 2,
      });
    }
    for (let w = 0; w < writes.length; w += WRITE_CONCURRENCY) await Promise.all(writes.slice(w, w + WRITE_CONCURRENCY).map((f) => f()));
    await db.insert(generationItems).values(rows);
  }
  await db.transaction(async (tx) => {
    await moveGeneration(tx, batchId, 'pending_validation', { reason: 'bench' });
    await moveGeneration(tx, batchId, 'ready_for_generation', {});
    await moveGeneration(tx, batchId, 'in_progress', {});
  });
  const candidatesS = (performance.now() - t) / 1000;
  say(
    `candidates (photo files + bulk insert, the import; not counted below): ${candidatesS.toFixed(2)} s, ${Math.round(count / candidatesS)}/s; photo ${avgPhotoKb.toFixed(1)} KB`,
  );

  // ---- issuing ----------------------------------------------------------------------------------
  const issueStart = performance.now();
  const cpuStart = process.cpuUsage();
  const memory: Record<string, number> = { beforeIssuingMb: rssMb(), heapBeforeMb: liveHeapMb() };

  // 1. Credentials, Merkle tree, QR payloads: one transaction (IssuingService.writeCredentials).
  peakRss = 0;
  let cpu0 = await machineCpu();
  t = performance.now();
  await issuing['writeCredentials'](batchId);
  const credentialsS = (performance.now() - t) / 1000;
  const credentialsPeakMb = Math.round(peakRss / MB);
  memory.afterCredentialsMb = rssMb();
  memory.heapAfterCredentialsMb = liveHeapMb();
  say(
    `1. credentials + Merkle tree + QR (one transaction): ${credentialsS.toFixed(2)} s, ${Math.round(count / credentialsS)}/s, ${((credentialsS * 1000) / count).toFixed(3)} ms/diploma; peak RSS ${credentialsPeakMb} MB (${memory.afterCredentialsMb} MB after; ${memory.beforeIssuingMb} MB before)${busyText(await machineBusySince(cpu0))}`,
  );

  // 2. PDFs on the render pool, pipelined with storage + database (IssuingService.renderPending).
  const marks = [0.25, 0.5, 0.75, 1];
  const atProgress: Record<string, number> = {};
  const watcher = setInterval(() => {
    while (marks.length && pool.stats.documents >= marks[0]! * count) atProgress[`${Math.round(marks.shift()! * 100)}%`] = rssMb();
  }, 20);
  peakRss = 0;
  const elu0 = performance.eventLoopUtilization();
  cpu0 = await machineCpu();
  t = performance.now();
  await issuing['renderPending'](batchId);
  const renderS = (performance.now() - t) / 1000;
  const elu = performance.eventLoopUtilization(elu0);
  clearInterval(watcher);
  while (marks.length) atProgress[`${Math.round(marks.shift()! * 100)}%`] = rssMb();
  const renderPeakMb = Math.round(peakRss / MB);
  memory.heapAfterRenderMb = liveHeapMb();
  const s = pool.stats;
  say(`2. PDF render + sign on ${pool.size} workers, with storage + DB: ${renderS.toFixed(2)} s, ${Math.round(count / renderS)}/s${busyText(await machineBusySince(cpu0))}`);
  say(
    `   in the workers: render ${(s.renderMs / s.documents).toFixed(3)} ms + PAdES sign ${(s.signMs / s.documents).toFixed(3)} ms per diploma (${Math.round((1000 * s.documents) / (s.renderMs + s.signMs))}/s per worker busy)`,
  );
  say(
    `   storage + DB (overlapping the rendering): PDF writes ${(s.storageMs / count).toFixed(3)} ms, chunk transactions ${(s.dbMs / count).toFixed(3)} ms, photo reads ${(s.photoReadMs / count).toFixed(3)} ms per diploma (summed per chunk)`,
  );
  say(`   main thread busy ${Math.round(elu.utilization * 100)} % of the time; RSS at 25/50/75/100 %: ${Object.values(atProgress).join(' / ')} MB; peak ${renderPeakMb} MB`);
  say(
    `   live JavaScript heap after a full GC: ${memory.heapBeforeMb} MB before issuing, ${memory.heapAfterCredentialsMb} MB after the credentials, ${memory.heapAfterRenderMb} MB after the PDFs`,
  );

  // 3. The batch moves to "ready for signature" (nothing left to render).
  t = performance.now();
  await issuing.generate(batchId);
  const [generated] = await db.select().from(generations).where(eq(generations.id, batchId));
  if (generated!.status !== 'ready_for_signature') throw new Error(`batch is ${generated!.status}, not ready_for_signature`);

  // 4. Anchoring: one transaction on the local chain (mined and saved to disk).
  await db.transaction((tx) => moveSignature(tx, batchId, 'in_progress'));
  await issuing.anchor(batchId);
  const anchorS = (performance.now() - t) / 1000;
  const issueS = (performance.now() - issueStart) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const [published] = await db.select().from(generations).where(eq(generations.id, batchId));
  if (published!.status !== 'completed' || !published!.anchorTxHash) throw new Error(`batch not published: ${published!.status}`);
  say(`3. anchoring (status change, one transaction on Anvil, mined and saved): ${anchorS.toFixed(2)} s, tx ${published!.anchorTxHash.slice(0, 18)}…`);

  // ---- checks: everything there, a sample verified ----------------------------------------------
  const [totals] = await db
    .select({
      n: sql<number>`count(*)::int`,
      withPdf: sql<number>`count(${diplomas.pdfKey})::int`,
      bytes: sql<number>`coalesce(sum(${diplomas.pdfBytes}), 0)::float8`,
      max: sql<number>`coalesce(max(${diplomas.pdfBytes}), 0)::int`,
    })
    .from(diplomas)
    .where(eq(diplomas.generationId, batchId));
  if (totals!.n !== count || totals!.withPdf !== count) throw new Error(`expected ${count} diplomas with a PDF, found ${totals!.n} (${totals!.withPdf} with a PDF)`);
  if (published!.progressDone !== count) throw new Error(`progress ${published!.progressDone}/${count}`);
  const jwks = keys.jwks();
  const sample = await db
    .select()
    .from(diplomas)
    .where(and(eq(diplomas.generationId, batchId)))
    .orderBy(sql`random()`)
    .limit(5);
  for (const row of sample) {
    const pdf = (await storage.get(row.pdfKey!))!;
    if (!verifyPdfSignature(pdf).intact) throw new Error(`PDF of ${row.id}: signature not intact`);
    const attached = JSON.parse(new TextDecoder().decode((await extractAttachment(pdf, 'credential.json'))!));
    if (attached.signature.targetHash !== row.targetHash || verifyDocument(attached).integrity !== 'ok') throw new Error(`PDF of ${row.id}: credential does not verify`);
    if (verifyQrPayload(row.qrPayload, jwks).status !== 'valid') throw new Error(`QR of ${row.id} does not verify`);
  }
  say(`checked: ${count} diplomas with a stored PDF, progress ${published!.progressDone}/${count}, batch completed; 5 random PDFs: PAdES intact, credential and QR verify`);

  const perSecond = count / issueS;
  const result = {
    count,
    cores,
    workers: pool.size,
    issueSeconds: +issueS.toFixed(2),
    diplomasPerSecond: Math.round(perSecond),
    diplomasPerSecondPerCore: Math.round(perSecond / cores),
    stages: {
      credentialsSeconds: +credentialsS.toFixed(2),
      renderSignStoreSeconds: +renderS.toFixed(2),
      anchorSeconds: +anchorS.toFixed(2),
      renderPoolStartSeconds: +poolStartS.toFixed(2),
      candidatesImportSeconds: +candidatesS.toFixed(2),
    },
    workerRenderMsPerDoc: +(s.renderMs / s.documents).toFixed(3),
    workerSignMsPerDoc: +(s.signMs / s.documents).toFixed(3),
    mainThreadBusyDuringRender: +elu.utilization.toFixed(2),
    cpuSecondsThisProcess: +((cpu.user + cpu.system) / 1e6).toFixed(1),
    peakMemoryMb: Math.max(credentialsPeakMb, renderPeakMb),
    credentialsPeakMemoryMb: credentialsPeakMb,
    renderPeakMemoryMb: renderPeakMb,
    memoryMbAtRenderProgress: atProgress,
    liveHeapMb: { beforeIssuing: memory.heapBeforeMb, afterCredentials: memory.heapAfterCredentialsMb, afterPdfs: memory.heapAfterRenderMb },
    avgPdfKb: +(totals!.bytes / count / 1024).toFixed(1),
    maxPdfKb: +(totals!.max / 1024).toFixed(1),
    avgPhotoKb: +avgPhotoKb.toFixed(1),
    node: process.version,
  };
  say('');
  say(
    `overall (credentials → anchored): ${issueS.toFixed(2)} s for ${count} diplomas: ${result.diplomasPerSecond} diplomas/s, ${result.diplomasPerSecondPerCore} per core (${cores} cores)`,
  );
  say(
    `load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  say(
    `process CPU ${result.cpuSecondsThisProcess} s over ${issueS.toFixed(1)} s wall (${Math.round((100 * result.cpuSecondsThisProcess) / issueS / cores)} % of ${cores} cores; PostgreSQL and Anvil use the rest)`,
  );
  say(`peak memory (RSS, this process with its workers): ${result.peakMemoryMb} MB; average PDF ${result.avgPdfKb} KB (largest ${result.maxPdfKb} KB)`);
  await cleanUp();
  say(JSON.stringify(result));
} catch (error) {
  console.error(error);
  await cleanUp();
  process.exit(1);
}
