/** Byte helpers shared by the package: Uint8Array only, so the same code runs in Node and browsers. */
import { base64urlnopad } from '@scure/base';
import { randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';

export { randomBytes, utf8ToBytes };

const HEX_DIGITS = utf8ToBytes('0123456789abcdef');
const asciiDecoder = new TextDecoder();

/**
 * Lowercase hex as one flat string. Building it by `+=` (as generic helpers do) leaves a rope of
 * small string nodes: ~1 KB of heap per 32-byte hash until flattened, 24 KB per credential.
 */
export function bytesToHex(bytes: Uint8Array): string {
  const out = new Uint8Array(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    out[2 * i] = HEX_DIGITS[bytes[i]! >> 4]!;
    out[2 * i + 1] = HEX_DIGITS[bytes[i]! & 15]!;
  }
  return asciiDecoder.decode(out);
}

/** The value of each lowercase hex digit by character code, -1 for every other character below 128. */
const HEX_VALUES = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < 16; i++) table[HEX_DIGITS[i]!] = i;
  return table;
})();

/**
 * Decodes lowercase hex into `out` (hex.length = 2 × out.length); false at the first character
 * that is not a lowercase hex digit. A table and a loop: this runs ~30 times per verification.
 */
function decodeLowerHex(hex: string, out: Uint8Array): boolean {
  for (let i = 0, j = 0; i < out.length; i++, j += 2) {
    const c1 = hex.charCodeAt(j);
    const c2 = hex.charCodeAt(j + 1);
    // Codes from 128 up are no hex digit and outside the table.
    if (c1 > 127 || c2 > 127) return false;
    const hi = HEX_VALUES[c1]!;
    const lo = HEX_VALUES[c2]!;
    if ((hi | lo) < 0) return false;
    out[i] = (hi << 4) | lo;
  }
  return true;
}

/** Lowercase hex only: one spelling per byte string, so documents compare as text. */
export function hexToBytesStrict(hex: string, length?: number): Uint8Array {
  if (typeof hex !== 'string' || hex.length % 2 !== 0) throw new Error('not lowercase hex');
  const bytes = new Uint8Array(hex.length / 2);
  if (!decodeLowerHex(hex, bytes)) throw new Error('not lowercase hex');
  if (length !== undefined && bytes.length !== length) {
    throw new Error(`expected ${length} bytes, got ${bytes.length}`);
  }
  return bytes;
}

export function isLowerHex(value: unknown, length: number): value is string {
  if (typeof value !== 'string' || value.length !== length * 2) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c > 127 || HEX_VALUES[c]! < 0) return false;
  }
  return true;
}

/** base64url without padding; decoding refuses non-canonical spellings (stray padding bits). */
export function toBase64url(bytes: Uint8Array): string {
  return base64urlnopad.encode(bytes);
}

export function fromBase64url(text: string): Uint8Array {
  const bytes = base64urlnopad.decode(text);
  if (base64urlnopad.encode(bytes) !== text) throw new Error('non-canonical base64url');
  return bytes;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i]! - b[i]!;
  }
  return a.length - b.length;
}

export function u32be(n: number): Uint8Array {
  return new Uint8Array([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
}

const textDecoder = new TextDecoder('utf-8', { fatal: true });
export function bytesToUtf8(bytes: Uint8Array): string {
  return textDecoder.decode(bytes);
}
