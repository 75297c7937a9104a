import { StringDecoder } from 'node:string_decoder';
import { SaxesParser } from 'saxes';
import yauzl from 'yauzl';

/** A sheet as read: its name and its non-empty rows, every cell as text, rows numbered as the program shows them. */
export interface RawSheet {
  name: string | null;
  hidden: boolean;
  rows: { row: number; cells: string[] }[];
}

/** What one sheet may hold in memory: rows kept and columns read (a list has 14 columns and at most 20,000 rows). */
export const SHEET_LIMITS = { maxRows: 40_000, maxColumns: 256, maxSheets: 200, maxCellChars: 10_000 } as const;

/** The ODS could not be read (no content.xml, bad XML). */
export class OdsUnreadable extends Error {}

/**
 * An OpenDocument spreadsheet (LibreOffice's .ods) read from its `content.xml`, streamed through
 * saxes: nothing but the rows is kept. LibreOffice writes the empty end of a sheet as one row
 * repeated a million times and the empty end of a row as one cell repeated a thousand times: a
 * repetition is expanded only when it holds a value, and never past SHEET_LIMITS. The zip's
 * inflated size was capped before (zip-limits.ts).
 */
export async function readOdsSheets(buffer: Buffer): Promise<RawSheet[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true }, (error, opened) =>
      error ? reject(new OdsUnreadable(String(error))) : resolve(opened),
    ),
  );
  try {
    const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
      zip.on('entry', (e: yauzl.Entry) => (e.fileName === 'content.xml' ? resolve(e) : zip.readEntry()));
      zip.on('end', () => resolve(null));
      zip.on('error', reject);
      zip.readEntry();
    });
    if (!entry) throw new OdsUnreadable('no content.xml');
    const sheets = new OdsContent();
    await new Promise<void>((resolve, reject) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(new OdsUnreadable(String(error)));
        const decoder = new StringDecoder('utf8');
        stream.on('data', (chunk: Buffer) => {
          try {
            sheets.write(decoder.write(chunk));
          } catch (e) {
            stream.destroy();
            reject(e);
          }
        });
        stream.on('end', () => {
          try {
            sheets.write(decoder.end());
            resolve();
          } catch (e) {
            reject(e);
          }
        });
        stream.on('error', (e) => reject(new OdsUnreadable(String(e))));
      });
    });
    return sheets.close();
  } finally {
    zip.close();
  }
}

/** A flat OpenDocument spreadsheet (.fods: the same XML, not zipped). */
export function readFodsSheets(text: string): RawSheet[] {
  const content = new OdsContent();
  content.write(text);
  return content.close();
}

type Attributes = Record<string, string>;

/** The sheet-reading state machine over content.xml's elements. */
class OdsContent {
  private readonly parser = new SaxesParser({ xmlns: false });
  private readonly sheets: RawSheet[] = [];
  private sheet: RawSheet | null = null;
  private rowNumber = 0;
  private row: { cells: string[]; repeat: number; filled: boolean } | null = null;
  private column = 0;
  private cell: { attributes: Attributes; repeat: number; text: string; paragraphs: number } | null = null;
  /** Inside a comment on a cell (office:annotation): its text is not the cell's. */
  private annotation = 0;
  private hiddenTables = new Set<string>();
  private tableStyles = new Map<string, boolean>();
  private styleName: string | null = null;
  /** Tables inside a cell of the sheet being read (rare): skipped whole. */
  private nested = 0;
  private failed: Error | null = null;

  constructor() {
    this.parser.on('error', (error) => {
      this.failed ??= new OdsUnreadable(error.message);
    });
    this.parser.on('opentag', (tag) => this.openTag(tag.name, tag.attributes as Attributes));
    this.parser.on('closetag', (tag) => this.closeTag(tag.name));
    this.parser.on('text', (text) => this.text(text));
    this.parser.on('cdata', (text) => this.text(text));
  }

  write(text: string): void {
    this.parser.write(text);
    if (this.failed) throw this.failed;
  }

  close(): RawSheet[] {
    this.parser.close();
    if (this.failed) throw this.failed;
    for (const sheet of this.sheets) if (sheet.name && this.hiddenTables.has(sheet.name)) sheet.hidden = true;
    return this.sheets;
  }

  private openTag(name: string, attributes: Attributes): void {
    switch (name) {
      case 'style:style':
        this.styleName = attributes['style:family'] === 'table' ? (attributes['style:name'] ?? null) : null;
        return;
      case 'style:table-properties':
        if (this.styleName) this.tableStyles.set(this.styleName, attributes['table:display'] === 'false');
        return;
      case 'table:table': {
        if (this.sheet || this.nested) {
          this.nested++;
          return;
        }
        if (this.sheets.length >= SHEET_LIMITS.maxSheets) {
          this.nested++;
          return;
        }
        const sheetName = attributes['table:name'] ?? `${this.sheets.length + 1}`;
        if (this.tableStyles.get(attributes['table:style-name'] ?? '')) this.hiddenTables.add(sheetName);
        this.sheet = { name: sheetName, hidden: false, rows: [] };
        this.rowNumber = 0;
        return;
      }
      case 'table:table-row':
        if (!this.sheet || this.nested) return;
        this.row = { cells: [], repeat: count(attributes['table:number-rows-repeated']), filled: false };
        this.column = 0;
        return;
      case 'table:table-cell':
      case 'table:covered-table-cell':
        if (!this.row || this.nested) return;
        this.cell = { attributes, repeat: count(attributes['table:number-columns-repeated']), text: '', paragraphs: 0 };
        return;
      case 'office:annotation':
        this.annotation++;
        return;
      case 'text:p':
      case 'text:h':
        if (this.cell && !this.annotation && this.cell.paragraphs++ > 0) this.append('\n');
        return;
      case 'text:s':
        this.append(' '.repeat(Math.min(count(attributes['text:c']), 100)));
        return;
      case 'text:tab':
        this.append('\t');
        return;
      case 'text:line-break':
        this.append('\n');
        return;
      default:
        return;
    }
  }

  private closeTag(name: string): void {
    switch (name) {
      case 'style:style':
        this.styleName = null;
        return;
      case 'table:table':
        if (this.nested) {
          this.nested--;
          return;
        }
        if (this.sheet) this.sheets.push(this.sheet);
        this.sheet = null;
        return;
      case 'table:table-row':
        if (!this.nested) this.endRow();
        return;
      case 'table:table-cell':
      case 'table:covered-table-cell':
        if (!this.nested) this.endCell();
        return;
      case 'office:annotation':
        this.annotation--;
        return;
      default:
        return;
    }
  }

  private text(text: string): void {
    // Text outside a paragraph is the XML's indentation.
    if (this.cell && this.cell.paragraphs > 0) this.append(text);
  }

  private append(text: string): void {
    if (!this.cell || this.annotation) return;
    if (this.cell.text.length < SHEET_LIMITS.maxCellChars) this.cell.text += text;
  }

  private endCell(): void {
    const cell = this.cell;
    const row = this.row;
    this.cell = null;
    if (!cell || !row) return;
    const value = odsValue(cell.attributes, cell.text);
    if (value !== '') {
      for (let i = 0; i < cell.repeat && this.column + i < SHEET_LIMITS.maxColumns; i++) row.cells[this.column + i] = value;
      row.filled = true;
    }
    this.column += cell.repeat;
  }

  private endRow(): void {
    const row = this.row;
    const sheet = this.sheet;
    this.row = null;
    if (!row || !sheet) return;
    if (row.filled) {
      const cells = Array.from(row.cells, (c) => c ?? '');
      for (let i = 0; i < row.repeat && sheet.rows.length < SHEET_LIMITS.maxRows; i++) sheet.rows.push({ row: this.rowNumber + i + 1, cells: [...cells] });
    }
    this.rowNumber += row.repeat;
  }
}

/** `table:number-rows-repeated` and its kind: a positive whole number, 1 when absent or odd. */
function count(value: string | undefined): number {
  const n = Number(value ?? 1);
  return Number.isSafeInteger(n) && n > 0 ? n : 1;
}

/**
 * A cell as the person typed it: a number's own value (a 14-digit code shown as `2,03E+13` is
 * read whole), a percentage as percents, a date as YYYY-MM-DD, anything else as its text.
 */
function odsValue(attributes: Attributes, text: string): string {
  const type = attributes['office:value-type'] ?? attributes['calcext:value-type'];
  const value = attributes['office:value'];
  switch (type) {
    case 'float':
    case 'currency':
    case 'percentage': {
      const n = Number(value);
      if (value === undefined || !Number.isFinite(n)) return text.trim();
      const shown = type === 'percentage' ? Math.round(n * 100 * 1000) / 1000 : n;
      return Number.isInteger(shown) && Math.abs(shown) < Number.MAX_SAFE_INTEGER ? BigInt(shown).toString() : String(shown);
    }
    case 'date': {
      const date = attributes['office:date-value'] ?? '';
      return /^\d{4}-\d{2}-\d{2}/.test(date) ? date.slice(0, 10) : text.trim();
    }
    case 'boolean':
      return attributes['office:boolean-value'] ?? text.trim();
    default:
      return text;
  }
}
