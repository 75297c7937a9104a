/**
 * Reads back the two QR codes a Sceau diploma PDF draws, so the PDF's QR payload and its embedded
 * credential can be checked against each other. The renderer draws each QR as vector modules (one
 * `re` per horizontal run, in a module-unit coordinate system: @sceau/pdf src/qr.ts `qrContent`);
 * we rebuild the module matrix from those runs, rasterise it with a quiet zone and decode it with
 * the `qr` library's decoder. Best effort: a PDF drawn otherwise yields no codes, never an error.
 */
import decodeQR from 'qr/decode.js';
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

function decodeRuns(runs: string): string | null {
  const rects = [...runs.matchAll(/(\d+) (\d+) (\d+) 1 re/g)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3])] as const);
  let size = 0;
  for (const [col, row, width] of rects) size = Math.max(size, col + width, row + 1);
  if (size < 21 || size > MAX_MODULES) return null;
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

/** The texts of the QR codes drawn on the PDF's first page, in drawing order; [] if none can be read. */
export async function readPdfQrCodes(pdf: Uint8Array): Promise<string[]> {
  let contents: string[];
  try {
    contents = await pageContents(pdf);
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const text of contents) {
    for (const match of text.matchAll(QR_BLOCK)) {
      const decoded = decodeRuns(match[1]!);
      if (decoded !== null) found.push(decoded);
    }
  }
  return found;
}
