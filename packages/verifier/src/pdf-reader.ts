/**
 * A targeted reader for the PDFs our renderer writes (ADR 0101): it reads the cross-reference
 * tables from the end of the file, then only the objects on the way to the embedded credential
 * (catalog → /Names → /EmbeddedFiles → file specification → stream) and to the first page's
 * content streams (where the QR codes are drawn). Nothing else is parsed: the fonts, images and
 * template form (most of the file) are never touched.
 *
 * It answers only when everything it met is what it expects (classic cross-reference tables,
 * uncompressed or Flate streams, direct lengths or lengths in plain objects); otherwise it returns
 * null and the caller uses the full parser (pdf-lib). It is only used on files whose PAdES
 * signature is intact, covers the whole file and was made with one of the ministry's keys, so the
 * bytes are exactly what the renderer produced; any other file goes through the full parser.
 */
import { inflateSync } from 'node:zlib';

export interface DiplomaPdfParts {
  /** The embedded file's bytes (decoded). */
  attachment: Uint8Array;
  /** The first page's content streams, decoded, as latin1 text, in order. */
  contents: string[];
}

export type Value = number | boolean | null | string | Name | PdfString | Ref | Value[] | Dict;
export interface Name {
  kind: 'name';
  name: string;
}
export interface PdfString {
  kind: 'string';
  bytes: Uint8Array;
}
export interface Ref {
  kind: 'ref';
  num: number;
  gen: number;
}
export interface Dict {
  kind: 'dict';
  entries: Map<string, Value>;
  /** For a stream object: where its data starts in the file. */
  streamAt?: number;
}

/** Thrown for anything the reader does not handle; caught by readDiplomaPdf (→ null). */
export class Unsupported extends Error {}
export const fail = (why: string): never => {
  throw new Unsupported(why);
};

const MAX_XREF_SECTIONS = 64;
/** Entries in one cross-reference section: far more objects than a diploma has (about 40). */
const MAX_XREF_ENTRIES = 100_000;
const MAX_DEPTH = 32;
const MAX_INFLATED = 8 * 1024 * 1024;

const isWhite = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
const isDelimiter = (c: number) => c === 0x28 || c === 0x29 || c === 0x3c || c === 0x3e || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x2f || c === 0x25;
const isRegular = (c: number) => !isWhite(c) && !isDelimiter(c);

/**
 * The PDF syntax of one object's value (no I/O, no cross-reference): used by the targeted reader
 * below and by the check of later revisions (pdf-revisions.ts). Depth is capped; anything it does
 * not know throws Unsupported.
 */
export class PdfLexer {
  pos = 0;
  /**
   * Optional: what parsing may still cost, shared by the lexers of one check (values parsed,
   * bytes of strings). The check of later revisions (attacker's bytes, on the caller's thread)
   * sets it; the targeted reader (the ministry's own bytes) does not.
   */
  budget?: { values: number; stringBytes: number };
  constructor(readonly text: string) {}

  private spend(values: number, stringBytes = 0): void {
    if (!this.budget) return;
    this.budget.values -= values;
    this.budget.stringBytes -= stringBytes;
    if (this.budget.values < 0 || this.budget.stringBytes < 0) fail('too complex to check');
  }

  skipWhite(): void {
    const t = this.text;
    for (;;) {
      while (this.pos < t.length && isWhite(t.charCodeAt(this.pos))) this.pos++;
      if (t.charCodeAt(this.pos) !== 0x25) return; // %
      while (this.pos < t.length && t.charCodeAt(this.pos) !== 0x0a && t.charCodeAt(this.pos) !== 0x0d) this.pos++;
    }
  }

  token(): string {
    const t = this.text;
    const start = this.pos;
    while (this.pos < t.length && isRegular(t.charCodeAt(this.pos))) this.pos++;
    return t.slice(start, this.pos);
  }

  parseValue(depth: number): Value {
    if (depth > MAX_DEPTH) fail('nested too deeply');
    this.spend(1);
    this.skipWhite();
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    if (c === 0x2f) {
      this.pos++;
      return { kind: 'name', name: decodeName(this.token()) };
    }
    if (c === 0x3c && t.charCodeAt(this.pos + 1) === 0x3c) {
      this.pos += 2;
      const entries = new Map<string, Value>();
      for (;;) {
        this.skipWhite();
        if (t.startsWith('>>', this.pos)) {
          this.pos += 2;
          return { kind: 'dict', entries };
        }
        if (this.pos >= t.length) fail('unterminated dictionary');
        const key = this.parseValue(depth + 1);
        if (!isName(key)) fail('dictionary key is not a name');
        entries.set((key as Name).name, this.parseValue(depth + 1));
      }
    }
    if (c === 0x3c) {
      const end = t.indexOf('>', this.pos);
      if (end < 0) fail('unterminated hex string');
      this.spend(0, (end - this.pos) >> 1);
      const hex = t.slice(this.pos + 1, end).replace(/\s+/g, '');
      if (!/^[0-9a-fA-F]*$/.test(hex)) fail('bad hex string');
      this.pos = end + 1;
      return { kind: 'string', bytes: Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex') };
    }
    if (c === 0x28) return this.parseLiteralString();
    if (c === 0x5b) {
      this.pos++;
      const items: Value[] = [];
      for (;;) {
        this.skipWhite();
        if (t.charCodeAt(this.pos) === 0x5d) {
          this.pos++;
          return items;
        }
        if (this.pos >= t.length) fail('unterminated array');
        items.push(this.parseValue(depth + 1));
      }
    }
    const word = this.token();
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'null') return null;
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) {
      // An integer followed by "gen R" is a reference.
      if (/^\d+$/.test(word)) {
        const save = this.pos;
        const ref = /^\s+(\d+)\s+R(?![^\s/<>[\]()%{}])/.exec(t.slice(this.pos, this.pos + 24));
        if (ref) {
          this.pos = save + ref[0].length;
          return { kind: 'ref', num: Number(word), gen: Number(ref[1]) };
        }
      }
      return Number(word);
    }
    return fail(`unexpected token ${JSON.stringify(word.slice(0, 20))}`);
  }

  parseLiteralString(): PdfString {
    const t = this.text;
    const out: number[] = [];
    let depth = 0;
    this.pos++; // (
    for (;;) {
      if (this.pos >= t.length) fail('unterminated string');
      if ((out.length & 0xfff) === 0xfff) this.spend(0, 0x1000);
      const c = t.charCodeAt(this.pos++);
      if (c === 0x5c) {
        const e = t.charCodeAt(this.pos++);
        const simple: Record<number, number> = { 110: 0x0a, 114: 0x0d, 116: 0x09, 98: 0x08, 102: 0x0c, 40: 0x28, 41: 0x29, 92: 0x5c };
        if (simple[e] !== undefined) out.push(simple[e]!);
        else if (e >= 0x30 && e <= 0x37) {
          let octal = e - 0x30;
          for (let k = 0; k < 2 && t.charCodeAt(this.pos) >= 0x30 && t.charCodeAt(this.pos) <= 0x37; k++) octal = octal * 8 + (t.charCodeAt(this.pos++) - 0x30);
          out.push(octal & 0xff);
        } else if (e === 0x0d) {
          if (t.charCodeAt(this.pos) === 0x0a) this.pos++;
        } else if (e !== 0x0a) out.push(e);
        continue;
      }
      if (c === 0x28) depth++;
      if (c === 0x29) {
        if (depth === 0) return { kind: 'string', bytes: Uint8Array.from(out) };
        depth--;
      }
      out.push(c);
    }
  }
}

class Reader extends PdfLexer {
  private readonly offsets = new Map<number, { offset: number; gen: number }>();
  private readonly cache = new Map<number, Value>();
  private rootRef: Ref | null = null;

  constructor(private readonly pdf: Uint8Array) {
    super(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1'));
  }

  // ---- cross-reference tables -------------------------------------------------------------------

  readXref(): void {
    const tail = this.text.slice(Math.max(0, this.text.length - 1024));
    const match = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
    if (!match) fail('no startxref at the end');
    const seen = new Set<number>();
    for (let at: number | null = Number(match![1]); at !== null; ) {
      if (seen.has(at) || seen.size >= MAX_XREF_SECTIONS) fail('cross-reference loop');
      seen.add(at);
      if (!this.text.startsWith('xref', at)) fail('not a classic cross-reference table');
      const trailerAt = this.text.indexOf('trailer', at);
      if (trailerAt < 0) fail('no trailer');
      this.readXrefTable(at + 4, trailerAt);
      this.pos = trailerAt + 'trailer'.length;
      const trailer = this.parseValue(0);
      if (!isDict(trailer)) fail('trailer is not a dictionary');
      const t = trailer as Dict;
      if (t.entries.has('XRefStm')) fail('hybrid cross-reference file');
      if (!this.rootRef) {
        const root = t.entries.get('Root');
        if (!isRef(root)) fail('trailer without /Root');
        this.rootRef = root as Ref;
      }
      const prev = t.entries.get('Prev');
      at = typeof prev === 'number' ? prev : prev === undefined ? null : fail('bad /Prev');
    }
  }

  private readXrefTable(from: number, to: number): void {
    // The newest section is read first: an object it lists wins over older ones.
    for (const [num, entry] of readXrefSection(this.text, from, to, MAX_XREF_ENTRIES)) {
      if (!this.offsets.has(num)) this.offsets.set(num, { offset: entry.free ? -1 : entry.offset, gen: entry.gen });
    }
  }

  // ---- objects ----------------------------------------------------------------------------------

  /** The object `num`, parsed (a stream's dictionary carries where its data starts). */
  object(num: number, depth = 0): Value {
    if (this.cache.has(num)) return this.cache.get(num)!;
    if (depth > MAX_DEPTH) fail('references nested too deeply');
    const where = this.offsets.get(num);
    if (!where) fail(`object ${num} not in the cross-reference table`);
    if (where!.offset < 0) return null; // a free object is null
    this.pos = where!.offset;
    const header = /^(\d+)\s+(\d+)\s+obj(?![^\s/<>[\]()%{}])/.exec(this.text.slice(this.pos, this.pos + 32));
    if (!header || Number(header[1]) !== num || Number(header[2]) !== where!.gen) fail(`object ${num} is not where the table says`);
    this.pos += header![0].length;
    const value = this.parseValue(0);
    this.skipWhite();
    if (this.text.startsWith('stream', this.pos)) {
      if (!isDict(value)) fail('stream without a dictionary');
      let at = this.pos + 'stream'.length;
      if (this.text.charCodeAt(at) === 0x0d) at++;
      if (this.text.charCodeAt(at) !== 0x0a) fail('stream keyword not followed by an end of line');
      (value as Dict).streamAt = at + 1;
    } else if (!this.text.startsWith('endobj', this.pos)) {
      fail(`object ${num} does not end with endobj`);
    }
    this.cache.set(num, value);
    return value;
  }

  /** A value with references followed. */
  resolve(value: Value | undefined, depth = 0): Value | undefined {
    if (isRef(value)) return this.object((value as Ref).num, depth + 1);
    return value;
  }

  get(dict: Dict, key: string): Value | undefined {
    return this.resolve(dict.entries.get(key));
  }

  root(): Dict {
    const root = this.resolve(this.rootRef!);
    if (!isDict(root)) fail('catalog is not a dictionary');
    return root as Dict;
  }

  /** A stream's decoded data (no filter or FlateDecode without parameters only). */
  streamData(stream: Value | undefined): Uint8Array {
    if (!isDict(stream) || (stream as Dict).streamAt === undefined) fail('not a stream');
    const dict = stream as Dict;
    const length = this.get(dict, 'Length');
    if (typeof length !== 'number' || !Number.isInteger(length) || length < 0) fail('stream without a usable /Length');
    const start = dict.streamAt!;
    const end = start + (length as number);
    if (end > this.pdf.length) fail('stream runs past the end of the file');
    if (!/^\s*endstream/.test(this.text.slice(end, end + 16))) fail('stream length does not reach endstream');
    if (dict.entries.has('DecodeParms') || dict.entries.has('F')) fail('stream parameters not supported');
    const filter = this.resolve(dict.entries.get('Filter'));
    const filters = filter === undefined || filter === null ? [] : Array.isArray(filter) ? filter.map((f) => this.resolve(f)) : [filter];
    const raw = this.pdf.subarray(start, end);
    if (filters.length === 0) return raw;
    if (filters.length === 1 && isName(filters[0]) && (filters[0] as Name).name === 'FlateDecode') {
      return new Uint8Array(inflateSync(raw, { maxOutputLength: MAX_INFLATED }));
    }
    return fail('stream filter not supported');
  }
}

function decodeName(raw: string): string {
  return raw.includes('#') ? raw.replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))) : raw;
}

export const isName = (v: Value | undefined): v is Name => typeof v === 'object' && v !== null && !Array.isArray(v) && (v as Name).kind === 'name';
export const isRef = (v: Value | undefined): v is Ref => typeof v === 'object' && v !== null && !Array.isArray(v) && (v as Ref).kind === 'ref';
export const isDict = (v: Value | undefined): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v) && (v as Dict).kind === 'dict';
export const isString = (v: Value | undefined): v is PdfString => typeof v === 'object' && v !== null && !Array.isArray(v) && (v as PdfString).kind === 'string';

/** A text string's value, as pdf-lib's decodeText reads it (UTF-16BE with its mark; ASCII otherwise). */
function textOf(s: PdfString): string | null {
  const b = s.bytes;
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) {
    if (b.length % 2) return null;
    return Buffer.from(b.subarray(2)).swap16().toString('utf16le');
  }
  // PDFDocEncoding agrees with ASCII on printable characters; anything else is not for us to guess.
  for (const c of b) if (c < 0x20 || c > 0x7e) return null;
  return Buffer.from(b).toString('latin1');
}

function findInNameTree(reader: Reader, node: Dict, key: string, depth = 0): Value | undefined {
  if (depth > MAX_DEPTH) fail('name tree too deep');
  const names = reader.get(node, 'Names');
  if (names !== undefined) {
    if (!Array.isArray(names)) fail('/Names is not an array');
    const list = names as Value[];
    for (let i = 0; i + 1 < list.length; i += 2) {
      const entry = reader.resolve(list[i]);
      if (!isString(entry)) continue;
      const text = textOf(entry);
      if (text === null) fail('name tree key in an encoding not handled');
      if (text === key) return list[i + 1];
    }
  }
  const kids = reader.get(node, 'Kids');
  if (kids !== undefined) {
    if (!Array.isArray(kids)) fail('/Kids is not an array');
    for (const kid of kids as Value[]) {
      const child = reader.resolve(kid);
      if (!isDict(child)) continue;
      const found = findInNameTree(reader, child, key, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function firstPage(reader: Reader, node: Dict, depth = 0): Dict {
  if (depth > MAX_DEPTH) fail('page tree too deep');
  const type = reader.get(node, 'Type');
  if (isName(type) && type.name === 'Page') return node;
  const kids = reader.get(node, 'Kids');
  if (!Array.isArray(kids) || kids.length === 0) fail('page tree without kids');
  const first = reader.resolve((kids as Value[])[0]);
  if (!isDict(first)) fail('page is not a dictionary');
  return firstPage(reader, first as Dict, depth + 1);
}

/**
 * The embedded file `name` and the first page's content streams, read without parsing the whole
 * document; null when this PDF is not one the reader handles (the caller then uses the full parser)
 * or when either is missing.
 */
export function readDiplomaPdf(pdf: Uint8Array, name: string): DiplomaPdfParts | null {
  try {
    const reader = new Reader(pdf);
    reader.readXref();
    const catalog = reader.root();

    const names = reader.get(catalog, 'Names');
    const tree = isDict(names) ? reader.get(names, 'EmbeddedFiles') : undefined;
    if (!isDict(tree)) return null;
    const spec = reader.resolve(findInNameTree(reader, tree, name));
    if (!isDict(spec)) return null;
    const ef = reader.get(spec, 'EF');
    if (!isDict(ef)) return null;
    const file = reader.get(ef, 'UF') ?? reader.get(ef, 'F');
    const attachment = reader.streamData(file);

    const pages = reader.get(catalog, 'Pages');
    if (!isDict(pages)) return null;
    const page = firstPage(reader, pages);
    // As pdf-lib reads it: a reference to one stream, or a direct array of references to streams.
    const contents = page.entries.get('Contents');
    const refs = Array.isArray(contents) ? contents : isRef(contents) ? [contents] : fail('/Contents neither a stream nor an array');
    const texts = (refs as Value[]).map((s) => Buffer.from(reader.streamData(reader.resolve(isRef(s) ? s : fail('content stream not a reference')))).toString('latin1'));
    return { attachment, contents: texts };
  } catch {
    // Unsupported structure, a damaged stream, or anything unexpected: the full parser decides.
    return null;
  }
}

/** A cross-reference entry: where an object starts (in use) or that it is free. */
export interface XrefEntry {
  offset: number;
  gen: number;
  free: boolean;
}

/**
 * One classic cross-reference section (`text` from after `xref` to `trailer`): at most `most`
 * entries, bounded before it is split; an object listed twice in one section is refused.
 */
export function readXrefSection(text: string, from: number, to: number, most: number): Map<number, XrefEntry> {
  // Bounded before splitting: an entry line is 20 bytes.
  if (to - from > (most + 1) * 40 + 4096) fail('too many cross-reference entries');
  const entries = new Map<number, XrefEntry>();
  let num = -1;
  let left = 0;
  for (const raw of text.slice(from, to).split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const header = /^(\d+) (\d+)$/.exec(line);
    if (header && left === 0) {
      num = Number(header[1]);
      left = Number(header[2]);
      continue;
    }
    const entry = /^(\d{10}) (\d{5}) ([nf])$/.exec(line);
    if (!entry || left === 0) fail('malformed cross-reference entry');
    if (entries.has(num)) fail('object listed twice in one section');
    entries.set(num, { offset: Number(entry![1]), gen: Number(entry![2]), free: entry![3] === 'f' });
    if (entries.size > most) fail('too many cross-reference entries');
    num++;
    left--;
  }
  if (left !== 0) fail('truncated cross-reference section');
  return entries;
}
