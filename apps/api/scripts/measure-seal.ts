// What the seal recorded at issuance (ADR 0154) saves a cold verification by id, in one process,
// without HTTP or database: CPU time of the engine's verification by id and the public
// credential's text, for the full check (hash every field, the targetHash, the Merkle path, then
// reduce to the public credential) and for a sealed row (check the seal's HMAC, parse the text,
// take the stated hashes, answer the stored public credential); and the cost of sealing one
// diploma at issuance (the full check, the public credential, the HMAC).
//   npx tsx apps/api/scripts/measure-seal.ts [--diplomas 10000] [--rounds 5]
// The batch's tree is as deep as the platform's batches of 10,000 (a 14-level Merkle path).
import { formatSerial, publicCredential, signBatch, wrapBatch, type CredentialDocument } from '@sceau/credential';
import { createMinistryKeys, issuerFor, testRecords } from '@sceau/verifier/test-support';
import { verify, type RegistryPort, type VerificationContext } from '@sceau/verifier';
import { readSeal, sealCredential, sealKey } from '../src/modules/verification/verification-seal.ts';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { diplomas: { type: 'string' }, rounds: { type: 'string' } } });
const count = Number(values.diplomas ?? 10_000);
const rounds = Number(values.rounds ?? 5);

const registryRef = { chainId: 31337, address: '0x5fbdb2315678afecb367f032d93f642f64180aa3' };
const issuer = issuerFor(registryRef);
const ministry = await createMinistryKeys();
const records = testRecords(issuer.id, count).map((r, i) => ({ ...r, candidate_code: `32011804${String(i).padStart(6, '0')}`, serial: formatSerial('DE', 2025, i + 1) }));
const batch = await signBatch(wrapBatch(records, { issuer }), ministry.es256);
// The credential as PostgreSQL gives it back (`credential::text`): jsonb's own key order.
const texts = batch.documents.map((doc) => JSON.stringify(doc));
const ids = batch.documents.map((doc) => doc.record.diploma_id!);
const key = sealKey(randomBytes(32));

// A chain that has the root and no revocation: the same for both paths.
const issuance = { txHash: `0x${'ab'.repeat(32)}`, blockNumber: 12, timestamp: Math.floor(Date.now() / 1000) - 86_400 };
const registry: RegistryPort = { ...registryRef, isIssued: async () => true, isRevoked: async () => false, findIssuance: async () => issuance };
const base: VerificationContext = {
  jwks: async () => ministry.jwks,
  registry,
  issuer: { id: issuer.id, name: issuer.name, jwksUrl: issuer.jwks_url, registry: registryRef },
};

// Sealing at issuance: the full check, the public credential, the HMAC.
const sealed = texts.map((text, i) => {
  const s = sealCredential(key, ids[i]!, text);
  if ('problem' in s) throw new Error(s.problem);
  return s;
});

async function full(i: number): Promise<string> {
  const credential = JSON.parse(texts[i]!) as CredentialDocument;
  let hashes: ReadonlyMap<never, Uint8Array> | undefined;
  const result = await verify(
    { diplomaId: ids[i]! },
    { ...base, findCredential: async () => credential, credentialChecked: (_c, checked) => (hashes = checked.fieldHashes as never) },
  );
  if (result.verdict !== 'authentic') throw new Error(result.verdict);
  return JSON.stringify(publicCredential(credential, hashes));
}

async function withSeal(i: number): Promise<string> {
  const state = readSeal(key, sealed[i]!.seal, ids[i]!, texts[i]!, sealed[i]!.publicCredential);
  const credential = JSON.parse(texts[i]!) as CredentialDocument;
  const result = await verify({ diplomaId: ids[i]! }, { ...base, findCredential: async () => credential, attested: (c) => state === 'valid' && c === credential });
  if (result.verdict !== 'authentic') throw new Error(result.verdict);
  return sealed[i]!.publicCredential;
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

async function run(one: (i: number) => Promise<string>): Promise<number> {
  const start = cpuMs();
  for (let i = 0; i < count; i++) await one(i);
  return (cpuMs() - start) / count;
}

// Same answers both ways.
for (let i = 0; i < 20; i++) if ((await full(i)) !== (await withSeal(i))) throw new Error(`different public credential for ${ids[i]}`);

function sealing(): number {
  const start = cpuMs();
  for (let i = 0; i < count; i++) sealCredential(key, ids[i]!, texts[i]!);
  return (cpuMs() - start) / count;
}
const sealMs = sealing();

console.log(
  `${count} diplomas (credential text ${Math.round(texts.reduce((n, t) => n + t.length, 0) / count)} B, public ${Math.round(sealed.reduce((n, s) => n + s.publicCredential.length, 0) / count)} B), load average ${loadavg()[0]!.toFixed(2)}`,
);
console.log(`sealing at issuance (full check + public credential + HMAC): ${(sealMs * 1000).toFixed(1)} µs per diploma (cold)`);
for (let r = 1; r <= rounds; r++) {
  const a = await run(full);
  const b = await run(withSeal);
  console.log(
    `round ${r}: full check ${(a * 1000).toFixed(1)} µs, sealed ${(b * 1000).toFixed(1)} µs per verification by id (${((1 - b / a) * 100).toFixed(0)} % less), load ${loadavg()[0]!.toFixed(2)}`,
  );
}
console.log(`sealing at issuance, warm: ${(sealing() * 1000).toFixed(1)} µs per diploma, load ${loadavg()[0]!.toFixed(2)}`);
