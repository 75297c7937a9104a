/** CBOR through cborg: deterministic encoding, strict decoding (ADR 0011). */
import { decode, encode, Tagged, type TagDecoder } from 'cborg';

export { Tagged };

/**
 * In Node, cborg returns a Buffer: it is handed back as a plain Uint8Array view of the same bytes,
 * so that encoding it again (a payload inside a COSE message) sees bytes whatever the realm its
 * caller runs in (a jsdom test, where Buffer is not an instance of the page's Uint8Array).
 */
export function encodeCbor(value: unknown): Uint8Array {
  const bytes = encode(value);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Strict decode: shortest integer forms, no indefinite lengths, no undefined, no duplicate map
 * keys, maps as Map (integer keys), only the tags listed; trailing bytes rejected by cborg.
 */
export function decodeCborStrict(bytes: Uint8Array, tags: readonly number[] = []): unknown {
  const tagDecoders: Record<number, TagDecoder> = {};
  for (const tag of tags) tagDecoders[tag] = Tagged.decoder(tag);
  return decode(bytes, {
    strict: true,
    allowIndefinite: false,
    allowUndefined: false,
    rejectDuplicateMapKeys: true,
    useMaps: true,
    tags: tagDecoders,
  });
}
