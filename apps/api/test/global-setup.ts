import pg from 'pg';
import { pino } from 'pino';
import type { TestProject } from 'vitest/node';
import { createDb, migrateDb } from '../src/db/client.ts';
import { seedCatalogue, seedDemo } from '../src/seed/seed.ts';
import { installValidationMessages } from '@sceau/contracts';
import { startTestPostgres, type TestPostgres } from './test-postgres.ts';

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
  let embedded: TestPostgres | null = null;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    // A start that fails (its port taken, say) removes its folder; a taken port is replaced by a free one.
    embedded = await startTestPostgres({ port: 54000 + (process.pid % 1000), log });
    adminUrl = embedded.embedded.connectionString('postgres');
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  const template = `sceau_test_tpl_${runId}`;
  try {
    await admin.connect();
    await admin.query(`create database "${template}"`);
    const templateUrl = withDatabase(adminUrl, template);
    const db = createDb(templateUrl, 2);
    try {
      await migrateDb(db);
      await seedCatalogue(db);
      await seedDemo(db);
    } finally {
      await db.$client.end();
    }
  } catch (error) {
    // Nothing left behind by a set-up that failed: no template database, no server, no folder.
    await admin.query(`drop database if exists "${template}" with (force)`).catch(() => {});
    await admin.end().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw error;
  }

  project.provide('pgAdminUrl', adminUrl);
  project.provide('templateDatabase', template);

  return async () => {
    // Drop this run's databases (the template and every copy of it).
    const { rows } = await admin.query<{ datname: string }>(`select datname from pg_database where datname like $1`, [`sceau_test_%${runId}%`]);
    for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
    await admin.end();
    await embedded?.stop();
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
