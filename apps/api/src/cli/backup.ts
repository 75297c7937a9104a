/**
 * A backup of the platform, while it runs or not (ADR 0121):
 *   npm run backup -- --out backups/            (a new sceau-backup-<date>.tar.gz in that folder)
 *   npm run backup -- --out /mnt/b/sceau.tar.gz  (.tar: not compressed)
 * Same configuration as the server (DATA_DIR, DATABASE_URL, FILE_STORAGE and S3_*, CHAIN_RPC_URL).
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createBackup } from '../backup/backup.ts';
import { loadConfig } from '../config.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../db/embedded-postgres.ts';
import { isAlive } from '@sceau/process';

const USAGE = 'usage: npm run backup -- --out <file.tar.gz | file.tar | folder>';

/** The running embedded server's port, from its postmaster.pid (4th line), if its postmaster is alive. */
function runningPort(clusterDir: string): number | null {
  try {
    const lines = readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
    if (!isAlive(Number(lines[0]))) return null;
    return Number(lines[3]) || null;
  } catch {
    return null;
  }
}

try {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  if (!values.out) throw new Error(USAGE);
  let out = path.resolve(values.out);
  const isFolder = values.out.endsWith('/') || statSync(out, { throwIfNoEntry: false })?.isDirectory();
  if (isFolder) out = path.join(out, `sceau-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`);

  const config = loadConfig();
  let embedded: EmbeddedPostgresHandle | null = null;
  let embeddedConnectionString: string | undefined;
  if (!config.databaseUrl) {
    const clusterDir = path.join(config.dataDir, 'postgres');
    const port = runningPort(clusterDir);
    if (port) embeddedConnectionString = `postgres://sceau:sceau@127.0.0.1:${port}/postgres`;
    else {
      // The platform is stopped: start its cluster for the time of the copy (same online procedure).
      embedded = await startEmbeddedPostgres({ dataDir: clusterDir, port: config.embeddedPgPort });
      embeddedConnectionString = embedded.connectionString();
    }
  }
  try {
    const result = await createBackup({ config, out, ...(embeddedConnectionString ? { embeddedConnectionString } : {}), log: (line) => console.log(line) });
    console.log(`backup written: ${result.file} (${result.bytes} bytes, ${(result.ms / 1000).toFixed(1)} s)`);
  } finally {
    await embedded?.stop();
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
