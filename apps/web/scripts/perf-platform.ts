/**
 * The platform the page measurements run against (`npm run perf:throttled`, `npm run lighthouse`):
 * a running one given by `--url` (with `--id`, a published diploma to open on `/verify/{id}`), or
 * one started here the way the browser journeys start it (e2e/serve-fresh.ts: the built web app,
 * `npm run serve`, a fresh embedded database with the demo data, removed when it stops).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';

const root = resolve(import.meta.dirname, '..', '..', '..');

export interface Platform {
  baseURL: string;
  /** A published, unrevoked diploma's id. */
  verifyId: string;
  stop(): Promise<void>;
}

export interface PlatformOptions {
  url?: string;
  id?: string;
  /** Ports of the platform started here (beside a journey run's 3310/54391/8591). */
  port?: number;
}

/** `--name value` and `--name=value` from argv. */
export function option(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === `--${name}`) return argv[i + 1];
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}

/** A published diploma of the demo batch, read from the platform's database. */
async function demoDiploma(connectionString: string): Promise<string> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(`
      select d.id from diplomas d
      join generations g on g.id = d.generation_id and g.status = 'completed' and g.revoked_at is null
      where d.revoked_at is null order by d.item_id limit 1`);
    if (!rows[0]) throw new Error('the demo data holds no published diploma');
    return rows[0].id;
  } finally {
    await client.end();
  }
}

async function waitForHealth(baseURL: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`the platform stopped while starting (exit ${server.exitCode})`);
    try {
      if ((await fetch(`${baseURL}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 500));
  }
  throw new Error(`the platform did not answer ${baseURL}/api/health within ${timeoutMs / 1000} s`);
}

export async function startPlatform(options: PlatformOptions): Promise<Platform> {
  if (options.url) {
    if (!options.id) throw new Error('--url needs --id <a published diploma id> for /verify/{id}');
    return { baseURL: options.url.replace(/\/$/, ''), verifyId: options.id, stop: async () => undefined };
  }
  if (!existsSync(join(root, 'apps', 'web', 'dist', 'index.html'))) throw new Error('apps/web/dist not found: run npm run build first');
  const port = options.port ?? 3320;
  const pgPort = port + 51_080; // 54400 for 3320
  const baseURL = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'e2e/serve-fresh.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(root, 'e2e', `.data-perf-${port}`),
      EMBEDDED_PG_PORT: String(pgPort),
      CHAIN_PORT: String(port + 5280), // 8600 for 3320
      DEMO_DATA: 'true',
      LOG_LEVEL: 'error',
      NODE_ENV: 'development',
    },
  });
  const stop = () =>
    new Promise<void>((done) => {
      if (server.exitCode !== null) return done();
      server.once('exit', () => done());
      server.kill('SIGTERM');
    });
  try {
    await waitForHealth(baseURL, server, 180_000);
    const verifyId = options.id ?? (await demoDiploma(`postgres://sceau:sceau@127.0.0.1:${pgPort}/sceau`));
    return { baseURL, verifyId, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
