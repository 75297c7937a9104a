/// <reference path="./digitalbazaar.d.ts" />
/**
 * What outside checkers say of our credential (issue 17, ADR 0144 amendment):
 * - the 1EdTech Open Badges 3.0 JSON Schema of AchievementCredential (the published artefact, kept
 *   in fixtures/ with its source), validated by Ajv (JSON Schema 2019-09, as the schema declares);
 * - the Digital Credentials Consortium's own VC stack (`@digitalcredentials/vc`, its JSON-LD
 *   processor and Data Integrity library, its Bitstring Status List reader), offline: the
 *   contexts shipped here, the issuer's DID document found where the DCC's did:web resolver says it
 *   is (its `didUrlToHttpsUrl`) among the documents the platform publishes.
 */
import { DataIntegrityProof as DccDataIntegrityProof } from '@digitalcredentials/data-integrity';
import { didUrlToHttpsUrl } from '@digitalcredentials/did-method-web';
import * as dccVc from '@digitalcredentials/vc';
import { checkStatus as dccCheckStatus } from '@digitalcredentials/vc-bitstring-status-list';
import { cryptosuite } from '@digitalbazaar/ecdsa-rdfc-2019-cryptosuite';
import { Ajv2019 } from 'ajv/dist/2019.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { CONTEXTS } from './contexts.ts';
import { buildDidDocument, didWebDocumentUrl, didWebFor } from './did-web.ts';
import schema from './fixtures/ob_v3p0_achievementcredential_schema.json' with { type: 'json' };
import profileSchema from './fixtures/ob_v3p0_profile_schema.json' with { type: 'json' };
import { buildOpenBadgeCredential, issuerProfileDocument } from './open-badge.ts';
import { secureCredential, secureOpenBadgeCredential } from './sign.ts';
import { buildStatusListCredential, encodeBitstring } from './status-list.ts';
import { diplomaInput, testIssuer } from './test-support.ts';

const ajv = new Ajv2019({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);
const errorsOf = (value: unknown) => (validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));

async function issued(overrides: Parameters<typeof diplomaInput>[1] = {}) {
  const issuer = await testIssuer();
  const credential = await secureOpenBadgeCredential(buildOpenBadgeCredential(diplomaInput(issuer.did, overrides)), {
    signer: issuer.signer(),
    documentLoader: issuer.loader(),
  });
  return { issuer, credential };
}

describe('the 1EdTech Open Badges 3.0 JSON Schema (AchievementCredential)', () => {
  it('accepts our credential as issued: with a result, without one, with a full issuer Profile', async () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2019-09/schema#');
    expect(errorsOf((await issued()).credential)).toEqual([]);
    expect(errorsOf((await issued({ percentage: null })).credential)).toEqual([]);
    const full = await issued({
      issuer: {
        id: didWebFor('https://diplomes.example.cd'),
        name: 'Ministère',
        url: 'https://diplomes.example.cd',
        email: 'contact@diplomes.example.cd',
        phone: '+243 81 000 0000',
        image: 'https://diplomes.example.cd/emblem.png',
        description: 'Ministère de l’Éducation',
      },
    });
    expect(errorsOf(full.credential)).toEqual([]);
  });

  it('names the recipient by IdentityObjects (code and name), the achievement with criteria, description and name', async () => {
    const { credential } = await issued();
    const subject = credential.credentialSubject as { type: string[]; identifier: { identityType: string }[]; achievement: Record<string, unknown> };
    expect(subject.type).toEqual(['AchievementSubject']);
    expect(subject.identifier.map((i) => i.identityType)).toEqual(['identifier', 'name']);
    expect(subject.achievement).toMatchObject({ type: ['Achievement'], criteria: { narrative: expect.any(String) }, description: expect.any(String), name: expect.any(String) });
    expect(credential.proof).toHaveLength(1);
  });

  it('flags what it requires: a proof not in an array, an achievement without criteria, no validFrom, an issuer without type', async () => {
    const { credential } = await issued();
    expect(errorsOf({ ...credential, proof: credential.proof[0] })).toContain('/proof must be array');
    const noCriteria = structuredClone(credential) as typeof credential & { credentialSubject: { achievement: { criteria?: unknown } } };
    delete noCriteria.credentialSubject.achievement.criteria;
    expect(errorsOf(noCriteria).join('\n')).toMatch(/criteria/);
    const { validFrom: _, ...undated } = credential as Record<string, unknown>;
    expect(errorsOf(undated).join('\n')).toMatch(/validFrom/);
    const untyped = structuredClone(credential) as typeof credential & { issuer: { type?: unknown } };
    delete untyped.issuer.type;
    expect(errorsOf(untyped)).not.toEqual([]);
  });
});

describe('the 1EdTech Open Badges 3.0 JSON Schema (Profile): the issuer profile served at /credentials/issuer', () => {
  it('accepts it with every field and with the least; refuses one without type', () => {
    const validateProfile = ajv.compile(profileSchema);
    const did = didWebFor('https://diplomes.example.cd');
    const full = issuerProfileDocument({
      id: did,
      name: 'Ministère',
      url: 'https://diplomes.example.cd',
      email: 'contact@diplomes.example.cd',
      phone: '+243 81 000 0000',
      image: 'https://diplomes.example.cd/emblem.png',
      description: 'Ministry',
    });
    expect(validateProfile(full)).toBe(true);
    expect(validateProfile(issuerProfileDocument({ id: did, name: 'Ministère', url: 'https://diplomes.example.cd' }))).toBe(true);
    const { type: _, ...untyped } = full;
    expect(validateProfile(untyped)).toBe(false);
  });
});

/** What the platform publishes, by address: the DID document where did:web puts it, the status list. */
async function published(publicUrl: string) {
  const issuer = await testIssuer();
  const did = didWebFor(publicUrl);
  const keys = issuer.keys;
  const didDocument = await buildDidDocument(did, keys);
  const statusUrl = `${publicUrl}/credentials/status/0`;
  const { createDocumentLoader } = await import('./document-loader.ts');
  const ours = createDocumentLoader({ didDocuments: [didDocument] });
  const { proofSigner } = await import('./sign.ts');
  const { sign } = await import('node:crypto');
  const key = keys.at(-1)!;
  const signer = proofSigner(`${did}#${key.kid}`, async (data) => new Uint8Array(sign('sha256', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' })));
  const web = new Map<string, object>([[didWebDocumentUrl(did), didDocument]]);
  return { did, didDocument, signer, ours, statusUrl, web };
}

/**
 * The DCC's side: contexts from this package (no network), a DID resolved by the DCC's did:web rule
 * to an address, and that address read from what the platform publishes; nothing else.
 */
function dccLoader(web: Map<string, object>) {
  return async (url: string) => {
    const context = CONTEXTS.get(url);
    if (context) return { contextUrl: null, documentUrl: url, document: context };
    if (url.startsWith('did:web:')) {
      const [did, fragment] = url.split('#', 2) as [string, string | undefined];
      const { baseUrl } = didUrlToHttpsUrl(did);
      const document = web.get(baseUrl) as { verificationMethod: { id: string }[] } | undefined;
      if (!document) throw new Error(`did:web document not published at ${baseUrl}`);
      const node = fragment ? document.verificationMethod.find((m) => m.id === url) : document;
      if (!node) throw new Error(`no ${url}`);
      return { contextUrl: null, documentUrl: url, document: fragment ? { '@context': 'https://w3id.org/security/multikey/v1', ...node } : document };
    }
    const document = web.get(url);
    if (document) return { contextUrl: null, documentUrl: url, document };
    throw new Error(`not published: ${url}`);
  };
}

describe('the Digital Credentials Consortium’s verifier (@digitalcredentials/vc), offline', () => {
  for (const publicUrl of ['https://diplomes.example.cd', 'https://minepst.gouv.cd:8443', 'https://minepst.gouv.cd/diplomes']) {
    it(`verifies our credential and reads its status list, the issuer's did:web resolved by the DCC's rule (${publicUrl})`, async () => {
      const { did, signer, ours, statusUrl, web } = await published(publicUrl);
      const list = await secureCredential(buildStatusListCredential({ id: statusUrl, issuer: did, validFrom: new Date(Date.now() - 60_000), encodedList: encodeBitstring([9]) }), {
        signer,
        documentLoader: ours,
      });
      web.set(statusUrl, list);
      const input = diplomaInput(did, { status: { index: 7, statusListCredential: statusUrl } });
      const credential = await secureOpenBadgeCredential(buildOpenBadgeCredential({ ...input, issuer: { ...input.issuer, url: publicUrl } }), { signer, documentLoader: ours });
      const suite = new DccDataIntegrityProof({ cryptosuite });
      const documentLoader = dccLoader(web);
      const result = await dccVc.verifyCredential({
        credential,
        suite,
        documentLoader,
        checkStatus: (options: object) => dccCheckStatus({ ...options, suite, documentLoader, verifyBitstringStatusListCredential: true, verifyMatchingIssuers: true }),
      });
      expect(result.error).toBeUndefined();
      expect(result.verified).toBe(true);
      expect(result.statusResult).toMatchObject({ verified: true });

      // Revoked: the DCC's reader sees the bit.
      const revoked = await secureOpenBadgeCredential(buildOpenBadgeCredential({ ...input, status: { index: 9, statusListCredential: statusUrl } }), {
        signer,
        documentLoader: ours,
      });
      const revokedResult = await dccVc.verifyCredential({
        credential: revoked,
        suite,
        documentLoader,
        checkStatus: (options: object) => dccCheckStatus({ ...options, suite, documentLoader, verifyBitstringStatusListCredential: true, verifyMatchingIssuers: true }),
      });
      expect(revokedResult.verified).toBe(false);
      expect(revokedResult.statusResult).toMatchObject({ verified: false });
      expect(revokedResult.results?.[0]?.verified).toBe(true);

      // A changed field: refused.
      const changed = structuredClone(credential) as typeof credential & { credentialSubject: { name: string } };
      changed.credentialSubject.name = 'Someone Else';
      expect((await dccVc.verifyCredential({ credential: changed, suite, documentLoader, checkStatus: async () => ({ verified: true }) })).verified).toBe(false);
    }, 30_000);
  }

  it('finds the DID document where our did:web rule says it is served (root, port, path), as the DCC’s resolver computes it', () => {
    for (const [publicUrl, did, url] of [
      ['https://diplomes.example.cd', 'did:web:diplomes.example.cd', 'https://diplomes.example.cd/.well-known/did.json'],
      ['https://minepst.gouv.cd:8443', 'did:web:minepst.gouv.cd%3A8443', 'https://minepst.gouv.cd:8443/.well-known/did.json'],
      ['https://minepst.gouv.cd/diplomes/', 'did:web:minepst.gouv.cd:diplomes', 'https://minepst.gouv.cd/diplomes/did.json'],
      ['https://minepst.gouv.cd:8443/a/b', 'did:web:minepst.gouv.cd%3A8443:a:b', 'https://minepst.gouv.cd:8443/a/b/did.json'],
    ] as const) {
      expect(didWebFor(publicUrl)).toBe(did);
      expect(didWebDocumentUrl(did)).toBe(url);
      expect(didUrlToHttpsUrl(did).baseUrl).toBe(url);
    }
  });
});
