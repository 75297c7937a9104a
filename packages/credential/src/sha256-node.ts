/**
 * SHA-256 in Node (the API, the command-line verifier, scripts): OpenSSL's through node:crypto's
 * one-shot `hash`, about a third of the time of the JavaScript one on a field's ~100 bytes and a
 * third on a targetHash's ~850 (ADR 0153, third pass). Browsers get sha256.ts (package.json
 * "imports", `#sha256`).
 */
import { hash } from 'node:crypto';

/** SHA-256 of `data`, 32 bytes (a plain Uint8Array over the digest's memory, as the browser's). */
export function sha256(data: Uint8Array): Uint8Array {
  const digest = hash('sha256', data, 'buffer');
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
}
