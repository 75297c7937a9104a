import { connectChain, diplomaRegistryArtifact } from '@sceau/chain';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { cleanUpPlatforms, makeDataDir, platformChildren, platformEnv, PlatformProcess } from './server-process.ts';

// Issue 5, "Reliability": the whole platform (`npm run serve`, embedded PostgreSQL, local Anvil)
// is killed with -9 in the middle of an import, then in the middle of a generation, and started
// again on the same data folder each time. Everything goes through its HTTP API, as the back
// office does; the database and the chain are read directly only to count what was written.
//
// The list is big enough for each job to run for several seconds on a busy 2-core machine (a
// quarter of the photos need re-encoding by the import; 2,000 PDFs to render), and the kill waits
// for visible progress. A job that finished before the kill fails the test (it would prove nothing).

const CANDIDATES = Number(process.env.CRASH_TEST_CANDIDATES ?? 2000);
/** One photo in this many is phone-sized, so the import must re-encode it (the others pass through, ADR 0107). */
const SLOW_PHOTO_EVERY = 4;
const ADMIN = 'admin@sceau.example';

let dataDir = '';
afterAll(() => cleanUpPlatforms([dataDir]), 120_000);

/** What happened when, printed after each test: the timings a slow machine needs. */
const startedAt = Date.now();
const timeline: string[] = [];
const note = (event: string) => timeline.push(`${((Date.now() - startedAt) / 1000).toFixed(1)} s  ${event}`);
afterAll(() => console.info(`crash recovery, ${CANDIDATES} candidates:\n${timeline.join('\n')}`));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls `probe` until it answers something other than undefined; fails with `what` after `timeoutMs`. */
async function waitUntil<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>, intervalMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      if (error instanceof VacuousCrash) throw error;
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await sleep(intervalMs);
  }
}

/** The job ended before the kill could land in it: the crash would prove nothing. */
class VacuousCrash extends Error {}

class Api {
  token = '';
  constructor(public server: PlatformProcess) {}

  async call<T = { data: unknown }>(method: string, url: string, body?: unknown, expected = [200]): Promise<T> {
    const init: RequestInit = { method, headers: { ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const res = await fetch(`${this.server.base}${url}`, init);
    const text = await res.text();
    if (!expected.includes(res.status)) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 1000)}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  async signIn(username: string): Promise<void> {
    const answer = await this.call<{ access_token: string }>('POST', '/oauth/token', {
      grant_type: 'password',
      client_id: 'sceau-web',
      client_secret: 'sceau-web-dev-secret',
      username,
      password: 'Sceau-Demo-2026',
    });
    this.token = answer.access_token;
  }
}

/** One query on the platform's embedded database (a fresh connection: the next crash or start ends it). */
async function query<R extends pg.QueryResultRow>(env: Record<string, string>, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: `postgres://sceau:sceau@127.0.0.1:${env.EMBEDDED_PG_PORT}/sceau` });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

// ------------------------------------------------------------------ the list

const LAST_NAMES = ['Kabongo', 'Ngalula', "N'Sele", 'Tshibangu-Kalala', 'Mbuyi', 'Lukusa', 'Ilunga', 'Kanyinda'];
const MIDDLE_NAMES = ['wa Ilunga', 'Mwamba', '', 'Kasongo', 'Mbombo', 'Nkulu'];
const FIRST_NAMES = ['Marie-Claire', 'Grâce', 'Dieudonné', 'Béatrice', 'Jean-Noël', 'Chérubin', 'Élodie', 'Gédéon'];
const PLACES = ['Kinshasa', 'Mbuji-Mayi', 'Lubumbashi', 'Kisangani', 'Likasi'];
/** The demo's two schools of centre KIN-FUN-C1, with options they teach. */
const SCHOOLS = [
  { school: 'KIN-FUN-C1-E1', options: ['LIT', 'SA', 'ELE', 'CON'] },
  { school: 'KIN-FUN-C1-E2', options: ['MP', 'PG', 'ELN', 'INF', 'CCO'] },
];

function code(i: number): string {
  return `2026${String(770_000_000 + i).padStart(10, '0')}`;
}

/** A CSV as Excel on a French Windows writes it (`;`, byte-order mark, CRLF), dates in several formats. */
function studentList(n: number): Buffer {
  const lines = [['code_candidat', 'nom', 'postnom', 'prenom', 'date_naissance', 'lieu_naissance', 'sexe', 'option', 'ecole', 'centre', 'pourcentage', 'photo'].join(';')];
  for (let i = 0; i < n; i++) {
    const { school, options } = SCHOOLS[i % 2]!;
    const day = (i % 28) + 1;
    const month = ((i * 7) % 12) + 1;
    const year = 2005 + (i % 3);
    const date = [
      `${day}/${month}/${year}`,
      `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      `${String(day).padStart(2, '0')}.${String(month).padStart(2, '0')}.${year}`,
    ][i % 3];
    lines.push(
      [
        code(i),
        LAST_NAMES[i % LAST_NAMES.length],
        MIDDLE_NAMES[i % MIDDLE_NAMES.length],
        FIRST_NAMES[(i * 3) % FIRST_NAMES.length],
        date,
        PLACES[i % PLACES.length],
        i % 2 ? 'M' : 'F',
        options[i % options.length],
        school,
        'KIN-FUN-C1',
        `${50 + (i % 45)},${i % 10}`,
        '',
      ].join(';'),
    );
  }
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8')]);
}

function portraitSvg(width: number, height: number, hue: number): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="hsl(${hue},40%,80%)"/><circle cx="${width / 2}" cy="${height / 2.6}" r="${width / 4}" fill="hsl(${hue},30%,30%)"/></svg>`,
  );
}

/** A zip of `<code>.jpg`: most already fitted to the diploma's photo box, one in SLOW_PHOTO_EVERY phone-sized. */
async function photosZip(n: number): Promise<Buffer> {
  const fitted = await Promise.all(
    [0, 1, 2, 3].map((k) =>
      sharp(portraitSvg(300, 400, k * 90))
        .jpeg({ quality: 80 })
        .toBuffer(),
    ),
  );
  const phone = await Promise.all(
    [0, 1, 2, 3].map((k) =>
      sharp(portraitSvg(900, 1200, k * 90 + 45))
        .jpeg({ quality: 90 })
        .toBuffer(),
    ),
  );
  const archive = new yazl.ZipFile();
  for (let i = 0; i < n; i++) archive.addBuffer(i % SLOW_PHOTO_EVERY === 0 ? phone[i % 4]! : fitted[i % 4]!, `${code(i)}.jpg`, { compress: false });
  archive.end();
  const chunks: Buffer[] = [];
  for await (const chunk of archive.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

// ------------------------------------------------------------------ the test

interface Tracking {
  status: string;
  percent: number;
  rows_done: number;
  rows_total: number;
  error: string | null;
}
interface Status {
  status: string;
  signature_status: string;
  progress: { done: number; total: number; percent: number };
  last_error: string | null;
}

describe('the issuing pipeline killed with -9 and started again', () => {
  let env: Record<string, string>;
  let api: Api;
  let generationId = 0;
  const codes = Array.from({ length: CANDIDATES }, (_, i) => code(i));

  /** Kills the platform and starts it again on the same data folder; answers when the new one serves. */
  async function crashAndRestart(): Promise<number> {
    await api.server.crash();
    // As after a real crash, its embedded PostgreSQL and Anvil are left running: the start must stop them.
    const left = (await platformChildren(dataDir)).map((c) => `${c.name} ${c.pid}`);
    note(`killed with -9 (left running: ${left.join(', ') || 'nothing'})`);
    const restartedAt = Date.now();
    api.server = await PlatformProcess.start(env, { timeoutMs: 120_000 });
    note('started again');
    await api.signIn(ADMIN);
    return restartedAt;
  }

  it('finishes an import cut by the crash, each candidate imported once', { timeout: 240_000 }, async () => {
    dataDir = await makeDataDir('sceau-crash-');
    // LOG_LEVEL warn: a failure names the job errors the server logged.
    env = await platformEnv(dataDir, { DEMO_DATA: 'true', OTP_RESEND_SECONDS: '0', LOG_LEVEL: 'warn' });
    const [list, zip] = await Promise.all([studentList(CANDIDATES), photosZip(CANDIDATES)]);
    note('list and photos made');
    api = new Api(await PlatformProcess.start(env, { timeoutMs: 120_000 }));
    note('platform started');
    await api.signIn(ADMIN);

    const sessions = await api.call<{ data: { id: number; year: number }[] }>('GET', '/sessions');
    const provinces = await api.call<{ data: { id: number; code: string }[] }>('GET', '/educ-provinces');
    const template = await api.call<{ data: { id: number } }>('GET', '/templates/drc');
    const form = new FormData();
    form.set('template', String(template.data.id));
    form.set('session_id', String(sessions.data.find((s) => s.year === 2026)!.id));
    form.set('province_id', String(provinces.data.find((p) => p.code === 'KIN-FUN')!.id));
    form.set('file', new Blob([list], { type: 'text/csv' }), 'liste-crash.csv');
    form.set('photos', new Blob([zip], { type: 'application/zip' }), 'photos.zip');
    const checked = await api.call<{ data: { generation_id: number; valid_rows: number; error_count: number; errors: unknown[]; photos: { matched: number } } }>(
      'POST',
      '/check-import-file',
      form,
    );
    expect(checked.data.errors, 'the list is checked without a problem').toEqual([]);
    expect(checked.data).toMatchObject({ valid_rows: CANDIDATES, error_count: 0, photos: { matched: CANDIDATES } });
    generationId = checked.data.generation_id;
    note('list checked');

    const started = await api.call<{ data: { importation_id: number } }>(
      'POST',
      '/start-import-process',
      { generation_id: generationId, title: 'Lot interrompu — Kinshasa-Funa' },
      [202],
    );
    const importationId = started.data.importation_id;
    const tracking = () => api.call<{ data: Tracking }>('GET', `/importations/${importationId}/tracking`).then((r) => r.data);

    // Killed once its photos are visibly under way, before its single insert transaction.
    const atKill = await waitUntil(
      'the import to be under way',
      120_000,
      async () => {
        const t = await tracking();
        if (t.status === 'completed' || t.status === 'failed')
          throw new VacuousCrash(`the import ended (${t.status}) before the kill could land in it: raise CRASH_TEST_CANDIDATES`);
        return t.status === 'running' && t.percent >= 1 ? t : undefined;
      },
      100,
    );
    note(`import under way: ${atKill.percent} % (${atKill.rows_done} rows)`);
    expect(atKill.percent).toBeLessThan(90);
    await crashAndRestart();

    const done = await waitUntil('the import to finish after the restart', 180_000, async () => {
      const t = await tracking();
      if (t.status === 'failed') throw new Error(`the import failed after the restart: ${t.error}`);
      return t.status === 'completed' ? t : undefined;
    });
    note('import completed');
    expect(done).toMatchObject({ percent: 100, rows_done: CANDIDATES, rows_total: CANDIDATES, error: null });

    // It ran again after the restart (so the kill did land in the middle), and wrote its rows once.
    const [importation] = await query<{ attempts: number }>(env, 'select attempts from importations where id = $1', [importationId]);
    expect(importation!.attempts, 'the import ran again after the restart').toBeGreaterThanOrEqual(2);
    const [counts] = await query<{ rows: string; codes: string; photos: string }>(
      env,
      'select count(*) as rows, count(distinct candidate_code) as codes, count(photo_key) as photos from generation_items where generation_id = $1',
      [generationId],
    );
    expect(counts).toEqual({ rows: String(CANDIDATES), codes: String(CANDIDATES), photos: String(CANDIDATES) });
    const imported = await query<{ candidate_code: string }>(env, 'select candidate_code from generation_items where generation_id = $1 order by candidate_code', [generationId]);
    expect(imported.map((r) => r.candidate_code)).toEqual([...codes].sort());
    const audit = await query<{ n: string }>(env, "select count(*) as n from audit_log where action = 'generation.imported' and subject_id = $1", [String(generationId)]);
    expect(audit[0]!.n).toBe('1');
    const stored = await readdir(path.join(dataDir, 'files', 'photos', String(generationId)));
    expect(stored.filter((f) => f.endsWith('.jpg'))).toHaveLength(CANDIDATES);

    const batch = await api.call<{ data: { status: string; counts: { items: number } } }>('GET', `/generations/${generationId}`);
    expect(batch.data).toMatchObject({ status: 'pending_validation', counts: { items: CANDIDATES } });
  });

  it('finishes a generation cut by the crash: each diploma issued once, verifiable, the root anchored once', { timeout: 300_000 }, async () => {
    expect(generationId, 'the import of the first test').toBeGreaterThan(0);

    // Validation, as the photo and data screens do it: every candidate, 500 at a time.
    const ids: number[] = [];
    for (let page = 1; ; page++) {
      const list = await api.call<{ data: { id: number }[]; meta: { last_page: number } }>('GET', `/validations/photos/${generationId}?per_page=100&page=${page}`);
      ids.push(...list.data.map((item) => item.id));
      if (page >= list.meta.last_page) break;
    }
    expect(new Set(ids).size).toBe(CANDIDATES);
    for (const aspect of ['photos', 'data']) {
      for (let i = 0; i < ids.length; i += 500) {
        await api.call('POST', `/validations/${aspect}/validate`, { generation_id: generationId, items: ids.slice(i, i + 500) });
      }
    }
    note('validated');
    const ready = await api.call<{ data: { status: string } }>('GET', `/generations/${generationId}`);
    expect(ready.data.status).toBe('ready_for_generation');

    // The launch: a one-time code sent to the signed-in user (read from the development outbox).
    await api.call('GET', `/generations/send-otp?generation_id=${generationId}`);
    const outbox = await api.call<{ data: { text: string }[] }>('GET', `/dev/outbox?to=${encodeURIComponent(ADMIN)}&limit=1`);
    const otp = /\b(\d{6})\b/.exec(outbox.data[0]?.text ?? '')?.[1];
    expect(otp, 'a launch code in the outbox').toBeDefined();
    await api.call('POST', '/generations/verify-otp', { code: otp, generation_id: generationId });
    await api.call('POST', '/start-generation-process', { generation_id: generationId });

    const status = () => api.call<{ data: Status }>('GET', `/generations/${generationId}/status`).then((r) => r.data);
    const atKill = await waitUntil(
      'the generation to be under way',
      180_000,
      async () => {
        const s = await status();
        if (s.status !== 'in_progress')
          throw new VacuousCrash(`the generation is ${s.status} (${s.progress.percent} %) before the kill could land in it: raise CRASH_TEST_CANDIDATES`);
        return s.progress.percent >= 1 ? s : undefined;
      },
      100,
    );
    note(`generation under way: ${atKill.progress.percent} % (${atKill.progress.done} PDFs)`);
    expect(atKill.progress.percent).toBeLessThanOrEqual(90);
    const rootBefore = (await api.call<{ data: { merkle_root: string | null } }>('GET', `/generations/${generationId}`)).data.merkle_root;
    expect(rootBefore).toMatch(/^[0-9a-f]{64}$/);
    const restartedAt = await crashAndRestart();

    const generated = await waitUntil('"ready for signature" after the restart', 180_000, async () => {
      const s = await status();
      if (s.status === 'failed') throw new Error(`the generation failed after the restart: ${s.last_error}`);
      return s.status === 'ready_for_signature' ? s : undefined;
    });
    note('ready for signature');
    expect(generated.progress).toMatchObject({ done: CANDIDATES, total: CANDIDATES, percent: 100 });
    // It was finished by the restarted platform, once.
    const moves = await query<{ at: Date }>(
      env,
      "select at from audit_log where action = 'generation.status_changed' and subject_id = $1 and details->>'to' = 'ready_for_signature'",
      [String(generationId)],
    );
    expect(moves).toHaveLength(1);
    expect(moves[0]!.at.getTime()).toBeGreaterThan(restartedAt);

    await api.call('POST', `/generations/${generationId}/apply-signature`, undefined, [202]);
    const published = await waitUntil('"completed"', 120_000, async () => {
      const s = await status();
      return s.status === 'completed' ? s : undefined;
    });
    note('completed');
    expect(published.signature_status).toBe('finished');

    // Each candidate has exactly one diploma, with one PDF; ids are unique; no stray PDF was left.
    const [diplomas] = await query<{ n: string; ids: string; items: string; without_pdf: string }>(
      env,
      'select count(*) as n, count(distinct id) as ids, count(distinct item_id) as items, count(*) filter (where pdf_key is null) as without_pdf from diplomas where generation_id = $1',
      [generationId],
    );
    expect(diplomas).toEqual({ n: String(CANDIDATES), ids: String(CANDIDATES), items: String(CANDIDATES), without_pdf: '0' });
    const [orphans] = await query<{ n: string }>(
      env,
      'select count(*) as n from generation_items i where i.generation_id = $1 and not exists (select 1 from diplomas d where d.item_id = i.id)',
      [generationId],
    );
    expect(orphans!.n).toBe('0');
    const pdfs = (await readdir(path.join(dataDir, 'files', 'diplomas', String(generationId)))).filter((f) => f.endsWith('.pdf'));
    expect(pdfs).toHaveLength(CANDIDATES);

    // The root the batch had before the crash is the one anchored, by one transaction.
    const detail = await api.call<{ data: { merkle_root: string; anchor: { chain_id: number; contract: `0x${string}`; tx_hash: string } } }>('GET', `/generations/${generationId}`);
    expect(detail.data.merkle_root).toBe(rootBefore);
    const chain = connectChain({ rpcUrl: `http://127.0.0.1:${env.CHAIN_PORT}`, chainId: detail.data.anchor.chain_id });
    const issued = await chain.publicClient.getContractEvents({
      address: detail.data.anchor.contract,
      abi: diplomaRegistryArtifact.abi,
      eventName: 'Issued',
      args: { root: `0x${rootBefore}` },
      fromBlock: 0n,
    });
    expect(issued).toHaveLength(1);
    expect(issued[0]!.transactionHash).toBe(detail.data.anchor.tx_hash);

    // A sample verifies as authentic, the first and the last diplomas among them.
    const all = await query<{ id: string }>(env, 'select id from diplomas where generation_id = $1 order by item_id', [generationId]);
    const sample = new Set([all[0]!.id, all.at(-1)!.id]);
    while (sample.size < 22) sample.add(all[Math.floor(Math.random() * all.length)]!.id);
    for (const id of sample) {
      const answer = await api.call<{ data: { verdict: string } }>('GET', `/verify/${id}`);
      expect(answer.data.verdict, id).toBe('authentic');
    }
    note('checked');
  });
});
