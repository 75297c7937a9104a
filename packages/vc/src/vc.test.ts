/// <reference path="./digitalbazaar.d.ts" />
import * as vc from '@digitalbazaar/vc';
import { checkStatus } from '@digitalbazaar/vc-bitstring-status-list';
import { describe, expect, it } from 'vitest';
import { buildOpenBadgeCredential } from './open-badge.ts';
import { secureCredential, verificationSuite } from './sign.ts';
import { buildStatusListCredential, encodeBitstring } from './status-list.ts';
import { diplomaInput, testIssuer } from './test-support.ts';
import { verifyOpenBadgeCredential } from './verify.ts';

const STATUS_URL = 'https://diplomes.example.cd/credentials/status/0';

async function setup(revoked: number[] = []) {
  const issuer = await testIssuer();
  const bare = issuer.loader();
  const statusList = await secureCredential(
    buildStatusListCredential({ id: STATUS_URL, issuer: issuer.did, validFrom: new Date('2026-07-01T00:00:00Z'), encodedList: encodeBitstring(revoked) }),
    { signer: issuer.signer(), documentLoader: bare },
  );
  const loader = issuer.loader(async (url) => (url === STATUS_URL ? statusList : null));
  const credential = await secureCredential(buildOpenBadgeCredential(diplomaInput(issuer.did)), { signer: issuer.signer(), documentLoader: loader });
  return { issuer, loader, statusList, credential };
}

describe('OpenBadgeCredential with ecdsa-rdfc-2019', () => {
  it('verifies with Digital Bazaar’s verifyCredential (local contexts, no network)', async () => {
    const { credential, loader } = await setup();
    expect(credential.type).toEqual(['VerifiableCredential', 'OpenBadgeCredential']);
    expect(credential.proof).toMatchObject({ type: 'DataIntegrityProof', cryptosuite: 'ecdsa-rdfc-2019', proofPurpose: 'assertionMethod' });
    const result = await vc.verifyCredential({ credential, suite: verificationSuite(), documentLoader: loader, checkStatus: async () => ({ verified: true }) });
    expect(result.error).toBeUndefined();
    expect(result.verified).toBe(true);
  });

  it('a changed field fails, with Digital Bazaar’s verifier and ours', async () => {
    const { credential, loader, issuer } = await setup();
    const changed = structuredClone(credential) as typeof credential & { credentialSubject: { result: Array<{ value: string }> } };
    changed.credentialSubject.result[0]!.value = '98.4';
    const result = await vc.verifyCredential({ credential: changed, suite: verificationSuite(), documentLoader: loader, checkStatus: async () => ({ verified: true }) });
    expect(result.verified).toBe(false);
    const ours = await verifyOpenBadgeCredential(changed, { documentLoader: loader, trust: { issuers: [issuer.did] } });
    expect(ours.verified).toBe(false);
    expect(ours.checks.proof).toMatchObject({ status: 'failed', reason: 'bad-signature' });
  });

  it('our verification names every check: all ok for a live credential', async () => {
    const { credential, loader, issuer } = await setup();
    const result = await verifyOpenBadgeCredential(credential, { documentLoader: loader, trust: { issuers: [issuer.did] } });
    expect(result.checks).toEqual({ proof: { status: 'ok' }, issuer: { status: 'ok' }, status: { status: 'ok' }, expiry: { status: 'ok' } });
    expect(result).toMatchObject({ verified: true, revoked: false, issuer: issuer.did, verificationMethod: `${issuer.did}#key-1` });
  });

  it('a revoked credential’s bit is set: the verification says revoked', async () => {
    const { credential, loader, issuer } = await setup([3, 7, 131_071]);
    const result = await verifyOpenBadgeCredential(credential, { documentLoader: loader, trust: { issuers: [issuer.did] } });
    expect(result.verified).toBe(false);
    expect(result.revoked).toBe(true);
    expect(result.checks.status).toMatchObject({ status: 'failed', reason: 'revoked' });
    expect(result.checks.proof.status).toBe('ok');
    // Digital Bazaar's Bitstring Status List reader (its own decoding, the list's proof and issuer checked) reads the same bit.
    const theirs = await checkStatus({ credential, documentLoader: loader, suite: verificationSuite() });
    expect(theirs).toMatchObject({ verified: true, results: [{ status: true }] });
    const live = await setup([3, 6, 8]);
    expect(await checkStatus({ credential: live.credential, documentLoader: live.loader, suite: verificationSuite() })).toMatchObject({
      verified: true,
      results: [{ status: false }],
    });
  });

  it('another issuer is not trusted; a tampered status list is not believed', async () => {
    const { credential, loader, statusList } = await setup();
    const untrusted = await verifyOpenBadgeCredential(credential, { documentLoader: loader, trust: { issuers: ['did:web:elsewhere.example'] } });
    expect(untrusted.checks.issuer).toMatchObject({ status: 'failed', reason: 'untrusted-issuer' });
    // The list's bits changed after signing (e.g. a revocation hidden by a cache in between).
    const forged = structuredClone(statusList) as typeof statusList & { credentialSubject: { encodedList: string } };
    forged.credentialSubject.encodedList = encodeBitstring([1]);
    const issuer = (credential.issuer as { id: string }).id;
    const result = await verifyOpenBadgeCredential(credential, {
      documentLoader: async (url) => (url === STATUS_URL ? { contextUrl: null, documentUrl: url, document: forged } : loader(url)),
      trust: { issuers: [issuer] },
    });
    expect(result.checks.status).toMatchObject({ status: 'unknown', reason: 'unresolved' });
    expect(result.verified).toBe(false);
  });

  it('a full issuer Profile (phone, emblem, description) and no result still canonicalise (safe mode) and verify', async () => {
    const issuer = await testIssuer();
    const loader = issuer.loader(async () => null);
    const input = diplomaInput(issuer.did, {
      issuer: {
        id: issuer.did,
        name: 'Ministère',
        url: 'https://diplomes.example.cd',
        email: 'a@b.cd',
        phone: '+243 81 000 0000',
        image: 'https://diplomes.example.cd/emblem.png',
        description: 'Ministry',
      },
      percentage: null,
    });
    const credential = await secureCredential(buildOpenBadgeCredential(input), { signer: issuer.signer(), documentLoader: loader });
    expect(credential).toMatchObject({ issuer: { phone: '+243 81 000 0000', image: { id: 'https://diplomes.example.cd/emblem.png', type: 'Image' } } });
    expect(credential.credentialSubject).not.toHaveProperty('result');
    const result = await vc.verifyCredential({ credential, suite: verificationSuite(), documentLoader: loader, checkStatus: async () => ({ verified: true }) });
    expect(result.verified).toBe(true);
  });

  it('a status list signed a moment after the verifier read its clock (the platform signs it when asked) is read; one from tomorrow is not', async () => {
    const issuer = await testIssuer();
    const now = new Date('2026-11-27T13:00:00.900Z');
    const signedList = async (validFrom: Date) =>
      secureCredential(buildStatusListCredential({ id: STATUS_URL, issuer: issuer.did, validFrom, encodedList: encodeBitstring([]) }), {
        signer: issuer.signer(),
        documentLoader: issuer.loader(),
      });
    const verifyWith = async (list: Awaited<ReturnType<typeof signedList>>) => {
      const loader = issuer.loader(async (url) => (url === STATUS_URL ? list : null));
      const credential = await secureCredential(buildOpenBadgeCredential(diplomaInput(issuer.did)), { signer: issuer.signer(), documentLoader: loader });
      return verifyOpenBadgeCredential(credential, { documentLoader: loader, trust: { issuers: [issuer.did] }, now });
    };
    // Signed at 13:00:01.1, its validFrom to the second: 13:00:01, after the verifier's 13:00:00.9.
    expect((await verifyWith(await signedList(new Date('2026-11-27T13:00:01Z')))).checks.status).toEqual({ status: 'ok' });
    expect((await verifyWith(await signedList(new Date('2026-11-28T13:00:00Z')))).checks.status).toMatchObject({
      status: 'unknown',
      detail: 'the status list is out of its validity period',
    });
  });

  it('expiry: not before validFrom, not after validUntil', async () => {
    const { credential, loader } = await setup();
    const early = await verifyOpenBadgeCredential(credential, { documentLoader: loader, now: new Date('2026-07-14T00:00:00Z') });
    expect(early.checks.expiry).toMatchObject({ status: 'failed', reason: 'not-yet-valid' });
    const base = await testIssuer();
    const limited = await secureCredential(
      { ...buildOpenBadgeCredential(diplomaInput(base.did)), validUntil: '2027-01-01T00:00:00Z' },
      { signer: base.signer(), documentLoader: base.loader(), date: new Date('2026-07-15T10:00:00Z') },
    );
    const late = await verifyOpenBadgeCredential(limited, { documentLoader: base.loader(), now: new Date('2027-02-01T00:00:00Z') });
    expect(late.checks.expiry).toMatchObject({ status: 'failed', reason: 'expired' });
    expect(late.checks.proof.status).toBe('ok');
    expect(late.verified).toBe(false);
  });

  it('the status list credential’s proof verifies with Digital Bazaar’s verifier', async () => {
    const { statusList, loader } = await setup([5]);
    expect(statusList.type).toEqual(['VerifiableCredential', 'BitstringStatusListCredential']);
    const result = await vc.verifyCredential({ credential: statusList, suite: verificationSuite(), documentLoader: loader });
    expect(result.error).toBeUndefined();
    expect(result.verified).toBe(true);
  });

  it('refuses what is not a credential, and an oversized one, before any processing', async () => {
    const { loader } = await setup();
    expect((await verifyOpenBadgeCredential('nope', { documentLoader: loader })).checks.proof.reason).toBe('malformed');
    const huge = { type: ['VerifiableCredential'], padding: 'x'.repeat(300 * 1024) };
    expect((await verifyOpenBadgeCredential(huge, { documentLoader: loader })).checks.proof.detail).toMatch(/larger than/);
  });
});
