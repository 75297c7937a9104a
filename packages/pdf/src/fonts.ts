// Fonts: faces loaded once per process, subset once per renderer (never per document), written as
// Type0/CIDFontType2 fonts with a ToUnicode map so text extraction returns the exact accented text.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import type { Font, Glyph } from 'fontkit';
import { PdfWriter, pdfNumber, ref } from './pdf-syntax.ts';

export const fontRoles = ['regular', 'italic', 'bold', 'display'] as const;
export type FontRole = (typeof fontRoles)[number];

/** Font files per role, in fallback order (a character missing from the first file is looked up in the next). */
export type FontFiles = Record<FontRole, Uint8Array[]>;

const require = createRequire(import.meta.url);

function readPackageFile(specifier: string): Uint8Array {
  return readFileSync(require.resolve(specifier));
}

/**
 * The shipped fonts (SIL Open Font License 1.1, embedding allowed): EB Garamond for the text,
 * Cinzel for the engraved-capitals titles, each as its "latin" file (Latin-1 and French) followed by
 * its "latin-ext" file (Latin Extended-A/B and more) as a fallback.
 */
export function loadDefaultFontFiles(): FontFiles {
  const garamond = (variant: string) => [
    readPackageFile(`@fontsource/eb-garamond/files/eb-garamond-latin-${variant}.woff`),
    readPackageFile(`@fontsource/eb-garamond/files/eb-garamond-latin-ext-${variant}.woff`),
  ];
  return {
    regular: garamond('400-normal'),
    italic: garamond('400-italic'),
    bold: garamond('600-normal'),
    display: [readPackageFile('@fontsource/cinzel/files/cinzel-latin-600-normal.woff'), readPackageFile('@fontsource/cinzel/files/cinzel-latin-ext-600-normal.woff')],
  };
}

/**
 * Characters every variable-text font carries: printable ASCII, every Latin-1 letter, the French
 * Œ œ, « » ° · and typographic quotes and dashes. Anything else (a Polish or Turkish name, a ½) gets
 * a small per-document supplement font, built and cached on demand: every glyph in the shared set
 * is paid for in every PDF (~90 bytes each), a supplement only where it is used.
 */
export const commonCharacters: ReadonlySet<number> = (() => {
  const set = new Set<number>();
  for (let c = 0x20; c <= 0x7e; c++) set.add(c);
  for (let c = 0xc0; c <= 0xff; c++) set.add(c);
  for (const c of [0xa0, 0xab, 0xbb, 0xb0, 0xb7, 0x152, 0x153, 0x2018, 0x2019, 0x201c, 0x201d, 0x2013, 0x2014, 0x2026]) set.add(c);
  return set;
})();

/**
 * Unpacks a WOFF 1.0 file into the TrueType/OpenType file it wraps. fontkit reads WOFF directly but
 * inflates a table again on every access (with a pure-JS inflater): unpacked once, subsetting and
 * kerning look-ups run on plain tables, ten times faster.
 */
export function woffToSfnt(woff: Uint8Array): Uint8Array {
  const input = Buffer.from(woff.buffer, woff.byteOffset, woff.byteLength);
  if (input.toString('latin1', 0, 4) !== 'wOFF') return woff;
  const numTables = input.readUInt16BE(12);
  const tables: Array<{ tag: number; checksum: number; data: Buffer }> = [];
  for (let i = 0; i < numTables; i++) {
    const entry = 44 + i * 20;
    const offset = input.readUInt32BE(entry + 4);
    const compLength = input.readUInt32BE(entry + 8);
    const origLength = input.readUInt32BE(entry + 12);
    const stored = input.subarray(offset, offset + compLength);
    tables.push({
      tag: input.readUInt32BE(entry),
      checksum: input.readUInt32BE(entry + 16),
      data: compLength < origLength ? inflateSync(stored) : stored,
    });
  }
  const headerLength = 12 + 16 * numTables;
  const total = tables.reduce((sum, t) => sum + ((t.data.length + 3) & ~3), headerLength);
  const out = Buffer.alloc(total);
  const entrySelector = Math.floor(Math.log2(numTables));
  out.writeUInt32BE(input.readUInt32BE(4), 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(16 * 2 ** entrySelector, 6);
  out.writeUInt16BE(entrySelector, 8);
  out.writeUInt16BE(numTables * 16 - 16 * 2 ** entrySelector, 10);
  let offset = headerLength;
  tables.forEach((table, i) => {
    const record = 12 + 16 * i;
    out.writeUInt32BE(table.tag, record);
    out.writeUInt32BE(table.checksum, record + 4);
    out.writeUInt32BE(offset, record + 8);
    out.writeUInt32BE(table.data.length, record + 12);
    table.data.copy(out, offset);
    offset += (table.data.length + 3) & ~3;
  });
  return out;
}

export class FontFace {
  readonly sources: Font[];
  private readonly kerningCache = new Map<number, number>();
  private readonly sourceCache = new Map<number, number>();

  constructor(
    readonly role: FontRole,
    files: Uint8Array[],
  ) {
    if (files.length === 0) throw new Error(`no font file for ${role}`);
    this.sources = files.map((file) => {
      const sfnt = woffToSfnt(file);
      const font = fontkit.create(Buffer.from(sfnt.buffer, sfnt.byteOffset, sfnt.byteLength)) as Font;
      if (!('unitsPerEm' in font)) throw new Error(`font collections are not supported (${role})`);
      return font;
    });
  }

  /** Index of the first source file that has a glyph for the code point, or -1. */
  sourceFor(codePoint: number): number {
    let index = this.sourceCache.get(codePoint);
    if (index === undefined) {
      index = this.sources.findIndex((font) => font.hasGlyphForCodePoint(codePoint));
      this.sourceCache.set(codePoint, index);
    }
    return index;
  }

  /**
   * Pair kerning in 1/1000 em, from the font's own layout engine, cached per pair: shaping every
   * string with fontkit costs ~70 µs; the cached pairs cost nothing after the first documents.
   */
  kerning(sourceIndex: number, a: number, b: number): number {
    const key = sourceIndex * 0x40000000 + a * 0x8000 + b;
    if (a > 0x7fff || b > 0x7fff) return 0;
    const cached = this.kerningCache.get(key);
    if (cached !== undefined) return cached;
    const font = this.sources[sourceIndex]!;
    let value = 0;
    try {
      const run = font.layout(String.fromCodePoint(a, b), { liga: false, clig: false, dlig: false, calt: false });
      const ga = font.glyphForCodePoint(a);
      const gb = font.glyphForCodePoint(b);
      if (run.glyphs.length === 2 && run.glyphs[0]!.id === ga.id && run.glyphs[1]!.id === gb.id) {
        value = ((run.positions[0]!.xAdvance - ga.advanceWidth) * 1000) / font.unitsPerEm;
      }
    } catch {
      value = 0;
    }
    this.kerningCache.set(key, value);
    return value;
  }
}

export interface SubsetGlyph {
  cid: number;
  /** Advance in 1/1000 em. */
  width: number;
}

/** A subset of one source file of a face, written into the PDF as one Type0 font. */
export class FontSubset {
  readonly glyphs = new Map<number, SubsetGlyph>();
  private readonly fontProgram: Uint8Array;
  private readonly tag: string;

  constructor(
    readonly face: FontFace,
    readonly sourceIndex: number,
    codePoints: Iterable<number>,
    readonly resourceName: string,
  ) {
    const font = face.sources[sourceIndex]!;
    const subset = font.createSubset();
    const sorted = [...new Set(codePoints)].filter((c) => font.hasGlyphForCodePoint(c)).sort((a, b) => a - b);
    for (const codePoint of sorted) {
      const glyph: Glyph = font.glyphForCodePoint(codePoint);
      const cid = subset.includeGlyph(glyph) as unknown as number;
      this.glyphs.set(codePoint, { cid, width: (glyph.advanceWidth * 1000) / font.unitsPerEm });
    }
    this.fontProgram = subset.encode();
    const digest = createHash('sha256').update(this.fontProgram).digest();
    this.tag = Array.from(digest.subarray(0, 6), (b) => String.fromCharCode(65 + (b % 26))).join('');
  }

  get byteLength(): number {
    return this.fontProgram.length;
  }

  /** Writes the font's five objects and returns the Type0 font's object number. */
  write(writer: PdfWriter): number {
    const font = this.face.sources[this.sourceIndex]!;
    const scale = 1000 / font.unitsPerEm;
    const baseFont = `${this.tag}+${font.postscriptName.replace(/[^A-Za-z0-9-]/g, '')}`;
    const type0 = writer.allocate();
    const cidFont = writer.allocate();
    const descriptor = writer.allocate();
    const file = writer.allocate();
    const toUnicode = writer.allocate();

    const byCid = [...this.glyphs.entries()].sort((a, b) => a[1].cid - b[1].cid);
    const maxCid = byCid.length ? byCid[byCid.length - 1]![1].cid : 0;
    const widths = new Array<number>(maxCid + 1).fill(0);
    for (const [, g] of byCid) widths[g.cid] = g.width;

    const italic = font.italicAngle !== 0;
    const flags = 32 | 2 | (italic ? 64 : 0);
    const bbox = font.bbox;
    writer.writeObject(type0, `<< /Type /Font /Subtype /Type0 /BaseFont /${baseFont} /Encoding /Identity-H /DescendantFonts [${ref(cidFont)}] /ToUnicode ${ref(toUnicode)} >>`);
    writer.writeObject(
      cidFont,
      `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${baseFont} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${ref(descriptor)} /CIDToGIDMap /Identity /DW 0 /W [0 [${widths.map(pdfNumber).join(' ')}]] >>`,
    );
    writer.writeObject(
      descriptor,
      `<< /Type /FontDescriptor /FontName /${baseFont} /Flags ${flags} /FontBBox [${[bbox.minX, bbox.minY, bbox.maxX, bbox.maxY].map((v) => pdfNumber(v * scale)).join(' ')}] /ItalicAngle ${pdfNumber(font.italicAngle)} /Ascent ${pdfNumber(font.ascent * scale)} /Descent ${pdfNumber(font.descent * scale)} /CapHeight ${pdfNumber((font.capHeight || font.ascent) * scale)} /StemV 80 /FontFile2 ${ref(file)} >>`,
    );
    writer.writeStream(file, `/Length1 ${this.fontProgram.length}`, this.fontProgram, { level: 9 });
    writer.writeStream(toUnicode, '', Buffer.from(this.toUnicodeCMap(byCid), 'latin1'));
    return type0;
  }

  private toUnicodeCMap(byCid: Array<[number, SubsetGlyph]>): string {
    const lines = [
      '/CIDInit /ProcSet findresource begin',
      '12 dict begin',
      'begincmap',
      '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
      '/CMapName /Adobe-Identity-UCS def',
      '/CMapType 2 def',
      '1 begincodespacerange',
      '<0000> <FFFF>',
      'endcodespacerange',
    ];
    for (let i = 0; i < byCid.length; i += 100) {
      const chunk = byCid.slice(i, i + 100);
      lines.push(`${chunk.length} beginbfchar`);
      for (const [codePoint, g] of chunk) {
        const utf16 = Array.from(String.fromCodePoint(codePoint), (ch) => ch.charCodeAt(0).toString(16).padStart(4, '0')).join('');
        lines.push(`<${g.cid.toString(16).padStart(4, '0')}> <${utf16}>`);
      }
      lines.push('endbfchar');
    }
    lines.push('endcmap', 'CMapName currentdict /CMap defineresource pop', 'end', 'end');
    return lines.join('\n');
  }
}

/** Text as runs of glyphs of one subset each, ready to be shown with TJ. */
export interface TextRun {
  subset: FontSubset;
  /** Hex glyph codes and kerning adjustments, as TJ array items. */
  items: string[];
}

export interface ShapedText {
  runs: TextRun[];
  /** Width in 1/1000 em, kerning included, letter spacing excluded. */
  width: number;
  glyphCount: number;
}

/** Normalises text so that what is drawn is what was meant: NFC, no control characters. */
export function normalizeText(text: string): string {
  return (
    text
      .normalize('NFC')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: replacing control characters is this pattern's purpose.
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
      .replace(/[\u2000-\u200b\u202f\u205f]/g, ' ')
  );
}

/**
 * Picks the character to draw for a code point no source of the face has: the base letter of its
 * canonical decomposition ("ǅ" stays unrepresented, "ṡ" becomes "s"), else "?".
 */
export function fallbackCodePoint(face: FontFace, codePoint: number): number {
  const base = String.fromCodePoint(codePoint).normalize('NFD').codePointAt(0) ?? 0x3f;
  return base !== codePoint && face.sourceFor(base) >= 0 ? base : 0x3f;
}

/**
 * Shapes text with the face's subsets. `subsetFor` returns the subset that carries a code point (the
 * shared one, or a per-document supplement).
 */
export function shapeText(face: FontFace, text: string, subsetFor: (face: FontFace, codePoint: number) => FontSubset): ShapedText {
  const runs: TextRun[] = [];
  let width = 0;
  let glyphCount = 0;
  let current: TextRun | undefined;
  let previous: { codePoint: number; subset: FontSubset } | undefined;
  let codes: string[] = [];
  const flush = () => {
    if (current && codes.length) current.items.push(`<${codes.join('')}>`);
    codes = [];
  };
  for (const ch of normalizeText(text)) {
    let codePoint = ch.codePointAt(0)!;
    if (face.sourceFor(codePoint) < 0) codePoint = fallbackCodePoint(face, codePoint);
    const subset = subsetFor(face, codePoint);
    const glyph = subset.glyphs.get(codePoint);
    if (!glyph) throw new Error(`subset ${subset.resourceName} lacks U+${codePoint.toString(16)}`);
    if (!current || current.subset !== subset) {
      flush();
      current = { subset, items: [] };
      runs.push(current);
    } else if (previous && previous.subset.sourceIndex === subset.sourceIndex) {
      const kern = face.kerning(subset.sourceIndex, previous.codePoint, codePoint);
      if (kern !== 0) {
        flush();
        current.items.push(pdfNumber(-kern));
        width += kern;
      }
    }
    codes.push(glyph.cid.toString(16).padStart(4, '0'));
    width += glyph.width;
    glyphCount++;
    previous = { codePoint, subset };
  }
  flush();
  return { runs, width, glyphCount };
}
