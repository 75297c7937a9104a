import { IMPORT_COLUMNS, type ImportColumn } from '@sceau/contracts';
import type { Db } from '../../db/client.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { FileStorage } from '../../lib/storage.ts';
import type { ExportCell } from '../../lib/table-export.ts';
import type { Actor } from '../../policies/actor.ts';
import { generationPolicy } from '../../policies/generation-policy.ts';
import { batchFor } from '../generations/batch-access.ts';
import { HEADER_HINTS, type RowProblem } from './import-checker.ts';
import { ImportRefused, readListKey, recheckStoredList } from './list-files.ts';
import { normaliseHeader, readTable, UnreadableTable } from './table-reader.ts';

const HEADER_KEYS = new Map<string, ImportColumn>(IMPORT_COLUMNS.flatMap((c) => [[c.key, c.key] as const, ...c.aliases.map((a) => [a, c.key] as const)]));

/** One line of the errors file, before translation. */
export interface CheckErrorLine {
  problem: RowProblem;
  /** The column as the file's header names it (else the expected column's key), and the cell as typed. */
  column: string | null;
  value: string;
}

export interface CheckErrors {
  generationId: number;
  /** The sheet read (null for a CSV). */
  sheet: string | null;
  lines: CheckErrorLine[];
}

/** Spreadsheet column letters: 0 → A, 26 → AA. */
function columnLetter(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/**
 * The errors of a draft's list check, to send back to the school (issue 15 item 8, ADR 0143): every
 * problem (not only the first IMPORT_LIMITS.maxErrorsListed the check's answer lists), with the cell
 * as typed. The problems are those of the stored list checked again as the start would (ADR 0111: the
 * file-only half read back from `check.json`, the database half run now), so the file says what the
 * start would refuse today; the cells are read from the stored list itself (the sheet the user chose).
 * Whoever may import into the draft (generation policy `importList`) may download it; a draft that
 * holds no list, or no longer a draft, is 409.
 */
export async function checkErrors(db: Db, storage: FileStorage, actor: Actor, generationId: number): Promise<CheckErrors> {
  const batch = await batchFor(db, actor, generationId, generationPolicy.importList);
  if (batch.status !== 'created' || !batch.sourceFileKey) throw new AppError('conflict');
  const listKey = batch.sourceFileKey;
  let problems: RowProblem[];
  try {
    problems = (await recheckStoredList(db, storage, batch, actor.scope, listKey, batch.sourcePhotosKey)).problems;
  } catch (error) {
    if (error instanceof ImportRefused) throw fieldError('file', error.key);
    throw error;
  }

  const list = await storage.get(listKey);
  if (!list) throw fieldError('file', 'field.import_file_missing');
  let sheetChosen: string | null = null;
  const stored = await storage.get(readListKey(listKey));
  if (stored) {
    try {
      const parsed = JSON.parse(stored.toString('utf8')) as { sheet?: unknown };
      if (typeof parsed.sheet === 'string') sheetChosen = parsed.sheet;
    } catch {
      // An unreadable stored check: the reader chooses the sheet, as the recheck did.
    }
  }
  let table: Awaited<ReturnType<typeof readTable>>;
  try {
    table = await readTable(list, HEADER_HINTS, { sheet: sheetChosen });
  } catch (error) {
    if (error instanceof UnreadableTable) throw fieldError('file', `field.import_${error.reason}`);
    throw error;
  }

  const columnIndex = new Map<ImportColumn, number>();
  table.header.cells.forEach((cell, index) => {
    const key = HEADER_KEYS.get(normaliseHeader(cell));
    if (key && !columnIndex.has(key)) columnIndex.set(key, index);
  });
  const wanted = new Set(problems.map((p) => p.row));
  const cellsOf = new Map<number, string[]>();
  for (const r of table.rows) if (wanted.has(r.row)) cellsOf.set(r.row, r.cells);

  const lines = problems.map((problem): CheckErrorLine => {
    if (!problem.column) return { problem, column: null, value: '' };
    const index = columnIndex.get(problem.column);
    if (index === undefined) return { problem, column: problem.column, value: '' };
    const header = table.header.cells[index]?.trim() || problem.column;
    return { problem, column: `${columnLetter(index)} (${header})`, value: cellsOf.get(problem.row)?.[index] ?? '' };
  });
  return { generationId: batch.id, sheet: table.sheet, lines };
}

/** The lines as the file's rows: row, column, value, message (translated by `message`), sheet. */
export async function* checkErrorRows(errors: CheckErrors, message: (problem: RowProblem) => string): AsyncGenerator<ExportCell[]> {
  for (const line of errors.lines) yield [line.problem.row, line.column, line.value, message(line.problem), errors.sheet];
}
