/**
 * The whole platform as `npm run serve` starts it, in a child process of the test, on a data folder
 * and ports of its own: started, killed with -9 as a crash would, started again, and always cleaned
 * up (its embedded PostgreSQL and Anvil included, even when a test fails right after a crash).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, isAlive, sleep, waitUntil } from '@sceau/process';

export { freePort };

const root = path.resolve(import.meta.dirname, '../../..');

/** A fresh data folder; mkdtemp makes it private to us, and as root the embedded server runs as another user that must enter it. */
export async function makeDataDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await chmod(dir, 0o755);
  return dir;
}

/** The environment of a platform on `dataDir`, with free ports for HTTP, the embedded PostgreSQL and Anvil. */
export async function platformEnv(dataDir: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return { DATA_DIR: dataDir, PORT: String(await freePort()), EMBEDDED_PG_PORT: String(await freePort()), CHAIN_PORT: String(await freePort()), ...extra };
}

/** Signs in as the demo's root (a platform started with DEMO_DATA) and reads its first batch: the batch's id and its diplomas' ids. */
export async function demoBatch(base: string): Promise<{ batchId: number; diplomaIds: string[] }> {
  const token = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'password', client_id: 'sceau-web', client_secret: 'sceau-web-dev-secret', username: 'root@sceau.example', password: 'Sceau-Demo-2026' }),
  }).then(async (r) => ((await r.json()) as { access_token: string }).access_token);
  const auth = { authorization: `Bearer ${token}` };
  const [batch] = ((await fetch(`${base}/generations/by-user`, { headers: auth }).then((r) => r.json())) as { data: { id: number }[] }).data;
  const detail = (await fetch(`${base}/generations/${batch!.id}`, { headers: auth }).then((r) => r.json())) as { data: { items: { diploma: { id: string } }[] } };
  return { batchId: batch!.id, diplomaIds: detail.data.items.map((item) => item.diploma.id) };
}

export class PlatformProcess {
  private outputTail = '';
  private readonly exited: Promise<void>;

  private constructor(
    readonly child: ChildProcess,
    readonly env: Record<string, string>,
  ) {
    // pino logs on stdout, a crash's trace goes to stderr: both are kept, the end of them.
    const keep = (chunk: Buffer) => {
      this.outputTail = (this.outputTail + chunk.toString()).slice(-8000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
  }

  /** Every process started by this module and the data folders they used, for `cleanUpPlatforms`. */
  static readonly started: PlatformProcess[] = [];

  /** Starts the platform without waiting for it (`waitForOutput` waits for a line of its log). */
  static launch(env: Record<string, string>): PlatformProcess {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'error', WEB_DIST: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new PlatformProcess(child, env);
    PlatformProcess.started.push(server);
    return server;
  }

  /** Starts the platform and waits until /api/health answers. */
  static async start(env: Record<string, string>, options: { timeoutMs?: number } = {}): Promise<PlatformProcess> {
    const server = PlatformProcess.launch(env);
    const { child } = server;
    const deadline = Date.now() + (options.timeoutMs ?? 90_000);
    while (Date.now() < deadline) {
      if (!server.alive) throw new Error(`the server exited (${child.exitCode ?? child.signalCode}): ${server.output()}`);
      if (
        await fetch(`${server.base}/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return server;
      await sleep(250);
    }
    throw new Error(`the server did not answer in ${(options.timeoutMs ?? 90_000) / 1000} s: ${server.output()}`);
  }

  /** Waits until the server has written a line matching `pattern` (within its last 8,000 characters). */
  async waitForOutput(pattern: RegExp, timeoutMs = 90_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.outputTail)) {
      if (!this.alive) throw new Error(`the server exited before writing ${pattern}: ${this.output()}`);
      if (Date.now() > deadline) throw new Error(`the server did not write ${pattern} in ${timeoutMs / 1000} s: ${this.output()}`);
      await sleep(50);
    }
  }

  /** http://127.0.0.1:PORT/api */
  get base(): string {
    return `http://127.0.0.1:${this.env.PORT}/api`;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The last lines the server wrote (its log and errors). */
  output(): string {
    return this.outputTail;
  }

  /** kill -9, as a crash: its embedded PostgreSQL and Anvil stay running, as they would; the next start stops them. */
  async crash(): Promise<void> {
    if (this.alive) this.child.kill('SIGKILL');
    await this.exited;
  }

  /** A clean stop (SIGTERM: the server closes its jobs, Anvil and PostgreSQL), -9 if it does not stop in time. */
  async stop(timeoutMs = 30_000): Promise<void> {
    if (!this.alive) return;
    this.child.kill('SIGTERM');
    const stopped = await Promise.race([this.exited.then(() => true), sleep(timeoutMs).then(() => false)]);
    if (!stopped) await this.crash();
  }
}

/** Is `pid` alive and running a command line that names `dataDir` (so a reused pid is never signalled)? */
async function runsOn(pid: number, dataDir: string): Promise<boolean> {
  try {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes(dataDir);
  } catch {
    return false;
  }
}

const waitGone = (pid: number, ms: number) => waitUntil(() => !isAlive(pid), ms, 100);

/** The embedded PostgreSQL and the Anvil running on `dataDir`, by their pid files (checked against `dataDir`). */
export async function platformChildren(dataDir: string): Promise<{ name: 'postgres' | 'anvil'; pid: number }[]> {
  const found: { name: 'postgres' | 'anvil'; pid: number }[] = [];
  const postmaster = await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => '');
  const pgPid = Number(postmaster.split('\n')[0]);
  if (pgPid > 0 && (await runsOn(pgPid, path.resolve(dataDir)))) found.push({ name: 'postgres', pid: pgPid });
  const anvil = await readFile(path.join(dataDir, 'chain', 'anvil.pid'), 'utf8').catch(() => '');
  try {
    const { pid } = JSON.parse(anvil) as { pid?: number };
    if (typeof pid === 'number' && pid > 0 && (await runsOn(pid, path.resolve(dataDir)))) found.push({ name: 'anvil', pid });
  } catch {
    // no pid file: no Anvil
  }
  return found;
}

/**
 * The embedded PostgreSQL and the Anvil that a server killed with -9 left running on `dataDir`
 * (when no later start stopped them): PostgreSQL by a fast shutdown, Anvil by SIGTERM, -9 if
 * either does not go.
 */
export async function stopLeftovers(dataDir: string): Promise<void> {
  for (const { name, pid } of await platformChildren(dataDir)) {
    process.kill(pid, name === 'postgres' ? 'SIGINT' : 'SIGTERM');
    if (!(await waitGone(pid, 15_000))) {
      process.kill(pid, 'SIGKILL');
      await waitGone(pid, 5_000);
    }
  }
}

/** Stops every platform this module started, whatever state they are in, then removes their data folders. */
export async function cleanUpPlatforms(dataDirs: string[]): Promise<void> {
  await Promise.all(PlatformProcess.started.splice(0).map((server) => server.stop()));
  for (const dir of dataDirs.filter(Boolean)) {
    await stopLeftovers(dir);
    await rm(dir, { recursive: true, force: true });
  }
}
