// Incremental updates of a PDF with classic cross-reference tables (the renderer's output and the
// revisions this package appends to it): read the newest cross-reference chain, read a plain
// dictionary object, and append new or changed objects followed by a new xref section and a
// trailer whose /Prev points at the previous one. The earlier bytes are never touched, so every
// earlier signature's byte range stays valid.
import { latin1, ref } from './pdf-syntax.ts';

/** The cross-reference chain of a PDF, newest revision first. */
export interface CrossReference {
  /** Newest offset of each object in use. */
  offsets: Map<number, number>;
  /** /Size of the newest trailer (next free object number). */
  size: number;
  /** Catalog object number. */
  root: number;
  /** Text of the newest trailer dictionary. */
  trailer: string;
  /** Offset of the newest xref section. */
  startxref: number;
}

const decoder = new TextDecoder('latin1');
const asBuffer = (pdf: Uint8Array) => Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);

/** Reads the xref sections from the end of the file (newest first), following /Prev. */
export function readCrossReference(pdf: Uint8Array): CrossReference {
  const tail = decoder.decode(pdf.subarray(Math.max(0, pdf.length - 1024)));
  const match = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!match) throw new Error('PDF: no startxref at the end of the file');
  const startxref = Number(match[1]);
  const offsets = new Map<number, number>();
  const seen = new Set<number>();
  let trailer = '';
  let size = 0;
  let root = 0;
  for (let at: number | undefined = startxref; at !== undefined; ) {
    if (seen.has(at) || seen.size > 1000 || at >= pdf.length) throw new Error('PDF: cross-reference chain loops or points outside the file');
    seen.add(at);
    const section = decoder.decode(pdf.subarray(at, Math.min(pdf.length, at + 64)));
    if (!section.startsWith('xref')) throw new Error("PDF: cross-reference streams are not supported; sign the renderer's output");
    const end = asBuffer(pdf).indexOf('startxref', at, 'latin1');
    if (end < 0) throw new Error('PDF: xref section without startxref');
    const text = decoder.decode(pdf.subarray(at, end));
    const [table, trailerText = ''] = text.split('trailer');
    const lines = table!.split(/\r?\n|\r/).slice(1);
    let objectNumber = 0;
    for (const line of lines) {
      const header = /^(\d+) (\d+)\s*$/.exec(line);
      if (header) {
        objectNumber = Number(header[1]);
        continue;
      }
      const entry = /^(\d{10}) (\d{5}) ([nf])/.exec(line);
      if (!entry) continue;
      if (entry[3] === 'n' && !offsets.has(objectNumber)) offsets.set(objectNumber, Number(entry[1]));
      objectNumber++;
    }
    if (!trailer) {
      trailer = trailerText;
      size = Number(/\/Size (\d+)/.exec(trailerText)?.[1] ?? 0);
      root = Number(/\/Root (\d+) 0 R/.exec(trailerText)?.[1] ?? 0);
    }
    const prev = /\/Prev (\d+)/.exec(trailerText);
    at = prev ? Number(prev[1]) : undefined;
  }
  if (!size || !root) throw new Error('PDF: trailer without /Size or /Root');
  return { offsets, size, root, trailer, startxref };
}

/** The body of an object that is a plain dictionary (no stream), as text. */
export function readDictionaryObject(pdf: Uint8Array, xref: CrossReference, objectNumber: number): string {
  const offset = xref.offsets.get(objectNumber);
  if (offset === undefined) throw new Error(`PDF: object ${objectNumber} not found`);
  const end = asBuffer(pdf).indexOf('endobj', offset, 'latin1');
  if (end < 0) throw new Error(`PDF: object ${objectNumber} has no endobj`);
  const text = decoder.decode(pdf.subarray(offset, end));
  const match = new RegExp(`^${objectNumber} 0 obj\\s*([\\s\\S]*?)\\s*$`).exec(text);
  if (!match || /\bstream\b/.test(match[1]!) || !match[1]!.endsWith('>>')) throw new Error(`PDF: object ${objectNumber} is not a plain dictionary`);
  return match[1]!;
}

/** Adds an entry at the end of a dictionary's text. */
export function addDictionaryEntry(dict: string, entry: string): string {
  return `${dict.slice(0, -2).trimEnd()} ${entry} >>`;
}

/** Where an appended object landed in the resulting file. */
export interface AppendedObject {
  /** Offset of "N 0 obj". */
  offset: number;
  /** Offset of the first byte of the object's body (after "N 0 obj\n"). */
  bodyOffset: number;
}

export interface IncrementalResult {
  pdf: Uint8Array;
  objects: Map<number, AppendedObject>;
}

/**
 * Collects the objects of one incremental update and appends them, with their xref section and a
 * trailer (/Size, /Root, /Info and /ID carried over, /Prev to the previous section), to a PDF.
 */
export class IncrementalUpdate {
  readonly xref: CrossReference;
  private nextNumber: number;
  private readonly bodies = new Map<number, Uint8Array[]>();

  constructor(readonly pdf: Uint8Array) {
    this.xref = readCrossReference(pdf);
    this.nextNumber = this.xref.size;
  }

  /** The number `allocate` will hand out next. */
  get nextObjectNumber(): number {
    return this.nextNumber;
  }

  /** A new object number. */
  allocate(): number {
    return this.nextNumber++;
  }

  /** The current text of a plain dictionary object of the PDF (not of this update). */
  dictionary(objectNumber: number): string {
    return readDictionaryObject(this.pdf, this.xref, objectNumber);
  }

  /** Writes (or rewrites) an object whose body is `body` (a dictionary, array, number...). */
  setObject(objectNumber: number, body: string | Uint8Array): void {
    if (objectNumber <= 0 || objectNumber >= this.nextNumber) throw new Error(`object ${objectNumber} is neither in the PDF nor allocated`);
    this.bodies.set(objectNumber, [typeof body === 'string' ? latin1(body) : body]);
  }

  /** Writes a stream object, unfiltered unless `dictEntries` names a filter the data already has. */
  setStream(objectNumber: number, dictEntries: string, data: Uint8Array): void {
    this.setObject(objectNumber, '');
    this.bodies.set(objectNumber, [latin1(`<<${dictEntries ? ` ${dictEntries}` : ''} /Length ${data.length} >>\nstream\n`), data, latin1('\nendstream')]);
  }

  /** Appends the update; the bytes before the PDF's end are copied unchanged. */
  finish(): IncrementalResult {
    const pdf = this.pdf;
    const needsNewline = pdf[pdf.length - 1] !== 0x0a;
    let offset = pdf.length + (needsNewline ? 1 : 0);
    const parts: Uint8Array[] = [pdf];
    if (needsNewline) parts.push(latin1('\n'));
    const objects = new Map<number, AppendedObject>();
    const numbers = [...this.bodies.keys()].sort((a, b) => a - b);
    for (const objectNumber of numbers) {
      const head = latin1(`${objectNumber} 0 obj\n`);
      objects.set(objectNumber, { offset, bodyOffset: offset + head.length });
      parts.push(head, ...this.bodies.get(objectNumber)!, latin1('\nendobj\n'));
      offset += head.length + this.bodies.get(objectNumber)!.reduce((sum, b) => sum + b.length, 0) + '\nendobj\n'.length;
    }
    const xrefLines: string[] = ['xref'];
    for (let i = 0; i < numbers.length; ) {
      let j = i;
      while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++;
      xrefLines.push(`${numbers[i]} ${j - i + 1}`);
      for (let k = i; k <= j; k++) xrefLines.push(`${String(objects.get(numbers[k]!)!.offset).padStart(10, '0')} 00000 n `);
      i = j + 1;
    }
    const trailer = this.xref.trailer;
    const info = /\/Info (\d+) 0 R/.exec(trailer)?.[1];
    const id = /\/ID\s*\[[^\]]*\]/.exec(trailer)?.[0];
    const trailerDict = `<< /Size ${this.nextNumber} /Root ${ref(this.xref.root)}${info ? ` /Info ${ref(Number(info))}` : ''}${id ? ` ${id}` : ''} /Prev ${this.xref.startxref} >>`;
    parts.push(latin1(`${xrefLines.join('\n')}\ntrailer\n${trailerDict}\nstartxref\n${offset}\n%%EOF\n`));
    return { pdf: Buffer.concat(parts), objects };
  }
}

/** One-call form: appends `objects` (number → body) as an incremental update. */
export function appendIncrementalUpdate(pdf: Uint8Array, objects: Map<number, string | Uint8Array>): IncrementalResult {
  const update = new IncrementalUpdate(pdf);
  const highest = Math.max(0, ...objects.keys());
  while (update.nextObjectNumber <= highest) update.allocate();
  for (const [objectNumber, body] of objects) update.setObject(objectNumber, body);
  return update.finish();
}

/**
 * The data of a stream object without filter and with a direct /Length (what `setStream` writes),
 * or null for any other object.
 */
export function readPlainStream(pdf: Uint8Array, xref: CrossReference, objectNumber: number): Uint8Array | null {
  const offset = xref.offsets.get(objectNumber);
  if (offset === undefined) return null;
  const head = decoder.decode(pdf.subarray(offset, Math.min(pdf.length, offset + 200)));
  const match = new RegExp(`^${objectNumber} 0 obj\\s*<<([^<>]*)>>\\s*stream\\r?\\n`).exec(head);
  if (!match || /\/Filter/.test(match[1]!)) return null;
  const length = Number(/\/Length (\d+)(?! \d+ R)/.exec(match[1]!)?.[1] ?? Number.NaN);
  const start = offset + match[0].length;
  if (!Number.isInteger(length) || start + length > pdf.length) return null;
  return pdf.subarray(start, start + length);
}
