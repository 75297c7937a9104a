import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createTestDatabase } from '../../test/helpers.ts';
import { TcpProxy } from '../../test/tcp-proxy.ts';
import { createDb, type Db } from './client.ts';

// The platform's database hangs, then is lost, then comes back: requests get 503 with Retry-After
// meanwhile (in the caller's language), never hang for ever, and succeed again with no restart.

let proxy: TcpProxy;
let app: App;
let db: Db;
let dataDir: string;
let drop: () => Promise<void>;

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  const url = new URL(database.url);
  proxy = await TcpProxy.start({ host: url.hostname, port: Number(url.port) });
  url.host = `127.0.0.1:${proxy.port}`;
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sceau-outage-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    WEB_DIST: '',
    DATA_DIR: dataDir,
    DB_STATEMENT_TIMEOUT_MS: '1000',
    DB_QUERY_TIMEOUT_MS: '1500',
    DB_CONNECT_TIMEOUT_MS: '1000',
  });
  db = createDb(url.toString(), 4, config.database);
  app = await buildApp({ db, config });
  await app.ready();
});

afterAll(async () => {
  proxy.resume();
  await app?.close();
  await db?.$client.end();
  await proxy?.close();
  await drop?.();
  await rm(dataDir, { recursive: true, force: true });
});

const sessions = (locale = 'fr') => app.inject({ method: 'GET', url: '/api/sessions', headers: { 'x-locale': locale } });

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await work();
  return { result, ms: performance.now() - start };
}

async function eventually(ok: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await ok()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

describe('a hung or lost database', () => {
  it('answers 503 with Retry-After while it hangs, within the time limits', { timeout: 30_000 }, async () => {
    expect((await sessions()).statusCode).toBe(200);
    proxy.hang();
    // The pool's open connections hang (query timeout) and new ones are never answered (connect timeout).
    for (const locale of ['fr', 'en']) {
      const { result, ms } = await timed(() => sessions(locale));
      expect(result.statusCode).toBe(503);
      expect(result.headers['retry-after']).toBe('5');
      expect(result.json().code).toBe('service_unavailable');
      expect(result.json().message).toBe(
        locale === 'fr' ? 'Service brièvement indisponible, veuillez réessayer dans quelques secondes' : 'Service briefly unavailable, please try again in a few seconds',
      );
      expect(ms).toBeLessThan(5_000);
    }
    const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.database).toBe('failing');
    // Liveness touches no dependency: the process is alive and must not be restarted for this.
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('answers 503 once the database is lost, and recovers by itself when it is back', { timeout: 30_000 }, async () => {
    proxy.cut();
    const lost = await sessions('en');
    expect(lost.statusCode).toBe(503);
    expect(lost.headers['retry-after']).toBe('5');
    proxy.resume();
    expect(await eventually(async () => (await sessions()).statusCode === 200, 10_000)).toBe(true);
    // Every connection of the pool works again, not just one.
    const again = await Promise.all(Array.from({ length: 8 }, () => sessions()));
    expect(again.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
  });
});
