/// <reference path="./types/digitalbazaar-base45.d.ts" />
/** base45 (RFC 9285) through @digitalbazaar/base45. */
import { decode, encode } from '@digitalbazaar/base45';

export function toBase45(bytes: Uint8Array): string {
  // The library reads `bytes.buffer` from offset 0: hand it a fresh, unshared copy. `slice()` is not
  // one for a Node Buffer (a view into a shared pool, as cborg sometimes returns): copy explicitly.
  return encode(new Uint8Array(bytes));
}

export function fromBase45(text: string): Uint8Array {
  return decode(text);
}
