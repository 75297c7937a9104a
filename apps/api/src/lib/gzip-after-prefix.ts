import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * Gzip for pages that start with the same long text on every answer (the verdict's page: index.html's
 * head with the app's whole stylesheet inline, then a short per-answer part; ADR 0156). That head is
 * compressed once; each answer compresses only its own part and is sent as one gzip member whose
 * deflate data is the head's blocks followed by the part's.
 *
 * Why this is valid (RFC 1951, RFC 1952): the head's blocks end with a sync flush, an empty stored
 * block that leaves the stream on a byte boundary and is not the last block; the part's blocks are a
 * deflate stream of their own, which ends with the last block. Their back references never reach
 * into the head (its compressor never saw it), so the decoder reads them as it would any block. The
 * member's trailer carries the CRC-32 and length of the whole text: the head's CRC is kept, and the
 * part's continues it.
 */
export interface GzipPrefix {
  /** The text it was made from, which an answer must start with. */
  readonly text: string;
  /** Its deflate blocks, ending with a sync flush. */
  readonly blocks: Buffer;
  readonly crc: number;
  readonly bytes: number;
}

/** Gzip header: deflate, no flags, no time, unknown OS (RFC 1952 section 2.3). */
const HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);

/** Compresses the shared beginning once, at the best level. */
export function gzipPrefix(text: string): GzipPrefix {
  const bytes = Buffer.from(text, 'utf8');
  return { text, blocks: deflateRawSync(bytes, { level: 9, finishFlush: constants.Z_SYNC_FLUSH }), crc: crc32(bytes), bytes: bytes.length };
}

/** `prefix.text + rest`, gzipped: only `rest` is compressed here (at zlib's default level). */
export function gzipAfterPrefix(prefix: GzipPrefix, rest: string): Buffer {
  const bytes = Buffer.from(rest, 'utf8');
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crc32(bytes, prefix.crc), 0);
  // ISIZE: the whole text's length modulo 2^32.
  trailer.writeUInt32LE((prefix.bytes + bytes.length) % 2 ** 32, 4);
  return Buffer.concat([HEADER, prefix.blocks, deflateRawSync(bytes, { level: 6 }), trailer]);
}
