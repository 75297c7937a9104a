import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './embedded-postgres.ts';

// Real servers in temporary directories. Every server, child process and directory is cleaned
// up after each test, even on failure.

const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');
const MODULE_URL = pathToFileURL(path.join(import.meta.dirname, 'embedded-postgres.ts')).href;
const PG_URL = pathToFileURL(path.join(REPO_ROOT, 'node_modules/pg/lib/index.js')).href;

const handles: EmbeddedPostgresHandle[] = [];
const children: ChildProcess[] = [];
const roots: string[] = [];
const sockets: net.Server[] = [];

async function newRoot(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sceau-epg-'));
  // When the tests run as root the server runs as "postgres", which must be able to enter it.
  await fs.chmod(dir, 0o755);
  roots.push(dir);
  return dir;
}

async function start(dataDir: string, port: number): Promise<EmbeddedPostgresHandle> {
  const h = await startEmbeddedPostgres({ dataDir, port });
  handles.push(h);
  return h;
}

async function query<T extends pg.QueryResultRow = pg.QueryResultRow>(h: EmbeddedPostgresHandle, db: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: h.connectionString(db) });
  await c.connect();
  try {
    return (await c.query<T>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Pids of the processes whose command line mentions `dir` (our servers only, never a broad match). */
function processesUsing(dir: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir) && alive(pid)) out.push(pid);
    } catch {
      /* gone */
    }
  }
  return out;
}

async function waitFor(predicate: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

afterEach(async () => {
  for (const h of handles.splice(0)) await h.stop().catch(() => {});
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const s of sockets.splice(0)) await new Promise((r) => s.close(r));
  for (const root of roots) {
    const left = processesUsing(root);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    if (left.length) await waitFor(() => left.every((p) => !alive(p))).catch(() => {});
  }
});

afterAll(async () => {
  for (const root of roots.splice(0)) await fs.rm(root, { recursive: true, force: true });
});

/**
 * A child Node process (same node binary, TypeScript through tsx) that starts the server,
 * then commits one row per statement and reports each id on stdout once its COMMIT returned.
 */
async function spawnWriter(root: string, dataDir: string, port: number) {
  const script = path.join(root, 'writer.mts');
  await fs.writeFile(
    script,
    `
import { startEmbeddedPostgres } from ${JSON.stringify(MODULE_URL)};
import pg from ${JSON.stringify(PG_URL)};
const h = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, port: ${port} });
process.on('SIGTERM', async () => { await h.stop(); process.exit(0); });
setInterval(() => {}, 1 << 30); // stay alive until killed
await h.createDatabase('app');
const c = new pg.Client({ connectionString: h.connectionString('app') });
c.on('error', () => {});
await c.connect();
await c.query('CREATE TABLE IF NOT EXISTS t (id int PRIMARY KEY, v text NOT NULL)');
console.log(JSON.stringify({ ready: h.pid }));
for (let i = 1; ; i++) {
  try {
    await c.query('INSERT INTO t VALUES ($1, $2)', [i, 'row ' + i]);
  } catch (e) {
    console.log(JSON.stringify({ error: String(e) }));
    break;
  }
  console.log(JSON.stringify({ committed: i }));
}
`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const state = { postmasterPid: 0, committed: 0, stderr: '', error: '' };
  let buf = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const lines = buf.split('\n');
    buf = lines.pop()!;
    for (const line of lines) {
      const msg = JSON.parse(line) as { ready?: number; committed?: number; error?: string };
      if (msg.ready) state.postmasterPid = msg.ready;
      if (msg.committed) state.committed = msg.committed;
      if (msg.error) state.error = msg.error;
    }
  });
  child.stderr!.on('data', (d: Buffer) => (state.stderr += d.toString()));
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  return { child, state, closed };
}

async function expectRows(h: EmbeddedPostgresHandle, committed: number): Promise<void> {
  const [row] = await query<{ n: string; lo: number; hi: number }>(h, 'app', 'SELECT count(*) AS n, min(id) AS lo, max(id) AS hi FROM t WHERE id <= $1', [committed]);
  expect(Number(row!.n)).toBe(committed); // every acknowledged commit is there
  expect(row!.lo).toBe(1);
  expect(row!.hi).toBe(committed);
}

describe('embedded PostgreSQL supervisor', () => {
  it('initialises, persists rows across stop/start, predictable collation', async () => {
    const root = await newRoot();
    const dataDir = path.join(root, 'postgres');

    let h = await start(dataDir, 55431);
    expect(h.pid).toBeGreaterThan(0);
    expect(h.connectionString('app')).toBe('postgres://sceau:sceau@127.0.0.1:55431/app');
    await h.createDatabase('app');
    await h.createDatabase('app'); // idempotent
    await query(h, 'app', 'CREATE TABLE t (id int PRIMARY KEY, v text)');
    await query(h, 'app', "INSERT INTO t VALUES (1, 'É'), (2, 'b'), (3, 'B'), (4, 'a')");
    const [loc] = await query<{ enc: string; provider: string; locale: string; upper: string }>(
      h,
      'app',
      `SELECT pg_encoding_to_char(encoding) AS enc, datlocprovider AS provider, datlocale AS locale,
              upper('é') AS upper FROM pg_database WHERE datname = current_database()`,
    );
    expect(loc).toEqual({ enc: 'UTF8', provider: 'b', locale: 'C.UTF-8', upper: 'É' });
    const pid1 = h.pid!;
    await h.stop();
    await h.stop(); // idempotent
    expect(h.pid).toBeNull();
    expect(alive(pid1)).toBe(false);
    await expect(fs.access(`${dataDir}.lock`)).rejects.toThrow(); // lock released

    if (process.getuid?.() === 0) {
      // A cluster touched by root (restored with cp, created by an older run...): given back to
      // the "postgres" user and to mode 0700 at start.
      const { execFileSync } = await import('node:child_process');
      execFileSync('chown', ['-R', 'root:root', dataDir]);
      await fs.chmod(dataDir, 0o755);
    }
    h = await start(dataDir, 55431);
    const rows = await query<{ v: string }>(h, 'app', 'SELECT v FROM t ORDER BY v');
    expect(rows.map((r) => r.v)).toEqual(['B', 'a', 'b', 'É']); // code-point order
    await h.dropDatabase('app');
    await h.dropDatabase('app'); // idempotent
    const dbs = await query(h, 'postgres', "SELECT 1 FROM pg_database WHERE datname = 'app'");
    expect(dbs).toHaveLength(0);
    // Only loopback TCP, no Unix socket (so no /tmp/.s.PGSQL.<port>.lock to go stale).
    const [cfg] = await query<{ l: string; u: string; f: string }>(
      h,
      'postgres',
      "SELECT current_setting('listen_addresses') AS l, current_setting('unix_socket_directories') AS u, current_setting('fsync') AS f",
    );
    expect(cfg).toEqual({ l: '127.0.0.1', u: '', f: 'on' });
  }, 30_000);

  it('kill -9 of the Node process: the server left running is stopped and every committed row is back', async () => {
    const root = await newRoot();
    const dataDir = path.join(root, 'postgres');
    const w = await spawnWriter(root, dataDir, 55432);
    await waitFor(() => w.state.committed >= 300 || w.child.exitCode !== null, 20_000).catch(() => {});
    expect(w.state.stderr).toBe('');
    expect(w.state.committed).toBeGreaterThanOrEqual(300);

    w.child.kill('SIGKILL'); // mid-stream: the writer is still committing
    await w.closed;
    const orphan = w.state.postmasterPid;
    expect(alive(orphan)).toBe(true); // the server outlived its Node process

    const h = await start(dataDir, 55432);
    expect(alive(orphan)).toBe(false);
    expect(h.pid).not.toBe(orphan);
    await expectRows(h, w.state.committed);
  }, 30_000);

  it('kill -9 of the postmaster: stop() in the owner copes, every committed row is back', async () => {
    const root = await newRoot();
    const dataDir = path.join(root, 'postgres');
    const w = await spawnWriter(root, dataDir, 55433);
    await waitFor(() => w.state.committed >= 300 || w.child.exitCode !== null, 20_000).catch(() => {});
    expect(w.state.stderr).toBe('');
    expect(w.state.committed).toBeGreaterThanOrEqual(300);

    process.kill(w.state.postmasterPid, 'SIGKILL');
    await waitFor(() => w.state.error !== ''); // the writer sees its connection die
    w.child.kill('SIGTERM'); // the owner shuts down: stop() on a dead server
    expect(await w.closed).toEqual({ code: 0, signal: null });
    // postmaster.pid of the killed server is still there: a stale lock
    await fs.access(path.join(dataDir, 'postmaster.pid'));

    const h = await start(dataDir, 55433);
    await expectRows(h, w.state.committed);
  }, 30_000);

  it('with a restart policy, kill -9 of the postmaster: started again by itself, every committed row is back', async () => {
    const root = await newRoot();
    const dataDir = path.join(root, 'postgres');
    const gaveUp: Error[] = [];
    const h = await startEmbeddedPostgres({ dataDir, port: 55439, restart: { initialDelayMs: 100, onGiveUp: (e) => void gaveUp.push(e) } });
    handles.push(h);
    await h.createDatabase('app');
    await query(h, 'app', 'CREATE TABLE t (id int PRIMARY KEY)');
    await query(h, 'app', 'INSERT INTO t SELECT generate_series(1, 50)');
    const killed = h.pid!;
    process.kill(killed, 'SIGKILL');
    await waitFor(() => h.pid !== null && h.pid !== killed, 25_000);
    expect(alive(killed)).toBe(false);
    await expectRows(h, 50);
    expect(gaveUp).toEqual([]);
  }, 40_000);

  it('with a restart policy, restarts that keep failing (port taken meanwhile) give up, naming the cause', async () => {
    const root = await newRoot();
    const dataDir = path.join(root, 'postgres');
    const outcome: { gaveUp: Error | null } = { gaveUp: null };
    const h = await startEmbeddedPostgres({ dataDir, port: 55440, restart: { maxRestarts: 2, initialDelayMs: 500, onGiveUp: (e) => void (outcome.gaveUp = e) } });
    handles.push(h);
    const killed = h.pid!;
    process.kill(killed, 'SIGKILL');
    // Another program takes the port before the first restart (500 ms later).
    const squatter = net.createServer();
    sockets.push(squatter);
    await new Promise<void>((resolve, reject) => {
      const tryListen = (left: number) => {
        squatter.once('error', () => (left > 0 ? setTimeout(() => tryListen(left - 1), 10) : reject(new Error('port never freed'))));
        squatter.listen(55440, '127.0.0.1', () => resolve());
      };
      tryListen(200);
    });
    await waitFor(() => outcome.gaveUp !== null, 20_000);
    expect(outcome.gaveUp!.message).toMatch(/EMBEDDED_PG_PORT/);
    expect(h.pid).toBeNull();
  }, 40_000);

  it('stale postmaster.pid (dead pid, or a pid reused by an unrelated process) does not block start', async () => {
    const root = await newRoot();
    const dataDir = path.join(root, 'postgres');
    let h = await start(dataDir, 55434);
    await h.createDatabase('app');
    await query(h, 'app', "CREATE TABLE t (v text); INSERT INTO t VALUES ('kept')");
    const pidFile = path.join(dataDir, 'postmaster.pid');
    const original = await fs.readFile(pidFile, 'utf8');
    await h.stop();

    // a dead pid
    const dead = spawn('true');
    await new Promise((r) => dead.once('exit', r));
    await fs.writeFile(pidFile, original.replace(/^\d+/, String(dead.pid)));
    h = await start(dataDir, 55434);
    expect((await query(h, 'app', 'SELECT v FROM t'))[0]).toEqual({ v: 'kept' });
    await h.stop();

    // a live, unrelated process (PostgreSQL alone would refuse: "lock file already exists")
    const sleeper = spawn('sleep', ['60']);
    children.push(sleeper);
    await fs.writeFile(pidFile, original.replace(/^\d+/, String(sleeper.pid)));
    h = await start(dataDir, 55434);
    expect(alive(sleeper.pid!)).toBe(true); // left alone
    expect((await query(h, 'app', 'SELECT v FROM t'))[0]).toEqual({ v: 'kept' });
  }, 30_000);

  it('port taken by another program: clear error naming the port and EMBEDDED_PG_PORT', async () => {
    const root = await newRoot();
    const dataDir = path.join(root, 'postgres');
    const blocker = net.createServer();
    sockets.push(blocker);
    await new Promise<void>((r) => blocker.listen(55435, '127.0.0.1', r));

    await expect(startEmbeddedPostgres({ dataDir, port: 55435 })).rejects.toThrow(/port 55435 .*in use.*EMBEDDED_PG_PORT/);
    expect(processesUsing(dataDir)).toEqual([]);
    // nothing left locked: with the port free, it starts
    await new Promise((r) => blocker.close(r));
    const h = await start(dataDir, 55435);
    expect(h.pid).toBeGreaterThan(0);
  }, 30_000);

  it('two concurrent starts on one data directory: one wins, the other is told it is in use', async () => {
    const root = await newRoot();
    const dataDir = path.join(root, 'postgres');
    const results = await Promise.allSettled([startEmbeddedPostgres({ dataDir, port: 55436 }), startEmbeddedPostgres({ dataDir, port: 55437 })]);
    for (const r of results) if (r.status === 'fulfilled') handles.push(r.value);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(String(rejected.reason)).toMatch(/in use by process/);
  }, 30_000);
});
