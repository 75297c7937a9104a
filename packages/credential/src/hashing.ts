/**
 * Salted field hashes and the targetHash (the OpenAttestation approach, with an unambiguous
 * byte encoding instead of string concatenation). Exact definitions: test-vectors/VECTORS.md.
 */
import { sha256 } from '#sha256';
import { compareBytes, utf8ToBytes } from './bytes.ts';

export const SALT_BYTES = 16;
export const HASH_BYTES = 32;

const FIELD_TAG = utf8ToBytes('sceau:field:v1\u0000');
const TARGET_TAG = utf8ToBytes('sceau:target:v1\u0000');

/**
 * SHA-256( "sceau:field:v1" 0x00 ‖ salt (16 bytes) ‖ u32be(len name) ‖ name ‖ u32be(len value) ‖ value ),
 * name and value in UTF-8. Fixed salt length and length prefixes make the split unambiguous.
 */
export function hashField(salt: Uint8Array, name: string, value: string): Uint8Array {
  if (salt.length !== SALT_BYTES) throw new Error(`salt must be ${SALT_BYTES} bytes`);
  // Worst case 3 bytes per UTF-16 unit; one reused buffer, one hash call (this runs 25 times per
  // diploma: allocating and UTF-8-encoding through TextEncoder dominated the cost).
  const max = FIELD_TAG.length + SALT_BYTES + 8 + 3 * (name.length + value.length);
  if (scratch.length < max) scratch = new Uint8Array(2 * max);
  const buf = scratch;
  buf.set(FIELD_TAG, 0);
  buf.set(salt, FIELD_TAG.length);
  let at = FIELD_TAG.length + SALT_BYTES;
  at = writeLengthPrefixed(buf, at, name);
  at = writeLengthPrefixed(buf, at, value);
  return sha256(buf.subarray(0, at));
}

let scratch = new Uint8Array(1024);
const encoder = new TextEncoder();

/** Writes u32be(byte length) ‖ UTF-8(text) at `at`; returns the end offset. */
function writeLengthPrefixed(buf: Uint8Array, at: number, text: string): number {
  const start = at + 4;
  let end = start;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) {
      end = start + encoder.encodeInto(text, buf.subarray(start)).written;
      break;
    }
    buf[end++] = c;
  }
  const len = end - start;
  buf[at] = len >>> 24;
  buf[at + 1] = (len >>> 16) & 0xff;
  buf[at + 2] = (len >>> 8) & 0xff;
  buf[at + 3] = len & 0xff;
  return end;
}

/** SHA-256( "sceau:target:v1" 0x00 ‖ field hashes sorted bytewise ascending, concatenated ). */
export function computeTargetHash(fieldHashes: readonly Uint8Array[]): Uint8Array {
  const sorted = [...fieldHashes].sort(compareBytes);
  // One buffer, one hash call (node:crypto's one-shot hash, sha256.ts).
  const buf = new Uint8Array(TARGET_TAG.length + HASH_BYTES * sorted.length);
  buf.set(TARGET_TAG, 0);
  let at = TARGET_TAG.length;
  for (const fieldHash of sorted) {
    if (fieldHash.length !== HASH_BYTES) throw new Error('field hash must be 32 bytes');
    buf.set(fieldHash, at);
    at += HASH_BYTES;
  }
  return sha256(buf);
}
