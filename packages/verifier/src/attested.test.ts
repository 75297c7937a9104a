// A credential its caller vouches for (ADR 0154: the API's seal recorded at issuance) is not hashed
// again, and nothing else is taken on trust: the root's signature, the issuer, the link's id, the
// anchoring and the revocations are checked as for any other. (A retired key's signature after its
// retirement: retired-keys.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CredentialDocument, IssuerInfo } from '@sceau/credential';
import { apiContext, createMinistryKeys, issueBatch, issuerFor, startTestChain, type Batch, type MinistryKeys, type TestChain } from './test-support.ts';
import type { Check, CheckName, VerificationContext, VerificationResult } from './types.ts';
import { verify } from './verify.ts';

let chain: TestChain;
let ministry: MinistryKeys;
let other: MinistryKeys;
let issuer: IssuerInfo;
let batch: Batch;
const credentials = new Map<string, CredentialDocument>();
/** What the engine asked `attested` about. */
const asked: unknown[] = [];
let context: VerificationContext;

beforeAll(async () => {
  [chain, ministry, other] = await Promise.all([startTestChain(), createMinistryKeys(), createMinistryKeys()]);
  issuer = issuerFor({ chainId: chain.chain.chainId, address: chain.registry.address });
  batch = await issueBatch(issuer, ministry.es256, 3);
  await chain.registry.issueRoot(`0x${batch.merkleRoot}`);
  for (const doc of batch.documents) credentials.set(doc.record.diploma_id!, doc);
  context = apiContext(issuer, ministry.jwks, chain.port, credentials, {
    attested: (credential) => {
      asked.push(credential);
      return true;
    },
  });
}, 120_000);

afterAll(async () => {
  await chain?.stop();
});

const byName = (result: VerificationResult) => Object.fromEntries(result.checks.map((c) => [c.name, c])) as Record<CheckName, Check>;
const idOf = (doc: CredentialDocument) => doc.record.diploma_id!;

/** A changed copy of a document, given by `findCredential` for its id under the attested context. */
function attestedCopy(doc: CredentialDocument, change: (copy: CredentialDocument) => void): VerificationContext {
  const copy = structuredClone(doc);
  change(copy);
  return { ...context, findCredential: async (id) => (id === idOf(doc) ? copy : (credentials.get(id) ?? null)) };
}

describe('a credential the caller vouches for', () => {
  it('is not hashed again: a value changed under the attestation still reads as intact (what the seal guards), authentic', async () => {
    const doc = batch.documents[0]!;
    const changed = attestedCopy(doc, (copy) => {
      copy.record.last_name = 'Autre';
    });
    const result = await verify({ diplomaId: idOf(doc) }, changed);
    expect(byName(result).integrity).toMatchObject({ status: 'passed', code: 'hashes_match', details: { targetHash: doc.signature.targetHash, merkleRoot: batch.merkleRoot } });
    expect(result.verdict).toBe('authentic');
    // The same credential without the attestation: hashed, refused.
    const { attested: _, ...plain } = changed;
    const full = await verify({ diplomaId: idOf(doc) }, plain);
    expect(byName(full).integrity).toMatchObject({ status: 'failed', code: 'target_hash_mismatch' });
  });

  it('is asked about only for what findCredential gave: an uploaded credential is always hashed', async () => {
    asked.length = 0;
    const doc = structuredClone(batch.documents[1]!);
    doc.record.last_name = 'Autre';
    const uploaded = await verify({ credential: doc }, context);
    expect(asked).toEqual([]);
    expect(byName(uploaded).integrity).toMatchObject({ status: 'failed', code: 'target_hash_mismatch' });
  });

  it('a malformed one is still refused by the structural check', async () => {
    const doc = batch.documents[0]!;
    const result = await verify(
      { diplomaId: idOf(doc) },
      attestedCopy(doc, (copy) => {
        copy.obfuscated = ['00'.repeat(32)];
      }),
    );
    expect(byName(result).integrity).toMatchObject({ status: 'failed', code: 'malformed_credential' });
    expect(result.verdict).not.toBe('authentic');
  });

  it('a bad root signature fails', async () => {
    const doc = batch.documents[0]!;
    const forged = attestedCopy(doc, (copy) => {
      const value = Buffer.from(copy.signature.issuerSignature!.value, 'base64url');
      value[10]! ^= 1;
      copy.signature.issuerSignature!.value = value.toString('base64url');
    });
    const result = await verify({ diplomaId: idOf(doc) }, forged);
    expect(byName(result).issuer_signature).toMatchObject({ status: 'failed', code: 'bad_signature' });
    expect(result.verdict).not.toBe('authentic');
  });

  it("a root signed by a key that is not the ministry's fails", async () => {
    const stranger = await issueBatch(issuer, other.es256, 1);
    await chain.registry.issueRoot(`0x${stranger.merkleRoot}`);
    const doc = stranger.documents[0]!;
    const result = await verify({ diplomaId: idOf(doc) }, { ...context, findCredential: async (id) => (id === idOf(doc) ? doc : null) });
    expect(byName(result).issuer_signature).toMatchObject({ status: 'failed', code: 'unknown_key' });
    expect(result.verdict).not.toBe('authentic');
  });

  it("a link whose id is not the credential's fails", async () => {
    const [first, second] = batch.documents;
    const swapped = { ...context, findCredential: async (id: string) => (id === idOf(first!) ? second! : null) };
    const result = await verify({ diplomaId: idOf(first!) }, swapped);
    expect(byName(result).integrity).toMatchObject({ status: 'failed', code: 'qr_credential_mismatch', details: { fields: ['link.diploma_id'] } });
    expect(result.verdict).not.toBe('authentic');
  });

  it('a root never anchored is unknown, and unpublished when the caller says so', async () => {
    const pending = await issueBatch(issuer, ministry.es256, 1);
    const doc = pending.documents[0]!;
    const found = { ...context, findCredential: async (id: string) => (id === idOf(doc) ? doc : null) };
    expect(byName(await verify({ diplomaId: idOf(doc) }, found)).anchored).toMatchObject({ status: 'failed', code: 'root_not_issued' });
    const unpublished = await verify({ diplomaId: idOf(doc) }, { ...found, knownUnpublished: () => true });
    expect(unpublished.verdict).toBe('unpublished');
  });

  it('a revoked hash, and a revoked root, are revoked', async () => {
    const revocable = await issueBatch(issuer, ministry.es256, 2);
    await chain.registry.issueRoot(`0x${revocable.merkleRoot}`);
    const found = { ...context, findCredential: async (id: string) => revocable.documents.find((d) => idOf(d) === id) ?? null };
    await chain.registry.revoke(`0x${revocable.documents[0]!.signature.targetHash}`, 'fraude constatée');
    const one = await verify({ diplomaId: idOf(revocable.documents[0]!) }, found);
    expect(byName(one).not_revoked).toMatchObject({ status: 'failed', code: 'diploma_revoked' });
    expect(one.verdict).toBe('revoked');
    expect((await verify({ diplomaId: idOf(revocable.documents[1]!) }, found)).verdict).toBe('authentic');
    await chain.registry.revoke(`0x${revocable.merkleRoot}`, 'lot annulé');
    const whole = await verify({ diplomaId: idOf(revocable.documents[1]!) }, found);
    expect(byName(whole).not_revoked).toMatchObject({ status: 'failed', code: 'batch_revoked' });
    expect(whole.verdict).toBe('revoked');
  });
});
