import { Readable } from 'node:stream';
import { IMPORT_COLUMNS, type ImportColumn } from '@sceau/contracts';
import ExcelJS from 'exceljs';
import { kindOfBytes, kindOfText, kindOfZip, type OtherKind } from './file-kind.ts';
import { OdsUnreadable, readFodsSheets, readOdsSheets, SHEET_LIMITS, type RawSheet } from './ods-reader.ts';
import { cleanText, comparable, readName } from './row-values.ts';
import { checkZipLimits, XLSX_ZIP_LIMITS, ZipLimitExceeded } from './zip-limits.ts';

/** A list read from a CSV, XLSX or ODS file: every cell as text, rows numbered as a spreadsheet shows them. */
export interface Table {
  format: 'csv' | 'xlsx' | 'ods';
  /** The sheet read (null for a CSV) and every sheet of the workbook, in order. */
  sheet: string | null;
  sheets: string[];
  header: { row: number; cells: string[] };
  rows: { row: number; cells: string[] }[];
  /** Lines under the header that are no candidate (a total, a signature, a note, the header again): left out, and said. */
  ignored: { row: number; text: string }[];
}

export type UnreadableReason = 'file_type' | 'file_unreadable' | 'empty_file' | 'file_too_large_uncompressed' | 'sheet_unknown' | `file_${Exclude<OtherKind, 'binary'>}`;

/** Why a file could not be read as a list (translated as `errors:field.import_<reason>`, with `params`). */
export class UnreadableTable extends Error {
  constructor(
    readonly reason: UnreadableReason,
    readonly params: Record<string, unknown> = {},
  ) {
    super(reason);
  }
}

export interface ReadTableOptions {
  /** The sheet to read, by name; by default the first holding every required column. */
  sheet?: string | null;
}

const otherKind = (kind: OtherKind): UnreadableTable => new UnreadableTable(kind === 'binary' ? 'file_type' : `file_${kind}`);

/**
 * Reads a list by its content, never its name: an XLSX workbook (exceljs), an OpenDocument
 * spreadsheet (.ods, or a flat .fods), or text (CSV in UTF-8, with or without a byte-order mark; a
 * Windows-1252 export is accepted too; `;`, `,` or tab separated). Any other file is refused with
 * what it is (file-kind.ts). `headerHints` are normalised header names: a sheet's header is the
 * first row among its first ten holding at least two of them (lists often start with a title).
 * In a workbook, the sheet read is `options.sheet`, else the first holding every required column
 * (an "Instructions" sheet before the list is passed over), else the one with most known columns.
 * Lines under the header that hold no candidate are left out (`isCandidateLine`).
 */
export async function readTable(buffer: Buffer, headerHints: ReadonlySet<string>, options: ReadTableOptions = {}): Promise<Table> {
  if (buffer.length === 0) throw new UnreadableTable('empty_file');
  const kind = kindOfBytes(buffer);
  if (kind === 'zip-container') {
    // Every zip is inflated once under caps before any reader opens it (ADR 0114). An upload was
    // checked already (multipart-upload.ts): the same bytes are not inflated twice.
    try {
      await checkZipLimits(buffer, XLSX_ZIP_LIMITS);
    } catch (error) {
      throw new UnreadableTable(error instanceof ZipLimitExceeded ? 'file_too_large_uncompressed' : 'file_unreadable');
    }
    const zipKind = await kindOfZip(buffer);
    if (zipKind === 'unreadable') throw new UnreadableTable('file_unreadable');
    if (zipKind === 'xlsx') return chooseSheet('xlsx', await readXlsxSheets(buffer), headerHints, options);
    if (zipKind === 'ods') return chooseSheet('ods', await readOds(buffer), headerHints, options);
    throw otherKind(zipKind === 'csv' || zipKind === 'fods' ? 'binary' : zipKind);
  }
  if (kind !== 'text') throw otherKind(kind);
  const text = decodeText(buffer);
  if (text === null) throw new UnreadableTable('file_type');
  const textKind = kindOfText(text);
  if (textKind === 'fods') {
    let sheets: RawSheet[];
    try {
      sheets = readFodsSheets(text);
    } catch {
      throw new UnreadableTable('file_unreadable');
    }
    return chooseSheet('ods', sheets, headerHints, options);
  }
  if (textKind !== 'csv') throw otherKind(textKind);
  return chooseSheet('csv', [await readCsv(text)], headerHints, options);
}

/** The text of a CSV, or null when the bytes are not text (an image, a PDF, …). */
function decodeText(buffer: Buffer): string | null {
  const startsWith = (bytes: number[]) => bytes.every((b, i) => buffer[i] === b);
  if (startsWith([0xef, 0xbb, 0xbf])) return new TextDecoder('utf-8').decode(buffer.subarray(3));
  if (startsWith([0xff, 0xfe])) return new TextDecoder('utf-16le').decode(buffer.subarray(2));
  if (startsWith([0xfe, 0xff])) return new TextDecoder('utf-16be').decode(buffer.subarray(2));
  const head = buffer.subarray(0, 8192);
  // Control characters other than tab, line feed and carriage return: not a text file.
  if (head.some((b) => b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch {
    // Excel's "CSV" on a French Windows writes Windows-1252.
    return new TextDecoder('windows-1252').decode(buffer);
  }
}

/**
 * The separator: the one a first `sep=;` line states (Excel writes and reads it), else the one
 * found most often on a line among the first ten that are not empty (a title line above the
 * headers may hold none).
 */
function detectDelimiter(text: string): { delimiter: string; skipFirstLine: boolean } {
  const stated = /^sep=([;,\t|])\r?\n/.exec(text);
  if (stated) return { delimiter: stated[1]!, skipFirstLine: true };
  const lines = text
    .split(/\r?\n/, 50)
    .filter((line) => line.trim() !== '')
    .slice(0, 10);
  const counts = [';', ',', '\t'].map((d) => ({ d, n: Math.max(0, ...lines.map((line) => line.split(d).length - 1)) }));
  counts.sort((a, b) => b.n - a.n);
  return { delimiter: counts[0]!.n > 0 ? counts[0]!.d : ',', skipFirstLine: false };
}

async function readCsv(text: string): Promise<RawSheet> {
  const workbook = new ExcelJS.Workbook();
  let sheet: ExcelJS.Worksheet;
  const { delimiter, skipFirstLine } = detectDelimiter(text);
  // The `sep=` line is no row of the list (a spreadsheet does not show it); its removal leaves it blank, so line numbers stay the file's.
  const body = skipFirstLine ? text.replace(/^sep=.\r?\n/, '\n') : text;
  try {
    sheet = await workbook.csv.read(Readable.from([body]), {
      // Every value stays the text it was: no guessing of numbers or dates (a code is not a number).
      map: (value: unknown) => (typeof value === 'string' ? value : String(value ?? '')),
      parserOptions: { delimiter, ignoreEmpty: false, trim: false },
    });
  } catch {
    throw new UnreadableTable('file_unreadable');
  }
  const rows: RawSheet['rows'] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (rows.length >= SHEET_LIMITS.maxRows) return;
    const values = (row.values as unknown[]).slice(1, SHEET_LIMITS.maxColumns + 1).map((v) => (typeof v === 'string' ? v : v == null ? '' : String(v)));
    rows.push({ row: rowNumber, cells: values });
  });
  return { name: null, hidden: false, rows };
}

async function readXlsxSheets(buffer: Buffer): Promise<RawSheet[]> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    throw new UnreadableTable('file_unreadable');
  }
  return workbook.worksheets.slice(0, SHEET_LIMITS.maxSheets).map((sheet) => {
    const rows: RawSheet['rows'] = [];
    sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      if (rows.length >= SHEET_LIMITS.maxRows) return;
      const cells: string[] = [];
      row.eachCell({ includeEmpty: false }, (cell, column) => {
        if (column <= SHEET_LIMITS.maxColumns) cells[column - 1] = cellText(cell);
      });
      rows.push({ row: rowNumber, cells: Array.from(cells, (c) => c ?? '') });
    });
    return { name: sheet.name, hidden: sheet.state === 'hidden' || sheet.state === 'veryHidden', rows };
  });
}

async function readOds(buffer: Buffer): Promise<RawSheet[]> {
  try {
    return await readOdsSheets(buffer);
  } catch (error) {
    if (error instanceof OdsUnreadable) throw new UnreadableTable('file_unreadable');
    throw error;
  }
}

/** A cell as the person typed it: dates as YYYY-MM-DD, numbers without exponent, percentages as percents. */
function cellText(cell: ExcelJS.Cell): string {
  return valueText(cell.value, cell.numFmt ?? '');
}

function valueText(value: unknown, numFmt: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    const n = numFmt.includes('%') ? Math.round(value * 100 * 1000) / 1000 : value;
    // A 14-digit code in a number cell that Excel shows as 2,03E+13 still holds every digit: read them.
    return Number.isInteger(n) && Math.abs(n) < Number.MAX_SAFE_INTEGER ? BigInt(n).toString() : String(n);
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    return value.toISOString().slice(0, 10);
  }
  if (typeof value === 'object') {
    const v = value as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: string };
    if (Array.isArray(v.richText)) return v.richText.map((r) => r.text).join('');
    if ('result' in v) return valueText(v.result, numFmt);
    if (v.text !== undefined) return valueText(v.text, numFmt);
  }
  return '';
}

// ---------------------------------------------------------------- headers, sheets, footers

/** Every spelling of the list's columns (IMPORT_COLUMNS' keys and aliases), normalised. */
const COLUMN_OF = new Map<string, ImportColumn>(IMPORT_COLUMNS.flatMap((c) => [c.key, ...c.aliases].map((a) => [normaliseHeader(a), c.key] as const)));
const REQUIRED = IMPORT_COLUMNS.filter((c) => c.required).map((c) => c.key as ImportColumn);

interface SheetHeader {
  index: number;
  columns: Map<ImportColumn, number>;
}

/** A sheet's header: the first row among its first ten with at least two known names (else its first row), and the columns it names. */
function findHeader(rows: RawSheet['rows'], headerHints: ReadonlySet<string>): SheetHeader {
  const found = rows.slice(0, 10).findIndex((r) => r.cells.filter((c) => headerHints.has(normaliseHeader(c))).length >= 2);
  const index = found === -1 ? 0 : found;
  const columns = new Map<ImportColumn, number>();
  (rows[index]?.cells ?? []).forEach((cell, i) => {
    const key = COLUMN_OF.get(normaliseHeader(cell));
    if (key && !columns.has(key)) columns.set(key, i);
  });
  return { index, columns };
}

function chooseSheet(format: Table['format'], sheets: RawSheet[], headerHints: ReadonlySet<string>, options: ReadTableOptions): Table {
  const names = sheets.map((s) => s.name).filter((n): n is string => n !== null);
  const withRows = sheets.map((sheet) => ({ sheet, header: sheet.rows.length ? findHeader(sheet.rows, headerHints) : null }));
  let chosen: (typeof withRows)[number] | undefined;
  const asked = options.sheet?.trim();
  if (asked && format !== 'csv') {
    chosen = withRows.find((s) => s.sheet.name === asked) ?? withRows.find((s) => comparable(s.sheet.name ?? '') === comparable(asked));
    if (!chosen) throw new UnreadableTable('sheet_unknown', { sheet: asked, sheets: names.join(', ') });
  } else {
    const filled = withRows.filter((s) => s.header !== null);
    // Visible sheets first: a hidden one holds lookups more often than the list.
    const ordered = [...filled.filter((s) => !s.sheet.hidden), ...filled.filter((s) => s.sheet.hidden)];
    chosen = ordered.find((s) => REQUIRED.every((k) => s.header!.columns.has(k)));
    chosen ??= ordered.reduce<(typeof ordered)[number] | undefined>((best, s) => (!best || s.header!.columns.size > best.header!.columns.size ? s : best), undefined);
  }
  if (!chosen?.header) throw new UnreadableTable('empty_file', chosen ? { sheet: chosen.sheet.name } : {});
  const { sheet, header } = chosen;
  const rows: Table['rows'] = [];
  const ignored: Table['ignored'] = [];
  for (const line of sheet.rows.slice(header.index + 1)) {
    if (line.cells.every((c) => c.trim() === '')) continue;
    if (isCandidateLine(line.cells, header.columns, headerHints)) rows.push(line);
    else ignored.push({ row: line.row, text: lineText(line.cells) });
  }
  return { format, sheet: sheet.name, sheets: names, header: sheet.rows[header.index]!, rows, ignored };
}

/** Words that open a line under a list that is no candidate: totals, counts, signatures, notes (compared without case or accents). */
const NOT_A_NAME =
  /^(total|totaux|sous[ -]?total|subtotal|grand total|effectifs?|nombre|nbre|nb|moyenne|average|count|signature|signe|fait a|visa|cachet|sceau|certifie|arrete|page|le chef|la cheffe|le prefet|le directeur|la directrice|le proviseur|l inspecteur|source|note|remarque)\b/;

/**
 * Whether a line under the header may be a candidate. It is one when it has any of:
 * - a candidate code: the code cell holds 6 digits or more and no letter but an exponent's `E`
 *   (so `2026 0001 0001`, `20260000100001` and `2,0268E+13` are codes, `TOTAL : 123` is not);
 * - name-like data: a name cell (last, middle or first name) that reads as a name and does not
 *   open with a total's or a signature's word (`Total`, `Fait à`, `Le Préfet`…);
 * - three cells or more filled in the list's other columns (a candidate whose code and names were forgotten).
 * A line with none of these (`Total ; ; ; 123`, `TOTAL : 123`, `Fait à Kinshasa, le 12/06/2026`,
 * a signature, the header repeated on each printed page) is left out and listed as ignored, with
 * its text: nothing is dropped without being said. Without a code or name column, every line is kept.
 */
export function isCandidateLine(cells: string[], columns: Map<ImportColumn, number>, headerHints: ReadonlySet<string>): boolean {
  const nameColumns = (['nom', 'postnom', 'prenom'] as const).filter((k) => columns.has(k));
  if (!columns.has('code_candidat') && nameColumns.length === 0) return true;
  const cell = (key: ImportColumn) => {
    const i = columns.get(key);
    return i === undefined ? '' : cleanText(cells[i]);
  };
  const code = cell('code_candidat').replace(/[\s.,/+-]/g, '');
  if (/^\d+(?:e\d+)?$/i.test(code) && (code.match(/\d/g)?.length ?? 0) >= 6) return true;
  if (cells.filter((c) => headerHints.has(normaliseHeader(c))).length >= 2) return false;
  for (const key of nameColumns) {
    const text = cell(key);
    const name = readName(text);
    if (text && 'value' in name && !NOT_A_NAME.test(comparable(text).replace(/['’]/g, ' '))) return true;
  }
  const others = [...columns].filter(([key]) => key !== 'code_candidat' && !(nameColumns as string[]).includes(key));
  return others.filter(([, i]) => cleanText(cells[i]) !== '').length >= 3;
}

function lineText(cells: string[]): string {
  const text = cells
    .map((c) => cleanText(c))
    .filter(Boolean)
    .join(' · ');
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/**
 * `Date de naissance (jj/mm/aaaa)` → `date_de_naissance`: case, accents, spaces, punctuation and a
 * part in brackets do not matter (`Prénom(s)` → `prenom`, `Né(e) le` → `ne_le`, `Sexe (M/F)` →
 * `sexe`); `%` reads as the word `pourcent` (`%` → `pourcent`, `% obtenu` → `pourcent_obtenu`).
 */
export function normaliseHeader(value: string): string {
  const words = (text: string) =>
    text
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/%/g, ' pourcent ')
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '');
  const outside = words(value.replace(/\([^)]*\)|\[[^\]]*\]/g, ' '));
  return outside || words(value);
}
