/**
 * Prints how long the credential steps take: `npm run bench -w packages/credential [-- --count N]`.
 * Not a test: figures for the design (architecture section 6), medians where repeated.
 */
import { createPrivateKey } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { TEST_ISSUER, TEST_ONLY_PRIVATE_JWK, TEST_RECORDS } from '../scripts/test-data.ts';
import { toBase64url, u32be } from '../src/bytes.ts';
import { verifyDocument, wrapBatch } from '../src/document.ts';
import { createSoftwareSigner, toPublicJwk } from '../src/keys.ts';
import { buildMerkleTree } from '../src/merkle.ts';
import { createNodeSigner } from '../src/node-signer.ts';
import { encodeQrPayload, qrFieldsFromRecord, verifyQrPayload } from '../src/qr.ts';
import { parseDiplomaRecord } from '../src/record.ts';

const countArg = process.argv.indexOf('--count');
const count = countArg > 0 ? Number(process.argv[countArg + 1]) : 100_000;

function time<T>(label: string, n: number, fn: () => T): T {
  const t0 = performance.now();
  const out = fn();
  const ms = performance.now() - t0;
  console.log(`${label.padEnd(46)} ${ms.toFixed(0).padStart(7)} ms total, ${((ms * 1000) / n).toFixed(1).padStart(8)} µs each`);
  return out;
}

async function timeAsync(label: string, n: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  const ms = performance.now() - t0;
  console.log(`${label.padEnd(46)} ${ms.toFixed(0).padStart(7)} ms total, ${((ms * 1000) / n).toFixed(1).padStart(8)} µs each`);
}

console.log(`node ${process.version}, ${count.toLocaleString('en')} diplomas`);

const leaves = Array.from({ length: count }, (_, i) => sha256(u32be(i)));
const tree = time(`Merkle tree, ${count} leaves`, count, () => buildMerkleTree(leaves));
time(`Merkle proofs, all ${count}`, count, () => {
  for (let i = 0; i < leaves.length; i++) tree.proof(i);
});

const records = Array.from({ length: count }, (_, i) => {
  const id = new Uint8Array(16);
  id.set(u32be(i));
  return { ...TEST_RECORDS[i % TEST_RECORDS.length]!, diploma_id: toBase64url(id) };
});
const batch = time(`wrapBatch (validate, salt, hash, tree, proofs)`, count, () => wrapBatch(records, { issuer: TEST_ISSUER }));
const sample = batch.documents.slice(0, 2000);
time('verifyDocument', sample.length, () => {
  for (const d of sample) verifyDocument(d);
});
const json = JSON.stringify(batch.documents[0]);
console.log(`credential JSON: ${json.length} bytes`);

const fields = qrFieldsFromRecord(parseDiplomaRecord(TEST_RECORDS[0]), batch.documents[0]!.signature.targetHash);
const jwks = { keys: [toPublicJwk(TEST_ONLY_PRIVATE_JWK)] };
const soft = createSoftwareSigner(TEST_ONLY_PRIVATE_JWK);
const node = createNodeSigner(createPrivateKey({ key: TEST_ONLY_PRIVATE_JWK as never, format: 'jwk' }));
await encodeQrPayload(fields, soft); // warm up
const n = 500;
await timeAsync('QR encode + sign, software signer (@noble)', n, () => encodeQrPayload(fields, soft));
await timeAsync('QR encode + sign, node:crypto signer', n, () => encodeQrPayload(fields, node));
const qr = await encodeQrPayload(fields, node);
time('QR decode + verify (@noble)', n, () => {
  for (let i = 0; i < n; i++) if (verifyQrPayload(qr.text, jwks).status !== 'valid') throw new Error('invalid');
});
console.log(`QR payload: ${qr.bytes.length} bytes before base45, ${qr.text.length} characters`);
