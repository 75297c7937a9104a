// Low-level PDF syntax: numbers, strings, and a file writer that appends numbered objects and
// writes the cross-reference table. The renderer writes its PDFs directly with these: the shared
// part of every diploma (fonts, template, signature images) is serialised once and copied as bytes.
import { deflateSync } from 'node:zlib';

export function pdfNumber(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a finite number: ${n}`);
  const rounded = Math.round(n * 1000) / 1000;
  if (Object.is(rounded, -0) || Math.abs(rounded) < 0.0005) return '0';
  return String(rounded);
}

/** A literal string of printable ASCII (escapes the three special characters). */
export function pdfAsciiString(s: string): string {
  if (!/^[\x20-\x7e]*$/.test(s)) throw new Error('pdfAsciiString needs printable ASCII');
  return `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** A text string (Info dictionary, file names): ASCII as a literal, anything else as UTF-16BE with a BOM. */
export function pdfTextString(s: string): string {
  if (/^[\x20-\x7e]*$/.test(s)) return pdfAsciiString(s);
  const units: string[] = ['FEFF'];
  for (let i = 0; i < s.length; i++) units.push(s.charCodeAt(i).toString(16).padStart(4, '0'));
  return `<${units.join('').toUpperCase()}>`;
}

export function pdfDate(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `(D:${date.getUTCFullYear()}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}Z)`;
}

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex').toUpperCase();
}

export const ref = (objectNumber: number): string => `${objectNumber} 0 R`;

export function latin1(s: string): Buffer {
  return Buffer.from(s, 'latin1');
}

export interface StreamOptions {
  /** Compress with Flate (default true). */
  compress?: boolean;
  /** zlib level; content streams are small, so speed matters more than the last percent. */
  level?: number;
}

/**
 * Appends objects to a growing PDF file and remembers their offsets. A writer can be started from a
 * frozen prefix (header + shared objects) so that every document reuses the same bytes and offsets.
 */
export class PdfWriter {
  private readonly parts: Uint8Array[] = [];
  private length = 0;
  private readonly offsets: number[];
  nextObjectNumber: number;

  constructor(prefix?: FrozenPrefix) {
    if (prefix) {
      this.parts.push(prefix.bytes);
      this.length = prefix.bytes.length;
      this.offsets = prefix.offsets.slice();
      this.nextObjectNumber = prefix.nextObjectNumber;
    } else {
      // Header with a binary comment so transfer tools treat the file as binary.
      this.write(latin1('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n'));
      this.offsets = [0];
      this.nextObjectNumber = 1;
    }
  }

  get size(): number {
    return this.length;
  }

  allocate(): number {
    return this.nextObjectNumber++;
  }

  write(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.length += bytes.length;
  }

  writeObject(objectNumber: number, body: string): void {
    this.offsets[objectNumber] = this.length;
    this.write(latin1(`${objectNumber} 0 obj\n${body}\nendobj\n`));
  }

  writeStream(objectNumber: number, dictEntries: string, data: Uint8Array, options: StreamOptions = {}): void {
    const compress = options.compress ?? true;
    const payload = compress ? deflateSync(data, { level: options.level ?? 6 }) : data;
    const filter = compress ? ' /Filter /FlateDecode' : '';
    this.offsets[objectNumber] = this.length;
    this.write(latin1(`${objectNumber} 0 obj\n<<${dictEntries ? ` ${dictEntries}` : ''}${filter} /Length ${payload.length} >>\nstream\n`));
    this.write(payload);
    this.write(latin1('\nendstream\nendobj\n'));
  }

  freeze(): FrozenPrefix {
    return { bytes: this.toBytes(), offsets: this.offsets.slice(), nextObjectNumber: this.nextObjectNumber };
  }

  /** Writes the xref table and trailer and returns the complete file. */
  finish(trailerEntries: string): Uint8Array {
    const count = this.nextObjectNumber;
    const lines: string[] = [`xref\n0 ${count}\n0000000000 65535 f \n`];
    for (let i = 1; i < count; i++) {
      const offset = this.offsets[i];
      if (offset === undefined) throw new Error(`object ${i} was allocated but never written`);
      lines.push(`${String(offset).padStart(10, '0')} 00000 n \n`);
    }
    const xrefOffset = this.length;
    this.write(latin1(`${lines.join('')}trailer\n<< /Size ${count} ${trailerEntries} >>\nstartxref\n${xrefOffset}\n%%EOF\n`));
    return this.toBytes();
  }

  private toBytes(): Uint8Array {
    const out = Buffer.concat(this.parts, this.length);
    this.parts.length = 0;
    this.parts.push(out);
    return out;
  }
}

export interface FrozenPrefix {
  bytes: Uint8Array;
  offsets: number[];
  nextObjectNumber: number;
}
