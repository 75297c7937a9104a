import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';

/** A table sent back to schools as a file (ADR 0143): a spreadsheet for Excel and LibreOffice, or a CSV. */
export type ExportFormat = 'xlsx' | 'csv';
export type ExportCell = string | number | null;

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

/**
 * CSV as French Excel opens it by a double click (ADR 0143): `;` between fields (a French
 * Windows' list separator: with `,` every row lands in column A) and a UTF-8 byte order mark
 * (without it Excel reads the file as Windows-1252: "Ã‰KOFO"). CRLF line ends; a field with `;`,
 * a quote or a line break is quoted. A text a spreadsheet would read as a formula (`=`, `+`, `-`,
 * `@` first: a list's cell is anyone's text) gets a leading apostrophe.
 */
export const CSV_BOM = '\uFEFF';
export const CSV_SEPARATOR = ';';

export function csvField(value: ExportCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  let text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  if (/[;"\r\n]/.test(text)) text = `"${text.replaceAll('"', '""')}"`;
  return text;
}

export function csvLine(cells: readonly ExportCell[]): string {
  return `${cells.map(csvField).join(CSV_SEPARATOR)}\r\n`;
}

/** Rows go out in lines of this many: one write per few hundred rows, never the whole file in memory. */
const CSV_CHUNK_ROWS = 500;

/**
 * The table as a stream of the file's bytes: the header, then the rows as `rows` yields them (read
 * page by page by the caller). The XLSX is written by exceljs's streaming writer (each row committed
 * and released; no shared strings table, which would hold every text until the end). An error of
 * `rows` destroys the stream (the client sees a cut download, not a truncated file said to be whole).
 */
export function tableStream(format: ExportFormat, sheetName: string, header: readonly string[], rows: AsyncIterable<readonly ExportCell[]>): Readable {
  if (format === 'csv') {
    return Readable.from(
      (async function* () {
        yield CSV_BOM + csvLine(header);
        let chunk = '';
        let count = 0;
        for await (const row of rows) {
          chunk += csvLine(row);
          if (++count % CSV_CHUNK_ROWS === 0) {
            yield chunk;
            chunk = '';
          }
        }
        if (chunk) yield chunk;
      })(),
      { objectMode: false },
    );
  }
  const out = new PassThrough();
  (async () => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    // Excel refuses sheet names over 31 characters or with []:*?/\.
    const sheet = workbook.addWorksheet(sheetName.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
    const head = sheet.addRow([...header]);
    head.font = { bold: true };
    head.commit();
    for await (const row of rows) sheet.addRow([...row]).commit();
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => out.destroy(error as Error));
  return out;
}

/** `attachment; filename=…` with an ASCII fallback and the UTF-8 name (RFC 6266). */
export function attachment(fileName: string): string {
  const ascii = fileName
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\]/g, '');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
