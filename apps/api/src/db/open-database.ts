import path from 'node:path';
import type { RestartPolicy } from '@sceau/chain';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { createDb, migrateDb, type Db } from './client.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './embedded-postgres.ts';

export const EMBEDDED_DATABASE = 'sceau';

export interface OpenDatabase {
  db: Db;
  connectionString: string;
  embedded: EmbeddedPostgresHandle | null;
  close(): Promise<void>;
}

/**
 * The database the platform runs on: `DATABASE_URL` when set, else a PostgreSQL server of its own
 * under `DATA_DIR/postgres` (restarted if it dies when `restart` is given). Migrated before
 * anything uses it.
 */
export async function openDatabase(config: Config, log: Logger, restart?: RestartPolicy): Promise<OpenDatabase> {
  let embedded: EmbeddedPostgresHandle | null = null;
  let connectionString = config.databaseUrl;
  if (!connectionString) {
    embedded = await startEmbeddedPostgres({ dataDir: path.join(config.dataDir, 'postgres'), port: config.embeddedPgPort, log, ...(restart ? { restart } : {}) });
    await embedded.createDatabase(EMBEDDED_DATABASE);
    connectionString = embedded.connectionString(EMBEDDED_DATABASE);
    log.info({ port: config.embeddedPgPort }, 'embedded PostgreSQL ready');
  }
  const db = createDb(connectionString, 10, config.database);
  try {
    await migrateDb(db);
  } catch (error) {
    await db.$client.end();
    await embedded?.stop();
    throw error;
  }
  return {
    db,
    connectionString,
    embedded,
    async close() {
      await db.$client.end();
      await embedded?.stop();
    },
  };
}
