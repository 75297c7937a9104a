import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import type { TestProject } from 'vitest/node';
import { createDb, migrateDb } from '../src/db/client.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../src/db/embedded-postgres.ts';
import { seedCatalogue, seedDemo } from '../src/seed/seed.ts';
import { installValidationMessages } from '@sceau/contracts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A connection string to the test server's maintenance database, for creating databases. */
    pgAdminUrl: string;
    /** A migrated and seeded database that each test file copies. */
    templateDatabase: string;
  }
}

/**
 * One PostgreSQL server for the run: the machine's when TEST_DATABASE_URL is set (CI), else an
 * embedded one in a temporary folder. A template database is migrated and seeded once; each test
 * file works in a copy of it, and every database the run made is dropped at the end.
 */
export default async function setup(project: TestProject) {
  installValidationMessages();
  const log = pino({ level: 'warn' });
  const runId = `${Date.now().toString(36)}_${process.pid}`;
  let embedded: EmbeddedPostgresHandle | null = null;
  let tmpDir: string | null = null;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    tmpDir = await mkdtemp(path.join(os.tmpdir(), 'sceau-test-pg-'));
    embedded = await startEmbeddedPostgres({ dataDir: tmpDir, port: 54000 + (process.pid % 1000), log });
    adminUrl = embedded.connectionString('postgres');
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const template = `sceau_test_tpl_${runId}`;
  await admin.query(`create database "${template}"`);

  const templateUrl = withDatabase(adminUrl, template);
  const db = createDb(templateUrl, 2);
  await migrateDb(db);
  await seedCatalogue(db);
  await seedDemo(db);
  await db.$client.end();

  project.provide('pgAdminUrl', adminUrl);
  project.provide('templateDatabase', template);

  return async () => {
    // Drop this run's databases (the template and every copy of it).
    const { rows } = await admin.query<{ datname: string }>(`select datname from pg_database where datname like $1`, [`sceau_test_%${runId}%`]);
    for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
    await admin.end();
    await embedded?.stop();
    if (tmpDir) await rm(tmpDir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
