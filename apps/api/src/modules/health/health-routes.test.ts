import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readinessResponse } from '@sceau/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createDb, type Db } from '../../db/client.ts';
import { JobQueue } from '../../jobs/job-queue.ts';
import { createServices, type Services } from '../../services.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';

const silent = { info() {}, warn() {}, error() {} };
let ctx: TestContext;
let services: Services;
let app: App;
let queue: JobQueue;
let chainAnswers = true;

beforeAll(async () => {
  ctx = await createTestApp();
  queue = new JobQueue(ctx.databaseUrl, silent);
  services = createServices(ctx.db, ctx.config, { queue });
  // The chain as readiness sees it: its RPC answers a block number, or not.
  const chain = { connection: { publicClient: { getBlockNumber: async () => (chainAnswers ? 1n : Promise.reject(new Error('no chain'))) } } };
  (services as { identity: unknown }).identity = { chain };
  await queue.start({ work: false });
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await queue?.stop();
  await ctx?.close();
});

describe('GET /api/health/ready', () => {
  it('is ready when the database, the chain and the job queue answer', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(readinessResponse.parse(res.json())).toMatchObject({ status: 'ready', checks: { database: 'ok', chain: 'ok', jobs: 'ok' } });
  });

  it('says degraded (200, still serving) with the chain state when only the chain fails (ADR 0137)', async () => {
    chainAnswers = false;
    try {
      const res = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['retry-after']).toBeUndefined();
      expect(readinessResponse.parse(res.json())).toMatchObject({
        status: 'degraded',
        checks: { database: 'ok', chain: 'failing', jobs: 'ok' },
        chain: { reachable: false, last_block: null },
      });
    } finally {
      chainAnswers = true;
    }
    const back = await app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(back.json()).toMatchObject({ status: 'ready', chain: { reachable: true, last_block: 1 } });
  });

  it('names the failing dependency with 503 and Retry-After: a process without a chain or a started queue is not ready', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json().status).toBe('not_ready');
    expect(res.json().checks).toEqual({ database: 'ok', chain: 'failing', jobs: 'failing' });
  });
});

describe('GET /api/health (liveness)', () => {
  let dead: { app: App; db: Db; dataDir: string };
  beforeAll(async () => {
    // A database that does not exist at all: liveness must not care.
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sceau-live-'));
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST: '', DATA_DIR: dataDir, DB_CONNECT_TIMEOUT_MS: '500' });
    const db = createDb('postgres://nobody:nothing@127.0.0.1:1/none', 1, config.database);
    dead = { app: await buildApp({ db, config }), db, dataDir };
  });
  afterAll(async () => {
    await dead.app.close();
    await dead.db.$client.end();
    await rm(dead.dataDir, { recursive: true, force: true });
  });

  it('answers without touching any dependency, while readiness says the database is failing', async () => {
    const live = await dead.app.inject({ method: 'GET', url: '/api/health' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok', version: expect.any(String) });
    const ready = await dead.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.database).toBe('failing');
  });
});
