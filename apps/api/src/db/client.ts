import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import path from 'node:path';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = NodePgDatabase<typeof schema> & { $client: pg.Pool };

/** Time limits of the platform's connections (DB_*_TIMEOUT_MS, ADR 0112); none when not given. */
export interface DatabaseLimits {
  /** The server cancels a statement running longer (statement_timeout). */
  statementTimeoutMs: number;
  /** The client gives up on a query the server does not answer (hung or lost server). */
  queryTimeoutMs: number;
  /** The client gives up on making a connection, or on waiting for a free one of the pool. */
  connectTimeoutMs: number;
}

export function createDb(connectionString: string, poolSize = 10, limits?: DatabaseLimits): Db {
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    ...(limits
      ? {
          statement_timeout: limits.statementTimeoutMs,
          query_timeout: limits.queryTimeoutMs,
          connectionTimeoutMillis: limits.connectTimeoutMs,
          // A transaction left open by a hung request must not hold its locks for ever.
          idle_in_transaction_session_timeout: limits.queryTimeoutMs,
          // A server that vanished (host down, network cut) is noticed on idle connections too.
          keepAlive: true,
        }
      : {}),
  });
  // An idle client that loses its server (restart, network) must not crash the process.
  pool.on('error', () => {});
  return drizzle(pool, { schema, casing: 'snake_case' }) as Db;
}

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../drizzle');

/**
 * Applies pending migrations; safe to run from several processes at once (drizzle takes no lock, so
 * we do). On a connection of its own without the pool's time limits: waiting for another process's
 * migration, or building an index on a big table, may rightly take longer than any request.
 */
export async function migrateDb(db: Db): Promise<void> {
  const { statement_timeout: _statement, query_timeout: _query, idle_in_transaction_session_timeout: _idle, ...options } = db.$client.options;
  const client = new pg.Client(options);
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(727275)');
    await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.query('select pg_advisory_unlock(727275)').catch(() => {});
    await client.end().catch(() => {});
  }
}
