/**
 * SHA-256 in browsers (the web app, the portable verifier page): noble's, in JavaScript. Node
 * resolves `#sha256` to sha256-node.ts instead (package.json "imports", condition `node`); both
 * give the same 32 bytes for the same input (vectors.test.ts, sha256.test.ts).
 */
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';

/** SHA-256 of `data`, 32 bytes. */
export function sha256(data: Uint8Array): Uint8Array {
  return nobleSha256(data);
}
