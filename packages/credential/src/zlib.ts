/** zlib (RFC 1950) through pako, which checks the header and the Adler-32 trailer on inflate. */
import { deflate, Inflate } from 'pako';

export function zlibCompress(bytes: Uint8Array): Uint8Array {
  return deflate(bytes, { level: 9 });
}

/** Inflates one complete zlib stream, refusing more than `maxBytes` of output and trailing bytes. */
export function zlibDecompress(bytes: Uint8Array, maxBytes: number): Uint8Array {
  const inflator = new Inflate({ chunkSize: 1024 });
  let total = 0;
  const chunks: Uint8Array[] = [];
  inflator.onData = (chunk: Uint8Array) => {
    total += chunk.length;
    if (total > maxBytes) throw new Error(`zlib: more than ${maxBytes} bytes once inflated`);
    chunks.push(chunk);
  };
  try {
    inflator.push(bytes, true);
  } catch (error) {
    throw new Error(typeof error === 'string' ? `zlib: ${error}` : (error as Error).message);
  }
  if (inflator.err) {
    throw new Error(inflator.msg === 'buffer error' ? 'zlib: truncated stream' : `zlib: ${inflator.msg || 'invalid data'}`);
  }
  if (!inflator.ended) throw new Error('zlib: truncated stream');
  const left = (inflator as unknown as { strm: { avail_in: number } }).strm.avail_in;
  if (left > 0) throw new Error('zlib: bytes after the end of the stream');
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
