/// <reference path="../../../../../packages/vc/src/digitalbazaar.d.ts" />
import * as dbVc from '@digitalbazaar/vc';
import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import {
  bitstringEntry,
  createDocumentLoader,
  didWebDocumentUrl,
  tokenStatusListEntry,
  verificationSuite,
  verifyOpenBadgeCredential,
  type DidDocument,
  type DocumentLoader,
} from '@sceau/vc';
import { eq } from 'drizzle-orm';
import { compactVerify, decodeProtectedHeader, importJWK } from 'jose';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { buildApp, type App } from '../../app.ts';
import { diplomas, generations } from '../../db/schema.ts';
import { createServices } from '../../services.ts';
import type { DiplomaFixture } from '../candidate-check/public-diploma-fixtures.ts';
import { heldBy, holderAccount, issuedDiplomas } from '../holder/holder-test-support.ts';
import { CredentialStatusService } from '../credential-status/credential-status-service.ts';
import { loadMinistryKeys, rotateDevelopmentKey, type MinistryKeys } from '../keys/ministry-keys.ts';
import { VcService } from './vc-service.ts';

const PUBLIC_URL = 'https://diplomes.example.cd';
const DID = 'did:web:diplomes.example.cd';
const PHONE = '+243812340077';

let ctx: TestContext;
let app: App;
let keysDir: string;
let keys: MinistryKeys;
let status: CredentialStatusService;
let vc: VcService;
let mine: DiplomaFixture;
let second: DiplomaFixture;
let inRevokedBatch: DiplomaFixture;
let others: DiplomaFixture;
let holder: string;

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
const asHolder = () => ({ authorization: `Bearer ${holder}` });

/** What a verifier outside the platform has: the contexts shipped in @sceau/vc, and what the platform serves over HTTP. */
async function outsideLoader(): Promise<DocumentLoader> {
  const didDocument = (await get('/.well-known/did.json')).json() as DidDocument;
  return createDocumentLoader({
    didDocuments: [didDocument],
    resolve: async (url) => {
      if (!url.startsWith(`${PUBLIC_URL}/credentials/status/`)) return null;
      const res = await get(url.slice(PUBLIC_URL.length));
      return res.statusCode === 200 ? res.json() : null;
    },
  });
}

beforeAll(async () => {
  ctx = await createTestApp({ PUBLIC_URL });
  keysDir = await mkdtemp(path.join(os.tmpdir(), 'sceau-vc-keys-'));
  keys = await loadMinistryKeys({ ...ctx.config.keys, dir: keysDir }, pino({ level: 'silent' }));
  // Re-read the database at every request: the tests revoke and look at once.
  status = new CredentialStatusService(ctx.db, PUBLIC_URL, keys, { recheckMs: 0 });
  vc = new VcService(ctx.db, ctx.config, keys, status);
  const base = createServices(ctx.db, ctx.config);
  app = await buildApp({ db: ctx.db, config: ctx.config, services: { ...base, credentialStatus: status, vc } });
  await app.ready();
  [mine, second, inRevokedBatch, others] = await issuedDiplomas(ctx.db, base.storage, ['valid', 'valid', 'valid', 'valid'], { numbered: true });
  await heldBy(ctx.db, [mine, second], { phone: PHONE });
  holder = await holderAccount(ctx, 'Grâce', { phone: PHONE });
}, 120_000);
afterAll(async () => {
  await app?.close();
  keys?.close();
  await ctx?.close();
  if (keysDir) await rm(keysDir, { recursive: true, force: true });
});

describe("a diploma's Open Badges 3.0 credential", () => {
  it('is downloaded by its holder only (private, no-store), and verifies with Digital Bazaar’s verifier on what the platform publishes', async () => {
    expect((await get(`/api/holder/diplomas/${mine.id}/vc`)).statusCode).toBe(401);
    const res = await get(`/api/holder/diplomas/${mine.id}/vc`, asHolder());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/vc\+ld\+json/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['content-disposition']).toContain('.vc.json');
    const credential = res.json();
    expect(credential).toMatchObject({
      '@context': ['https://www.w3.org/ns/credentials/v2', 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json'],
      id: `${PUBLIC_URL}/verify/${mine.id}`,
      type: ['VerifiableCredential', 'OpenBadgeCredential'],
      issuer: { id: DID, type: ['Profile'] },
      credentialSubject: {
        type: ['AchievementSubject'],
        name: 'MUKENDI KABONGO Grâce',
        identifier: [
          { type: 'IdentityObject', identityHash: '12345678901230', identityType: 'identifier', hashed: false },
          { type: 'IdentityObject', identityHash: 'MUKENDI KABONGO Grâce', identityType: 'name', hashed: false },
        ],
        achievement: { type: ['Achievement'], achievementType: 'Diploma', fieldOfStudy: 'Scientifique', criteria: { narrative: expect.stringContaining('Juin 2026') } },
        result: [{ type: ['Result'], value: '71.5' }],
      },
      credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListCredential: `${PUBLIC_URL}/credentials/status/0` },
      // A set of one proof: the form the 1EdTech Open Badges 3.0 JSON Schema requires.
      proof: [{ type: 'DataIntegrityProof', cryptosuite: 'ecdsa-rdfc-2019', verificationMethod: `${DID}#${keys.active.kid}` }],
    });

    const loader = await outsideLoader();
    const result = await dbVc.verifyCredential({
      credential,
      suite: verificationSuite(),
      documentLoader: loader,
      checkStatus: async () => ({ verified: (await verifyOpenBadgeCredential(credential, { documentLoader: loader })).checks.status.status === 'ok' }),
    });
    expect(result.error).toBeUndefined();
    expect(result.verified).toBe(true);
    expect(await vc.verify(credential)).toMatchObject({ verified: true, revoked: false, issuer: DID });

    // A changed field: the proof no longer holds.
    const changed = structuredClone(credential);
    changed.credentialSubject.name = 'MUKENDI KABONGO Gracia';
    expect((await dbVc.verifyCredential({ credential: changed, suite: verificationSuite(), documentLoader: loader, checkStatus: async () => ({ verified: true }) })).verified).toBe(
      false,
    );
    expect((await vc.verify(changed)).checks.proof).toMatchObject({ status: 'failed', reason: 'bad-signature' });
  });

  it("is refused for another person's diploma", async () => {
    expect((await get(`/api/holder/diplomas/${others.id}/vc`, asHolder())).statusCode).toBe(404);
  });

  it('the DID document (at /.well-known/did.json) resolves the proof’s verification method to the active key of the JWKS', async () => {
    const didDocument = (await get('/.well-known/did.json')).json() as DidDocument;
    expect(didDocument.id).toBe(DID);
    // The same keys as the JWKS the platform publishes (/.well-known/jwks.json).
    expect(didDocument.verificationMethod.map((m) => m.id)).toEqual(keys.jwks().keys.map((k) => `${DID}#${k.kid}`));
    const credential = (await vc.issue(mine.id)) as { proof: { verificationMethod: string }[] };
    const method = (await (await outsideLoader())(credential.proof[0]!.verificationMethod)).document as { type: string; controller: string; publicKeyMultibase: string };
    expect(method).toMatchObject({ type: 'Multikey', controller: DID });
    const EcdsaMultikey = await import('@digitalbazaar/ecdsa-multikey');
    const jwk = await EcdsaMultikey.toJwk({ keyPair: await EcdsaMultikey.from(method) });
    expect({ x: jwk.x, y: jwk.y }).toEqual({ x: keys.active.publicJwk.x, y: keys.active.publicJwk.y });
  });

  it('the issuer Profile is published as JSON-LD', async () => {
    const res = await get('/credentials/issuer');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/ld\+json/);
    expect(res.json()).toMatchObject({ id: DID, type: ['Profile'], name: ctx.config.issuer.name });
  });
});

describe('the status lists', () => {
  const tokenBit = async (index: number) => {
    const res = await get('/credentials/status/0/token');
    expect(res.headers['content-type']).toMatch(/^application\/statuslist\+jwt/);
    const header = decodeProtectedHeader(res.body);
    expect(header).toMatchObject({ typ: 'statuslist+jwt', alg: 'ES256', kid: keys.active.kid });
    const jwk = keys.jwks().keys.find((k) => k.kid === header.kid)!;
    const { payload } = await compactVerify(res.body, await importJWK({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, 'ES256'));
    const claims = JSON.parse(new TextDecoder().decode(payload));
    expect(claims.sub).toBe(`${PUBLIC_URL}/credentials/status/0/token`);
    const ours = tokenStatusListEntry(claims.status_list, index);
    // The OpenWallet Foundation's reader (what SD-JWT VC verifiers use) reads the same bit.
    expect(getListFromStatusListJWT(res.body).getStatus(index)).toBe(ours ? 1 : 0);
    return ours;
  };
  const bitstringBit = async (index: number) => {
    const list = (await get('/credentials/status/0')).json();
    return bitstringEntry(list.credentialSubject.encodedList, index);
  };

  it('entryFor gives the index, the list and both addresses; an unknown diploma is not found', async () => {
    const entry = await status.entryFor(mine.id);
    expect(entry).toEqual({ index: expect.any(Number), list: 0, bitstringUrl: `${PUBLIC_URL}/credentials/status/0`, tokenStatusUrl: `${PUBLIC_URL}/credentials/status/0/token` });
    const again = await status.entryFor(mine.id);
    expect(again).toEqual(entry);
    expect((await status.entryFor(second.id)).index).not.toBe(entry.index);
    await expect(status.entryFor('AAAAAAAAAAAAAAAAAAAAAA')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('the list credential’s proof verifies with Digital Bazaar’s verifier; public, short max-age, ETag and 304', async () => {
    const res = await get('/credentials/status/0');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const list = res.json();
    expect(list).toMatchObject({
      type: ['VerifiableCredential', 'BitstringStatusListCredential'],
      issuer: DID,
      credentialSubject: { type: 'BitstringStatusList', statusPurpose: 'revocation' },
    });
    const result = await dbVc.verifyCredential({ credential: list, suite: verificationSuite(), documentLoader: await outsideLoader() });
    expect(result.error).toBeUndefined();
    expect(result.verified).toBe(true);
    const etag = res.headers.etag as string;
    expect((await get('/credentials/status/0', { 'if-none-match': etag })).statusCode).toBe(304);
    expect((await get('/credentials/status/999999')).statusCode).toBe(404);
    expect((await get('/credentials/status/abc')).statusCode).toBe(404);
  });

  it('a revoked diploma, and a diploma of a revoked batch, have their bit set in both lists; the VC verification says revoked', async () => {
    const credential = await vc.issue(second.id);
    const batchCredential = await vc.issue(inRevokedBatch.id);
    const secondIndex = (await status.entryFor(second.id)).index;
    const batchIndex = (await status.entryFor(inRevokedBatch.id)).index;
    const mineIndex = (await status.entryFor(mine.id)).index;
    expect([await bitstringBit(secondIndex), await tokenBit(secondIndex)]).toEqual([false, false]);
    expect((await vc.verify(credential)).verified).toBe(true);

    await ctx.db.update(diplomas).set({ revokedAt: new Date(), revocationReason: 'erreur matérielle' }).where(eq(diplomas.id, second.id));
    await ctx.db.update(generations).set({ revokedAt: new Date(), revocationReason: 'fraude' }).where(eq(generations.id, inRevokedBatch.generationId));

    for (const index of [secondIndex, batchIndex]) expect([await bitstringBit(index), await tokenBit(index)]).toEqual([true, true]);
    expect([await bitstringBit(mineIndex), await tokenBit(mineIndex)]).toEqual([false, false]);
    for (const revoked of [credential, batchCredential]) {
      const outside = await verifyOpenBadgeCredential(revoked, { documentLoader: await outsideLoader(), trust: { issuers: [DID] } });
      expect(outside).toMatchObject({ verified: false, revoked: true, checks: { proof: { status: 'ok' }, status: { status: 'failed', reason: 'revoked' } } });
    }
    // The holder's download follows the diploma's rule: a revoked diploma's is refused.
    expect((await get(`/api/holder/diplomas/${second.id}/vc`, asHolder())).statusCode).toBe(409);
  });
});

describe('after a key rotation', () => {
  it('the retired key still resolves (older credentials verify); new ones name the new key', async () => {
    const older = await vc.issue(mine.id);
    const rotated = await rotateDevelopmentKey({ ...ctx.config.keys, dir: keysDir });
    const after = await loadMinistryKeys({ ...ctx.config.keys, dir: keysDir }, pino({ level: 'silent' }));
    try {
      const afterStatus = new CredentialStatusService(ctx.db, PUBLIC_URL, after, { recheckMs: 0 });
      const afterVc = new VcService(ctx.db, ctx.config, after, afterStatus);
      const didDocument = await afterVc.did!.didDocument();
      expect(didDocument.verificationMethod.map((m) => m.id)).toEqual([`${DID}#${rotated.retired}`, `${DID}#${rotated.active}`]);
      expect(didDocument.verificationMethod[0]!.expires).toBeDefined();
      expect(didDocument.verificationMethod[1]!.expires).toBeUndefined();
      const old = await afterVc.verify(older);
      expect(old.checks.proof.status).toBe('ok');
      expect(old.checks.issuer.status).toBe('ok');
      expect(old.verificationMethod).toBe(`${DID}#${rotated.retired}`);
      const fresh = (await afterVc.issue(mine.id)) as { proof: { verificationMethod: string }[] };
      expect(fresh.proof[0]!.verificationMethod).toBe(`${DID}#${rotated.active}`);
      expect((await afterVc.verify(fresh)).verified).toBe(true);
    } finally {
      after.close();
    }
  });
});

describe('the did:web document where did:web resolution looks for it', () => {
  for (const [publicUrl, did, urls] of [
    ['https://diplomes.example.cd', 'did:web:diplomes.example.cd', ['/.well-known/did.json']],
    ['http://localhost:3000', 'did:web:localhost%3A3000', ['/.well-known/did.json']],
    // Under a path: `<path>/did.json`, served for a proxy that passes the path and for one that strips it.
    ['https://minepst.gouv.cd/diplomes/', 'did:web:minepst.gouv.cd:diplomes', ['/diplomes/did.json', '/did.json']],
    ['https://minepst.gouv.cd:8443/a/b', 'did:web:minepst.gouv.cd%3A8443:a:b', ['/a/b/did.json', '/did.json']],
  ] as const) {
    it(`${publicUrl} → ${did}, served at ${urls.join(' and ')}`, async () => {
      const config = { ...ctx.config, publicUrl };
      const otherStatus = new CredentialStatusService(ctx.db, publicUrl, keys, { recheckMs: 0 });
      const otherVc = new VcService(ctx.db, config, keys, otherStatus);
      const base = createServices(ctx.db, config);
      const other = await buildApp({ db: ctx.db, config, services: { ...base, credentialStatus: otherStatus, vc: otherVc } });
      try {
        await other.ready();
        expect(otherVc.did?.did).toBe(did);
        // Where the did:web method puts the document (the rule the DCC's and the universal resolvers follow).
        const resolved = new URL(didWebDocumentUrl(did, { insecure: publicUrl.startsWith('http:') }));
        expect(resolved.pathname).toBe(urls[0]);
        for (const url of urls) {
          const res = await other.inject({ method: 'GET', url });
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-type']).toMatch(/^application\/did\+ld\+json/);
          expect(res.json().id).toBe(did);
        }
        // The credential names that DID, and verifies on the document found there.
        const credential = (await otherVc.issue(mine.id)) as { issuer: { id: string } };
        expect(credential.issuer.id).toBe(did);
        const didDocument = (await other.inject({ method: 'GET', url: urls[0] })).json() as DidDocument;
        const loader = createDocumentLoader({ didDocuments: [didDocument], resolve: async () => null });
        const checked = await verifyOpenBadgeCredential(credential, { documentLoader: loader, trust: { issuers: [did] } });
        expect(checked.checks.proof.status).toBe('ok');
        expect(checked.checks.issuer.status).toBe('ok');
      } finally {
        await other.close();
      }
    });
  }
});
