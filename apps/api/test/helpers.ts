import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { createDb, type Db } from '../src/db/client.ts';
import { withDatabase } from './global-setup.ts';

export interface TestContext {
  app: App;
  db: Db;
  /** The test database's connection string (e.g. for a job queue). */
  databaseUrl: string;
  config: Config;
  close(): Promise<void>;
}

/** A fresh copy of the seeded template database, private to the caller. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject('pgAdminUrl');
  const template = inject('templateDatabase');
  const name = `${template.replace('_tpl_', `_${randomBytes(4).toString('hex')}_`)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}" template "${template}"`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(adminUrl, name),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}

/** The real app, in-process, on its own database (demo data included). */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestContext> {
  const database = await createTestDatabase();
  // Files and the outbox go to a folder of the test's own, removed at close.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sceau-test-data-'));
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST: '', DATA_DIR: dataDir, ...env });
  const db = createDb(database.url, 4);
  const app = await buildApp({ db, config });
  await app.ready();
  return {
    app,
    db,
    databaseUrl: database.url,
    config,
    async close() {
      await app.close();
      await db.$client.end();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export const DEMO_PASSWORD = 'Sceau-Demo-2026';

/** Signs in through the real token endpoint and returns the bearer token. */
export async function signIn(ctx: TestContext, username: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/oauth/token',
    payload: {
      grant_type: 'password',
      client_id: ctx.config.oauth.clientId,
      client_secret: ctx.config.oauth.clientSecret,
      username,
      password,
      scope: '',
    },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in of ${username} failed: ${res.statusCode} ${res.body}`);
  return res.json().access_token as string;
}

/** The latest message the outbox holds for an address (what the person would have received). */
export async function lastMessageTo(ctx: TestContext, to: string) {
  const [message] = await ctx.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}&limit=1` }).then((r) => r.json().data);
  return message as { channel: string; to: string; subject: string | null; text: string } | undefined;
}

/** The six-digit code in a message. */
export function codeIn(text: string | undefined): string {
  const match = text?.match(/\b(\d{6})\b/);
  if (!match) throw new Error(`no code in: ${text}`);
  return match[1]!;
}
