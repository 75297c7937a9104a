/** CBOR through cborg: deterministic encoding, strict decoding (ADR 0011). */
import { decode, encode, Tagged, type TagDecoder } from 'cborg';

export { Tagged };

export function encodeCbor(value: unknown): Uint8Array {
  return encode(value);
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
