/**
 * Reads back the two QR codes a Sceau diploma PDF draws, so the PDF's QR payload and its embedded
 * credential can be checked against each other. The renderer draws each QR as vector modules (one
 * `re` per horizontal run, in a module-unit coordinate system: @sceau/pdf src/qr.ts `qrContent`);
 * we rebuild the module matrix from those runs, rasterise it with a quiet zone and decode it with
 * the `qr` library's decoder (or, on the fast path, decode the matrix itself as a grid). Best
 * effort: a PDF drawn otherwise yields no codes, never an error.
 */
import decodeQR, { _QRScanner } from 'qr/decode.js';
import { PDFArray, PDFDocument, PDFName, PDFRawStream, decodePDFRawStream } from 'pdf-lib';

// q 1 g x y s s re f  u 0 0 -u tx ty cm  0 g  <runs> f Q
const QR_BLOCK = /1 g\s+[-\d.]+ [-\d.]+ [-\d.]+ [-\d.]+ re f\s+[-\d.]+ 0 0 -[-\d.]+ [-\d.]+ [-\d.]+ cm\s+0 g\s+((?:\d+ \d+ \d+ 1 re\s+)+)f\b/g;
const QUIET = 4;
const SCALE = 3;
const MAX_MODULES = 177; // version 40

async function pageContents(pdf: Uint8Array): Promise<string[]> {
  const document = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true, throwOnInvalidObject: false });
  const texts: string[] = [];
  for (const page of document.getPages().slice(0, 1)) {
    const contents = page.node.get(PDFName.of('Contents'));
    const refs = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
    for (const ref of refs) {
      const stream = document.context.lookup(ref);
      if (stream instanceof PDFRawStream) texts.push(Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1'));
    }
  }
  return texts;
}

/**
 * The module matrix the runs draw is exact (vector modules, no noise): decode it as a grid with the
 * `qr` library's own grid decoder (format, unmasking, Reed-Solomon, segments), skipping the image
 * search that a photographed code needs. That decoder is not public API (`decodeGrid` of its
 * scanner): if it is missing or fails, the matrix is rasterised and decoded as an image, as before.
 */
let gridScanner: _QRScanner | null | undefined;
function gridDecoder(size: number): { grid: Uint8Array; decodeGrid: (size: number, ctx?: unknown) => unknown } | null {
  if (gridScanner === undefined) {
    try {
      gridScanner = new _QRScanner({ maxSize: { width: 64, height: 64 } });
    } catch {
      gridScanner = null;
    }
  }
  const scanner = gridScanner as unknown as { grid?: Uint8Array; decodeGrid?: (size: number, ctx?: unknown) => unknown } | null;
  if (!scanner || !(scanner.grid instanceof Uint8Array) || typeof scanner.decodeGrid !== 'function' || scanner.grid.length < size * size) return null;
  return scanner as { grid: Uint8Array; decodeGrid: (size: number, ctx?: unknown) => unknown };
}

/** Runs `col row width` (a module matrix's dark modules, row by row), as flat numbers. */
interface Runs {
  values: Int32Array;
  count: number;
  size: number;
}
let scratch = new Int32Array(3 * 4096);

/**
 * The runs `col row width 1 re` (QR_BLOCK has checked their syntax), as numbers, in one pass over
 * the characters without allocating per run (a version-15 code has about 1,500 runs).
 */
function parseRuns(runs: string): Runs {
  let count = 0;
  let size = 0;
  let n0 = 0;
  let n1 = 0;
  let n2 = 0;
  let n3 = 0;
  let numbers = 0;
  let value = -1;
  const length = runs.length;
  for (let i = 0; i <= length; i++) {
    const c = i < length ? runs.charCodeAt(i) : 0x20;
    if (c >= 0x30 && c <= 0x39) {
      value = (value < 0 ? 0 : value * 10) + (c - 0x30);
      continue;
    }
    if (value >= 0) {
      if (numbers === 0) n0 = value;
      else if (numbers === 1) n1 = value;
      else if (numbers === 2) n2 = value;
      else if (numbers === 3) n3 = value;
      numbers++;
      value = -1;
    } else if (c === 0x72) {
      // "re": the four numbers before it are col, row, width, 1.
      if (numbers === 4 && n3 === 1) {
        if (3 * count + 3 > scratch.length) {
          const grown = new Int32Array(scratch.length * 2);
          grown.set(scratch);
          scratch = grown;
        }
        scratch[3 * count] = n0;
        scratch[3 * count + 1] = n1;
        scratch[3 * count + 2] = n2;
        count++;
        if (n0 + n2 > size) size = n0 + n2;
        if (n1 + 1 > size) size = n1 + 1;
      }
      numbers = 0;
      i++; // the "e"
    }
  }
  return { values: scratch, count, size };
}

function decodeRuns(text: string, grid: boolean): string | null {
  const runs = grid
    ? parseRuns(text)
    : (() => {
        const found = [...text.matchAll(/(\d+) (\d+) (\d+) 1 re/g)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3])] as const);
        let size = 0;
        for (const [col, row, width] of found) size = Math.max(size, col + width, row + 1);
        return { values: Int32Array.from(found.flat()), count: found.length, size };
      })();
  const { values, count, size } = runs;
  if (size < 21 || size > MAX_MODULES) return null;
  if (grid && (size - 17) % 4 === 0) {
    const decoder = gridDecoder(size);
    if (decoder) {
      try {
        const cells = decoder.grid;
        cells.fill(0, 0, size * size);
        for (let r = 0; r < count; r++) {
          const at = values[3 * r + 1]! * size + values[3 * r]!;
          cells.fill(1, at, at + values[3 * r + 2]!);
        }
        const decoded = decoder.decodeGrid(size);
        if (typeof decoded === 'string') return decoded;
      } catch {
        // decoded as an image below
      }
    }
  }
  const side = (size + 2 * QUIET) * SCALE;
  const data = new Uint8Array(side * side).fill(255);
  for (let r = 0; r < count; r++) {
    const col = values[3 * r]!;
    const row = values[3 * r + 1]!;
    const width = values[3 * r + 2]!;
    for (let y = (row + QUIET) * SCALE; y < (row + QUIET + 1) * SCALE; y++) {
      data.fill(0, y * side + (col + QUIET) * SCALE, y * side + (col + width + QUIET) * SCALE);
    }
  }
  const rgba = new Uint8Array(side * side * 4);
  for (let i = 0; i < data.length; i++) {
    rgba[i * 4] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = data[i]!;
    rgba[i * 4 + 3] = 255;
  }
  try {
    return decodeQR({ width: side, height: side, data: rgba });
  } catch {
    return null;
  }
}

/**
 * The texts of the QR codes drawn in these content streams, in drawing order. `grid`: decode the
 * module matrix directly (the fast reader's path, for the renderer's own output), else as an image.
 */
export function qrCodesFromContents(contents: readonly string[], options: { grid?: boolean } = {}): string[] {
  const found: string[] = [];
  for (const text of contents) {
    for (const match of text.matchAll(QR_BLOCK)) {
      const decoded = decodeRuns(match[1]!, options.grid === true);
      if (decoded !== null) found.push(decoded);
    }
  }
  return found;
}

/** The texts of the QR codes drawn on the PDF's first page, in drawing order; [] if none can be read. */
export async function readPdfQrCodes(pdf: Uint8Array): Promise<string[]> {
  let contents: string[];
  try {
    contents = await pageContents(pdf);
  } catch {
    return [];
  }
  return qrCodesFromContents(contents);
}
