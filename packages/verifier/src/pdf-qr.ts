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
function decodeGrid(rects: ReadonlyArray<readonly [number, number, number]>, size: number): string | null {
  if (gridScanner === undefined) {
    try {
      gridScanner = new _QRScanner({ maxSize: { width: 64, height: 64 } });
    } catch {
      gridScanner = null;
    }
  }
  const scanner = gridScanner as unknown as { grid?: Uint8Array; decodeGrid?: (size: number, ctx?: unknown) => unknown } | null;
  if (!scanner || !(scanner.grid instanceof Uint8Array) || typeof scanner.decodeGrid !== 'function' || scanner.grid.length < size * size) return null;
  try {
    const grid = scanner.grid;
    grid.fill(0, 0, size * size);
    for (const [col, row, width] of rects) grid.fill(1, row * size + col, row * size + col + width);
    const decoded = scanner.decodeGrid(size);
    return typeof decoded === 'string' ? decoded : null;
  } catch {
    return null;
  }
}

/** The runs `col row width 1 re` (QR_BLOCK has checked their syntax), as numbers. */
function parseRuns(runs: string): Array<readonly [number, number, number]> {
  const rects: Array<readonly [number, number, number]> = [];
  const numbers: number[] = [];
  let value = -1;
  for (let i = 0; i <= runs.length; i++) {
    const c = i < runs.length ? runs.charCodeAt(i) : 0x20;
    if (c >= 0x30 && c <= 0x39) {
      value = (value < 0 ? 0 : value * 10) + (c - 0x30);
    } else if (value >= 0) {
      numbers.push(value);
      value = -1;
    } else if (c === 0x72) {
      // "re": the four numbers before it are col, row, width, 1.
      if (numbers.length === 4 && numbers[3] === 1) rects.push([numbers[0]!, numbers[1]!, numbers[2]!]);
      numbers.length = 0;
      i++; // the "e"
    }
  }
  return rects;
}

function decodeRuns(runs: string, grid: boolean): string | null {
  const rects = grid ? parseRuns(runs) : [...runs.matchAll(/(\d+) (\d+) (\d+) 1 re/g)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3])] as const);
  let size = 0;
  for (const [col, row, width] of rects) size = Math.max(size, col + width, row + 1);
  if (size < 21 || size > MAX_MODULES) return null;
  if (grid && (size - 17) % 4 === 0) {
    const fast = decodeGrid(rects, size);
    if (fast !== null) return fast;
  }
  const side = (size + 2 * QUIET) * SCALE;
  const data = new Uint8Array(side * side).fill(255);
  for (const [col, row, width] of rects) {
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
