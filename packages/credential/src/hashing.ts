/**
 * Salted field hashes and the targetHash (the OpenAttestation approach, with an unambiguous
 * byte encoding instead of string concatenation). Exact definitions: test-vectors/VECTORS.md.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { compareBytes, u32be, utf8ToBytes } from './bytes.ts';

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
  const nameBytes = utf8ToBytes(name);
  const valueBytes = utf8ToBytes(value);
  // One buffer, one hash call: several times faster than streaming six small updates.
  const buf = new Uint8Array(FIELD_TAG.length + SALT_BYTES + 8 + nameBytes.length + valueBytes.length);
  let at = 0;
  for (const part of [FIELD_TAG, salt, u32be(nameBytes.length), nameBytes, u32be(valueBytes.length), valueBytes]) {
    buf.set(part, at);
    at += part.length;
  }
  return sha256(buf);
}

/** SHA-256( "sceau:target:v1" 0x00 ‖ field hashes sorted bytewise ascending, concatenated ). */
export function computeTargetHash(fieldHashes: readonly Uint8Array[]): Uint8Array {
  const sorted = [...fieldHashes].sort(compareBytes);
  const h = sha256.create().update(TARGET_TAG);
  for (const fieldHash of sorted) {
    if (fieldHash.length !== HASH_BYTES) throw new Error('field hash must be 32 bytes');
    h.update(fieldHash);
  }
  return h.digest();
}
