// QR codes drawn as vector modules: one rectangle per horizontal run of dark modules, all filled as
// one path (no seams between rows), in a module-unit coordinate system so that numbers stay short.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import encodeQR from 'qr';
import { pdfNumber as n } from './pdf-syntax.ts';

/**
 * A second copy of the `qr` module (same file, loaded under another URL, so another module
 * instance). The library keeps the tables of one symbol version only, its last; a diploma carries
 * two codes of different versions (the link, about 4; the signed payload, about 15), so every code
 * rebuilt them: 0.41 ms of CPU for the pair instead of 0.20 ms with one copy per code. If a loader
 * refuses the URL, the one copy serves both (correct, slower).
 */
const encoders: Array<typeof encodeQR> = [encodeQR, await loadSecondEncoder()];

async function loadSecondEncoder(): Promise<typeof encodeQR> {
  try {
    const url = `${pathToFileURL(createRequire(import.meta.url).resolve('qr')).href}?copy=link`;
    const copy = ((await import(url)) as { default: typeof encodeQR }).default;
    return typeof copy === 'function' ? copy : encodeQR;
  } catch {
    return encodeQR;
  }
}

export type QrLevel = 'L' | 'M' | 'Q' | 'H';

export interface QrMatrix {
  size: number;
  version: number;
  level: QrLevel;
  /** Row-major, 1 = dark. */
  modules: Uint8Array;
}

export interface QrOptions {
  /** Error correction levels to try, best first; the first that fits within maxVersion wins. */
  levels: QrLevel[];
  maxVersion: number;
  /** Which copy of the encoder (each keeps one symbol version's tables): one per kind of code on a page. */
  encoder?: 0 | 1;
}

const eccNames = { L: 'low', M: 'medium', Q: 'quartile', H: 'high' } as const;

/**
 * Encodes text as a QR matrix with the `qr` library (0.3 ms for a version-15 symbol, where `qrcode`
 * takes 3 to 5 ms choosing its mask; same symbols). Base45 text (the offline payload) lies entirely in
 * the QR alphanumeric set, so it is encoded in the 5.5-bit alphanumeric mode.
 */
export function createQrMatrix(text: string, options: QrOptions): QrMatrix {
  for (const level of options.levels) {
    let rows: boolean[][];
    try {
      // The smallest quiet zone the library accepts is one module: slice it off.
      rows = encoders[options.encoder ?? 0]!(text, 'raw', { ecc: eccNames[level], border: 1 });
    } catch {
      continue;
    }
    const size = rows.length - 2;
    const version = (size - 17) / 4;
    if (version > options.maxVersion) continue;
    const modules = new Uint8Array(size * size);
    for (let y = 0; y < size; y++) {
      const row = rows[y + 1]!;
      for (let x = 0; x < size; x++) modules[y * size + x] = row[x + 1] ? 1 : 0;
    }
    return { size, version, level, modules };
  }
  throw new Error(`QR content of ${text.length} characters does not fit version ${options.maxVersion} at levels ${options.levels.join('/')}`);
}

/** Offline payload: level Q (25 % recovery: survives a fold or a stain), M only if Q would pass version 15. */
export const offlineQrOptions: QrOptions = { levels: ['Q', 'M'], maxVersion: 15 };
/** Verification link: short, so level Q costs little. */
export const verifyQrOptions: QrOptions = { levels: ['Q', 'M', 'L'], maxVersion: 10, encoder: 1 };

export const QUIET_ZONE_MODULES = 2;

/**
 * Operators drawing the QR code in the square (x, y) of side `sizePt` (y is the bottom edge), on a
 * white quiet zone of two modules (the ISO four-module zone would cost too much room on the page;
 * phone readers need two on a plain background).
 */
export function qrContent(matrix: QrMatrix, x: number, y: number, sizePt: number): string {
  const total = matrix.size + 2 * QUIET_ZONE_MODULES;
  const unit = sizePt / total;
  const ops: string[] = ['q', '1 g', `${n(x)} ${n(y)} ${n(sizePt)} ${n(sizePt)} re f`];
  // Module space: origin at the top-left module, y down, one unit per module.
  ops.push(`${n(unit)} 0 0 ${n(-unit)} ${n(x + QUIET_ZONE_MODULES * unit)} ${n(y + sizePt - QUIET_ZONE_MODULES * unit)} cm`, '0 g');
  const size = matrix.size;
  const runs: string[] = [];
  for (let row = 0; row < size; row++) {
    let col = 0;
    while (col < size) {
      if (!matrix.modules[row * size + col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && matrix.modules[row * size + col]) col++;
      runs.push(`${start} ${row} ${col - start} 1 re`);
    }
  }
  ops.push(runs.join('\n'), 'f', 'Q');
  return ops.join('\n');
}
