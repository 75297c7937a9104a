/**
 * Seals the diplomas issued before seals, or sealed under an earlier key (ADR 0154, docs/security.md):
 * each row's credential is checked in full, then its seal and public credential are written; a row
 * that fails the check is left unsealed and listed (its verification by id stays the full check).
 * Idempotent (a row whose seal holds is left alone) and resumable (`--after <id>`, printed as it goes).
 *   npm run diplomas:seal [-- --chunk 500] [--after <diploma id>]
 * Uses the same key as the API (VERIFICATION_SEAL_KEY, else DATA_DIR/keys/verification-seal.key).
 */
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/open-database.ts';
import { loadSealKey, sealDiplomas } from '../modules/verification/verification-seal.ts';

const { values } = parseArgs({ options: { chunk: { type: 'string' }, after: { type: 'string' } } });
const chunk = values.chunk === undefined ? 500 : Number(values.chunk);
if (!Number.isInteger(chunk) || chunk < 1 || chunk > 10_000) {
  console.error('Usage: npm run diplomas:seal [-- --chunk <1-10000, default 500>] [--after <diploma id>]');
  process.exit(2);
}
const config = loadConfig();
try {
  const key = await loadSealKey(config.verificationSeal);
  const database = await openDatabase(config, pino({ level: 'warn' }));
  try {
    const started = Date.now();
    const report = await sealDiplomas(database.db, key, {
      chunk,
      ...(values.after ? { after: values.after } : {}),
      onChunk: (r, last) => console.log(`${r.read} read, ${r.sealed} sealed, ${r.alreadySealed} already sealed, ${r.failed.length} failed (resume with --after ${last})`),
    });
    console.log(
      `Done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${report.read} diploma(s) read, ${report.sealed} sealed now, ${report.alreadySealed} already sealed, ${report.failed.length} left unsealed.`,
    );
    for (const f of report.failed.slice(0, 50)) console.log(`  not sealed: ${f.id}  ${f.problem}`);
    if (report.failed.length > 50) console.log(`  … and ${report.failed.length - 50} more`);
    if (report.failed.length) {
      console.log('Those credentials do not pass their own check: they were changed after issuance, or are not ours. Their verification answers "not authentic".');
      process.exitCode = 1;
    }
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
