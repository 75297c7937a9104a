/**
 * Loads the exam authority's results export into the national results registry (ADR 0060):
 *   npm run import:results -- <file.csv|file.xlsx> --session 2026
 * All rows or none: a file with a problem is refused whole and its problems printed. Running it
 * again with a corrected export replaces the session's rows of the same candidate codes.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/open-database.ts';
import { examSessions } from '../../db/schema.ts';
import { createFileStorage } from '../../lib/create-file-storage.ts';
import { seedCatalogue } from '../../seed/seed.ts';
import { ImportsService } from './imports-service.ts';
import { ResultsRegistryService } from './results-registry-service.ts';

const { values, positionals } = parseArgs({ options: { session: { type: 'string' } }, allowPositionals: true });
const usage = 'Usage: npm run import:results -- <export.csv|export.xlsx> --session <year or id>';
if (positionals.length !== 1 || !values.session || !/^\d+$/.test(values.session)) {
  console.error(usage);
  process.exit(2);
}
// npm runs scripts from the repository's root; a relative path is the caller's.
const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]!);
const bytes = await readFile(file).catch(() => {
  console.error(`Cannot read ${file}`);
  process.exit(2);
});

const config = loadConfig();
const log = pino({ level: 'warn' });
const database = await openDatabase(config, log);
try {
  // The sessions are part of the catalogue (idempotent), so a fresh installation can load results first.
  await seedCatalogue(database.db);
  const ref = Number(values.session);
  const [session] = await database.db
    .select()
    .from(examSessions)
    .where(ref >= 1900 ? eq(examSessions.year, ref) : eq(examSessions.id, ref));
  if (!session) {
    console.error(`Unknown session ${values.session}`);
    process.exitCode = 2;
  } else {
    const storage = createFileStorage(config, log);
    const registry = new ResultsRegistryService(database.db, storage, new ImportsService(database.db, storage, log), log);
    const started = Date.now();
    const outcome = await registry.importExport(bytes, session.id);
    if (outcome.problems.length) {
      console.error(`Refused: ${outcome.problems.length} problem(s), nothing imported.`);
      for (const p of outcome.problems.slice(0, 50)) console.error(`  row ${p.row}${p.column ? `, ${p.column}` : ''}: ${p.code}${p.params ? ` ${JSON.stringify(p.params)}` : ''}`);
      process.exitCode = 1;
    } else {
      console.log(`${outcome.rows} result(s) of ${session.name} imported in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    }
  }
} finally {
  await database.close();
}
