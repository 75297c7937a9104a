/**
 * Restores a backup (ADR 0121), with the platform stopped:
 *   npm run restore -- --from sceau-backup.tar.gz [--data-dir DIR] [--force]
 * The target is DATA_DIR (or --data-dir), and DATABASE_URL / the S3 bucket when configured. A
 * non-empty target is refused unless --force (its data is then moved aside, not deleted); a damaged
 * archive is refused before anything is written.
 */
import { parseArgs } from 'node:util';
import { BackupError } from '../backup/archive.ts';
import { restoreBackup } from '../backup/restore.ts';
import { loadConfig } from '../config.ts';

const USAGE = 'usage: npm run restore -- --from <archive> [--data-dir DIR] [--force]';

try {
  const { values } = parseArgs({ options: { from: { type: 'string' }, 'data-dir': { type: 'string' }, force: { type: 'boolean', default: false } } });
  if (!values.from) throw new Error(USAGE);
  const config = loadConfig({ ...process.env, ...(values['data-dir'] ? { DATA_DIR: values['data-dir'] } : {}) });
  const result = await restoreBackup({ config, from: values.from, force: values.force, log: (line) => console.log(line) });
  console.log(`restored into ${result.dataDir} in ${(result.ms / 1000).toFixed(1)} s; start the platform on it (DATA_DIR=${result.dataDir})`);
} catch (error) {
  console.error(error instanceof BackupError ? `restore refused: ${error.message}` : error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
