// QR codes drawn as vector modules: one rectangle per horizontal run of dark modules, all filled as
// one path (no seams between rows), in a module-unit coordinate system so that numbers stay short.
import QRCode from 'qrcode';
import { pdfNumber as n } from './pdf-syntax.ts';

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
}

/**
 * Encodes text as a QR matrix. Base45 text (the offline payload) is entirely within the QR
 * alphanumeric set, so the library picks the 5.5-bit alphanumeric mode for it.
 */
export function createQrMatrix(text: string, options: QrOptions): QrMatrix {
  for (const level of options.levels) {
    let qr: QRCode.QRCode;
    try {
      qr = QRCode.create(text, { errorCorrectionLevel: level });
    } catch {
      continue;
    }
    if (qr.version > options.maxVersion) continue;
    return { size: qr.modules.size, version: qr.version, level, modules: Uint8Array.from(qr.modules.data) };
  }
  throw new Error(`QR content of ${text.length} characters does not fit version ${options.maxVersion} at levels ${options.levels.join('/')}`);
}

/** Offline payload: level Q (25 % recovery: survives a fold or a stain), M only if Q would pass version 15. */
export const offlineQrOptions: QrOptions = { levels: ['Q', 'M'], maxVersion: 15 };
/** Verification link: short, so level Q costs little. */
export const verifyQrOptions: QrOptions = { levels: ['Q', 'M', 'L'], maxVersion: 10 };

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
