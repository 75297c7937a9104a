// CPU per stage of verifying an uploaded diploma PDF, without HTTP, database or chain: the engine
// (packages/verifier) on genuine PDFs rendered and signed here, the registry in memory. It tells
// where the upload endpoint's time goes (docs/performance.md, "Verification"); bench:verify
// measures the endpoint itself.
//
//   node --import tsx apps/api/scripts/bench-verify-engine.ts [--pdfs 40] [--rounds 20]
//
// Each stage runs over the same distinct PDFs `rounds` times; per-batch memos (the batch root's
// signature, the signer certificate's key) are warm after the first PDF, as on a server. Times are
// this process's CPU time per PDF (process.cpuUsage), which a busy machine inflates far less than
// wall time.
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { verifyDocument } from '@sceau/credential';
import { verifyPdfSignature } from '@sceau/pdf/pades';
import { CREDENTIAL_ATTACHMENT, verify, type RegistryPort } from '@sceau/verifier';
import { checkQrPayload } from '@sceau/verifier/fast-signatures';
import { qrCodesFromContents } from '@sceau/verifier/pdf-qr';
import { readDiplomaPdf } from '@sceau/verifier/pdf-reader';
import { apiContext, createMinistryKeys, createPdfFactory, issueBatch, issuerFor } from '@sceau/verifier/test-support';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const count = option('--pdfs', 40);
const rounds = option('--rounds', 20);

const registry = { chainId: 72328, address: `0x${'5'.repeat(40)}` };
const keys = await createMinistryKeys();
const issuer = issuerFor(registry);
const batch = await issueBatch(issuer, keys.es256, count);
const factory = await createPdfFactory(keys.pdfSigner);
const pdfs = await Promise.all(batch.documents.map((doc, i) => factory.render(doc, batch.qr[i]!)));
const port: RegistryPort = {
  ...registry,
  isIssued: async () => true,
  isRevoked: async () => false,
  findIssuance: async () => ({ txHash: `0x${'1'.repeat(64)}`, blockNumber: 1, timestamp: 1 }),
};
const context = apiContext(issuer, keys.jwks, port, new Map());

async function time(name: string, fn: (pdf: Uint8Array, i: number) => unknown): Promise<number> {
  for (let i = 0; i < pdfs.length; i++) await fn(pdfs[i]!, i); // warm-up
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let r = 0; r < rounds; r++) for (let i = 0; i < pdfs.length; i++) await fn(pdfs[i]!, i);
  const used = process.cpuUsage(cpu);
  const n = rounds * pdfs.length;
  // CPU time is what counts on a shared machine (wall time includes waiting for a core).
  const ms = (used.user + used.system) / 1000 / n;
  console.log(`${ms.toFixed(3).padStart(8)} ms CPU  (${((performance.now() - started) / n).toFixed(3)} ms wall)  ${name}`);
  return ms;
}

const parts = pdfs.map((pdf) => readDiplomaPdf(pdf, CREDENTIAL_ATTACHMENT)!);
const qrTexts = parts.map((p) => qrCodesFromContents(p.contents, { grid: true }).find((c) => c.startsWith('SC1:'))!);
const credentials = parts.map((p) => new TextDecoder().decode(p.attachment));
console.log(`${pdfs.length} distinct genuine PDFs of ${Math.round(pdfs.reduce((n, p) => n + p.length, 0) / pdfs.length / 1024)} KB, ${rounds} rounds; Node ${process.version}`);
const total = await time('verify() in full (registry in memory)', (pdf) =>
  verify({ pdf }, context).then((r) => {
    if (r.verdict !== 'authentic') throw new Error(r.verdict);
  }),
);
await time('  SHA-256 of the file (the cache key)', (pdf) => createHash('sha256').update(pdf).digest());
await time('  PAdES signature (verifyPdfSignature)', (pdf) => verifyPdfSignature(pdf));
await time('  targeted reader (attachment and page contents)', (pdf) => readDiplomaPdf(pdf, CREDENTIAL_ATTACHMENT));
await time('  QR codes from the page contents (grids)', (_, i) => qrCodesFromContents(parts[i]!.contents, { grid: true }));
await time('  QR payload signature (checkQrPayload)', (_, i) => checkQrPayload(qrTexts[i]!, keys.jwks));
await time('  credential hashes and Merkle proof (verifyDocument)', (_, i) => verifyDocument(credentials[i]!));
console.log(JSON.stringify({ verifyMs: +total.toFixed(3) }));
