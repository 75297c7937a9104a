/**
 * How the API compresses its answers (ADR 0126): JSON, HTML and text of 1 KB or more, brotli or
 * gzip as the client accepts; files compressed already (PDF, zip, PNG) as they are.
 *
 * Brotli's quality is a cost paid on every request against bytes saved on a slow network. The
 * app's default (4) is for answers of any kind; an answer written anew for nearly every request on
 * results day (a diploma's verdict by id, its public credential's hashes and signatures being most
 * of its bytes and compressing no better at 4 than at 1) uses `HOT_ROUTE_BROTLI_QUALITY`
 * (docs/performance.md, "Compression of the hot answers").
 */
import { constants } from 'node:zlib';

export const DEFAULT_BROTLI_QUALITY = 4;
export const HOT_ROUTE_BROTLI_QUALITY = 1;

/** @fastify/compress's options, for the app (`app.register`) or one route (its `compress` option, which replaces them whole). */
export function compressionOptions(brotliQuality: number = DEFAULT_BROTLI_QUALITY) {
  return {
    encodings: ['br', 'gzip'] as Array<'br' | 'gzip'>,
    threshold: 1024,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality } },
    zlibOptions: { level: 6 },
  };
}
