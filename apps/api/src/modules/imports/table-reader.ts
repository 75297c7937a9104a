import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { checkZipLimits, XLSX_ZIP_LIMITS, ZipLimitExceeded } from './zip-limits.ts';

/** A list read from a CSV or XLSX file: every cell as text, rows numbered as a spreadsheet shows them. */
export interface Table {
  format: 'csv' | 'xlsx';
  header: { row: number; cells: string[] };
  rows: { row: number; cells: string[] }[];
}

/** Why a file could not be read as a list (translated as `errors:field.import_<reason>`). */
export class UnreadableTable extends Error {
  constructor(readonly reason: 'file_type' | 'file_xls' | 'file_unreadable' | 'empty_file' | 'file_too_large_uncompressed') {
    super(reason);
  }
}

const startsWith = (buffer: Buffer, bytes: number[]) => bytes.every((b, i) => buffer[i] === b);

/**
 * Reads a list by its content, never its name: a zip is an XLSX workbook (its first sheet), anything
 * else must be text (CSV in UTF-8, with or without a byte-order mark; a Windows-1252 export is
 * accepted too; `;`, `,` or tab separated). `headerHints` are normalised header names: the header
 * is the first row among the first ten holding at least two of them (lists often start with a title).
 */
export async function readTable(buffer: Buffer, headerHints: ReadonlySet<string>): Promise<Table> {
  if (buffer.length === 0) throw new UnreadableTable('empty_file');
  if (startsWith(buffer, [0x50, 0x4b, 0x03, 0x04])) return readXlsx(buffer, headerHints);
  if (startsWith(buffer, [0xd0, 0xcf, 0x11, 0xe0])) throw new UnreadableTable('file_xls');
  const text = decodeText(buffer);
  if (text === null) throw new UnreadableTable('file_type');
  return readCsv(text, headerHints);
}

/** The text of a CSV, or null when the bytes are not text (an image, a PDF, …). */
function decodeText(buffer: Buffer): string | null {
  if (startsWith(buffer, [0xef, 0xbb, 0xbf])) return new TextDecoder('utf-8').decode(buffer.subarray(3));
  if (startsWith(buffer, [0xff, 0xfe])) return new TextDecoder('utf-16le').decode(buffer.subarray(2));
  if (startsWith(buffer, [0xfe, 0xff])) return new TextDecoder('utf-16be').decode(buffer.subarray(2));
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

function detectDelimiter(text: string): string {
  const firstLine = text.split(/\r?\n/, 20).find((line) => line.trim() !== '') ?? '';
  const counts = [';', ',', '\t'].map((d) => ({ d, n: firstLine.split(d).length - 1 }));
  counts.sort((a, b) => b.n - a.n);
  return counts[0]!.n > 0 ? counts[0]!.d : ',';
}

async function readCsv(text: string, headerHints: ReadonlySet<string>): Promise<Table> {
  const workbook = new ExcelJS.Workbook();
  let sheet: ExcelJS.Worksheet;
  try {
    sheet = await workbook.csv.read(Readable.from([text]), {
      // Every value stays the text it was: no guessing of numbers or dates (a code is not a number).
      map: (value: unknown) => (typeof value === 'string' ? value : String(value ?? '')),
      parserOptions: { delimiter: detectDelimiter(text), ignoreEmpty: false, trim: false },
    });
  } catch {
    throw new UnreadableTable('file_unreadable');
  }
  const rows: Table['rows'] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const values = (row.values as unknown[]).slice(1).map((v) => (typeof v === 'string' ? v : v == null ? '' : String(v)));
    rows.push({ row: rowNumber, cells: values });
  });
  return splitHeader('csv', rows, headerHints);
}

async function readXlsx(buffer: Buffer, headerHints: ReadonlySet<string>): Promise<Table> {
  // exceljs inflates the whole workbook (JSZip) with no hook to stop it: every entry is first
  // inflated here, counted and dropped, under caps on the bytes really inflated (ADR 0114). An
  // upload was checked already (multipart-upload.ts): the same bytes are not inflated twice.
  try {
    await checkZipLimits(buffer, XLSX_ZIP_LIMITS);
  } catch (error) {
    throw new UnreadableTable(error instanceof ZipLimitExceeded ? 'file_too_large_uncompressed' : 'file_unreadable');
  }
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    throw new UnreadableTable('file_unreadable');
  }
  const sheet = workbook.worksheets.find((s) => s.actualRowCount > 0) ?? workbook.worksheets[0];
  if (!sheet) throw new UnreadableTable('empty_file');
  const rows: Table['rows'] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      cells[column - 1] = cellText(cell);
    });
    rows.push({ row: rowNumber, cells: Array.from(cells, (c) => c ?? '') });
  });
  return splitHeader('xlsx', rows, headerHints);
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
    return Number.isInteger(n) ? BigInt(n).toString() : String(n);
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

function splitHeader(format: Table['format'], rows: Table['rows'], headerHints: ReadonlySet<string>): Table {
  const filled = rows.filter((r) => r.cells.some((c) => c.trim() !== ''));
  if (filled.length === 0) throw new UnreadableTable('empty_file');
  const headerIndex = filled.slice(0, 10).findIndex((r) => r.cells.filter((c) => headerHints.has(normaliseHeader(c))).length >= 2);
  const index = headerIndex === -1 ? 0 : headerIndex;
  return { format, header: filled[index]!, rows: filled.slice(index + 1) };
}

/** `Date de naissance ` → `date_de_naissance`: case, accents, spaces and punctuation do not matter. */
export function normaliseHeader(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}
