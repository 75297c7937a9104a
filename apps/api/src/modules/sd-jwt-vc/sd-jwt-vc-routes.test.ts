import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DISCLOSABLE_CLAIMS, presentDiplomaSdJwt, verifyDiplomaSdJwt } from '@sceau/sd-jwt';
import { digest, ES256 } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/helpers.ts';
import { buildApp, type App } from '../../app.ts';
import { createServices } from '../../services.ts';
import type { DiplomaFixture } from '../candidate-check/public-diploma-fixtures.ts';
import { heldBy, holderAccount, issuedDiplomas } from '../holder/holder-test-support.ts';
import { CredentialStatusService } from '../credential-status/credential-status-service.ts';
import { loadMinistryKeys, type MinistryKeys } from '../keys/ministry-keys.ts';
import { SdJwtVcService } from './sd-jwt-vc-service.ts';

const PUBLIC_URL = 'https://diplomes.example.cd';
const PHONE = '+243812340001';

let ctx: TestContext;
let app: App;
let keysDir: string;
let keys: MinistryKeys;
let service: SdJwtVcService;
let mine: DiplomaFixture;
let revoked: DiplomaFixture;
let others: DiplomaFixture;
let holder: string;

beforeAll(async () => {
  ctx = await createTestApp({ PUBLIC_URL });
  keysDir = await mkdtemp(path.join(os.tmpdir(), 'sceau-sd-jwt-keys-'));
  keys = await loadMinistryKeys({ ...ctx.config.keys, dir: keysDir }, pino({ level: 'silent' }));
  const credentialStatus = new CredentialStatusService(ctx.db, PUBLIC_URL, keys);
  service = new SdJwtVcService(ctx.db, ctx.config, keys, credentialStatus);
  const base = createServices(ctx.db, ctx.config);
  app = await buildApp({ db: ctx.db, config: ctx.config, services: { ...base, credentialStatus, sdJwtVc: service } });
  await app.ready();
  [mine, revoked, others] = await issuedDiplomas(ctx.db, base.storage, ['valid', 'revoked', 'valid']);
  await heldBy(ctx.db, [mine, revoked], { phone: PHONE });
  holder = await holderAccount(ctx, 'Grâce', { phone: PHONE });
}, 120_000);
afterAll(async () => {
  await app?.close();
  keys?.close();
  await ctx?.close();
  if (keysDir) await rm(keysDir, { recursive: true, force: true });
});

const get = (url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

describe("a diploma's SD-JWT VC", () => {
  it('is downloaded by its holder only (private, no-store), and verifies against the keys of /.well-known/jwt-vc-issuer', async () => {
    const res = await get(`/api/holder/diplomas/${mine.id}/sd-jwt`, holder);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/dc\+sd-jwt/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['content-disposition']).toContain('.sd-jwt');

    const metadata = (await get('/.well-known/jwt-vc-issuer')).json();
    expect(metadata.issuer).toBe(PUBLIC_URL);
    const [header] = res.body.split('.');
    const decoded = JSON.parse(Buffer.from(header!, 'base64url').toString()) as { x5c: string[] };
    expect(decoded).toMatchObject({ typ: 'dc+sd-jwt', alg: 'ES256', kid: keys.active.kid });
    // The signing certificate for wallets that read the issuer from it (HAIP): its key is the one
    // that signed, and the chain stops before the self-signed root.
    expect(decoded.x5c.length).toBe(keys.active.certificateChainDer.length - 1);
    const leaf = new X509Certificate(Buffer.from(decoded.x5c[0]!, 'base64'));
    const { x, y } = leaf.publicKey.export({ format: 'jwk' });
    expect({ x, y }).toEqual({ x: keys.active.publicJwk.x, y: keys.active.publicJwk.y });
    for (const der of decoded.x5c) {
      const certificate = new X509Certificate(Buffer.from(der, 'base64'));
      expect(certificate.issuer === certificate.subject && certificate.checkIssued(certificate)).toBe(false);
    }
    const result = await verifyDiplomaSdJwt(res.body, { jwks: metadata.jwks, issuer: PUBLIC_URL, vcts: [`${PUBLIC_URL}/vct/diploma`] });
    expect(result.checks.filter((c) => c.name !== 'status').every((c) => c.status === 'passed')).toBe(true);
    expect(result.claims).toMatchObject({ family_name: 'MUKENDI', place_of_birth: 'Kananga', percentage: 71.5, kind: 'diplome_etat', serial: 'DE-2026-0000001-2' });
    expect(result.claims).not.toHaveProperty('candidate_code');

    // The holder hides their birth place and percentage: a verifier sees neither.
    const shown = await presentDiplomaSdJwt(res.body, ['family_name', 'given_name', 'school']);
    const seen = await verifyDiplomaSdJwt(shown, { jwks: metadata.jwks, issuer: PUBLIC_URL });
    expect(seen.claims).not.toHaveProperty('place_of_birth');
    expect(seen.claims).not.toHaveProperty('percentage');
    expect(seen.hiddenCount).toBe(DISCLOSABLE_CLAIMS.length - 3);
  });

  it('is refused to anyone else as for a diploma that does not exist, to a revoked diploma, and without a token', async () => {
    expect((await get(`/api/holder/diplomas/${others.id}/sd-jwt`, holder)).statusCode).toBe(404);
    expect((await get(`/api/holder/diplomas/${revoked.id}/sd-jwt`, holder)).statusCode).not.toBe(200);
    expect((await get(`/api/holder/diplomas/${mine.id}/sd-jwt`, await signIn(ctx, 'root@sceau.example'))).statusCode).toBe(404);
    expect((await get(`/api/holder/diplomas/${mine.id}/sd-jwt`)).statusCode).toBe(401);
  });

  it('binds the wallet key given to the service (cnf.jwk, the key members only), and refuses one carrying private key material (ADR 0146)', async () => {
    const keyPair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const wallet = keyPair.publicKey.export({ format: 'jwk' });
    const credential = await service.issue(mine.id, { holderPublicJwk: { ...wallet, kid: 'wallet-1', alg: 'ES256', use: 'sig' } as typeof wallet });
    const payload = JSON.parse(Buffer.from(credential.split('.')[1]!, 'base64url').toString());
    expect(payload.cnf.jwk).toEqual({ kty: 'EC', crv: 'P-256', x: wallet.x, y: wallet.y });
    await expect(service.issue(mine.id, { holderPublicJwk: keyPair.privateKey.export({ format: 'jwk' }) })).rejects.toThrow('holder key: the JWK carries private key material');
    expect(payload).toMatchObject({ iss: PUBLIC_URL, vct: `${PUBLIC_URL}/vct/diploma` });
    await expect(service.issue('AAAAAAAAAAAAAAAAAAAAAA')).rejects.toMatchObject({ code: 'not_found' });
  });

  it("is verified by @sd-jwt/sd-jwt-vc's own verifier with the published keys and token status list, which says revoked for a revoked diploma", async () => {
    const metadata = (await get('/.well-known/jwt-vc-issuer')).json() as { jwks: { keys: { kid: string }[] } };
    const fetched: string[] = [];
    const verifierFor = async (credential: string) => {
      const [header] = credential.split('.');
      const { kid } = JSON.parse(Buffer.from(header!, 'base64url').toString()) as { kid: string };
      const verifier = await ES256.getVerifier(metadata.jwks.keys.find((key) => key.kid === kid)!);
      return new SDJwtVcInstance({
        hasher: digest,
        verifier,
        // The platform's token status list, as a wallet or verifier reads it at the credential's `status.status_list.uri`.
        statusListFetcher: async (uri) => {
          fetched.push(uri);
          const res = await get(new URL(uri).pathname);
          expect(res.statusCode).toBe(200);
          return res.body;
        },
      });
    };
    const credential = await service.issue(mine.id);
    const { payload } = await (await verifierFor(credential)).verify(credential);
    expect(payload.status?.status_list.uri).toMatch(new RegExp(`^${PUBLIC_URL}/credentials/status/\\d+/token$`));
    expect(fetched).toHaveLength(1);

    const revokedCredential = await service.issue(revoked.id);
    await expect((await verifierFor(revokedCredential)).verify(revokedCredential)).rejects.toThrow(/Status is not valid/);
  });

  it('serves the type metadata at its vct address, in French and English', async () => {
    const res = await get('/vct/diploma');
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const metadata = res.json();
    expect(metadata.vct).toBe(`${PUBLIC_URL}/vct/diploma`);
    expect(metadata.display.map((d: { lang: string }) => d.lang)).toEqual(['fr', 'en']);
    expect(metadata.claims.find((c: { path: string[] }) => c.path[0] === 'percentage')).toMatchObject({ sd: 'always' });
  });
});

/**
 * A verifier that knows only the ministry's root certificate (the trust anchor a wallet or an
 * EUDI-style verifier is given), not the platform's JWKS: it reads the key from the JWT's `x5c`
 * header, checks that chain up to the root and the validity dates, then the signature with the leaf's key.
 */
function rootOnlyVerifier(rootDer: Uint8Array) {
  const root = new X509Certificate(Buffer.from(rootDer));
  return async (data: string, signature: string) => {
    const header = JSON.parse(Buffer.from(data.split('.')[0]!, 'base64url').toString()) as { x5c?: string[] };
    if (!Array.isArray(header.x5c) || header.x5c.length === 0) return false;
    const chain = header.x5c.map((der) => new X509Certificate(Buffer.from(der, 'base64')));
    const now = Date.now();
    for (const [i, certificate] of chain.entries()) {
      const parent = chain[i + 1] ?? root;
      if (!certificate.checkIssued(parent) || !certificate.verify(parent.publicKey)) return false;
      if (Date.parse(certificate.validFrom) > now || Date.parse(certificate.validTo) < now) return false;
    }
    return (await ES256.getVerifier(chain[0]!.publicKey.export({ format: 'jwk' })))(data, signature);
  };
}

describe('for verifiers outside the platform', () => {
  it('/.well-known/jwt-vc-issuer is the draft’s: issuer and jwks (not both jwks and jwks_uri), every key with its kid', async () => {
    const metadata = (await get('/.well-known/jwt-vc-issuer')).json() as { issuer: string; jwks?: { keys: { kid: string }[] }; jwks_uri?: string };
    expect(metadata.issuer).toBe(PUBLIC_URL);
    expect(metadata.jwks_uri).toBeUndefined();
    expect(metadata.jwks?.keys.map((key) => key.kid)).toContain(keys.active.kid);
  });

  it('a presentation with key binding verifies with @sd-jwt/sd-jwt-vc knowing only the ministry root certificate (x5c), status list included', async () => {
    const root = keys.active.certificateChainDer.at(-1)!;
    const wallet = await ES256.generateKeyPair();
    const credential = await service.issue(mine.id, { holderPublicJwk: wallet.publicKey as never });
    const sign = await ES256.getSigner(wallet.privateKey);
    const presentation = await presentDiplomaSdJwt(credential, ['family_name', 'school'], {
      signer: { sign: async (data) => Buffer.from(await sign(new TextDecoder().decode(data)), 'base64url') },
      aud: 'https://university.example.be',
      nonce: 'challenge-1',
    });
    const verifier = new SDJwtVcInstance({
      hasher: digest,
      verifier: rootOnlyVerifier(root),
      kbVerifier: async (data, signature, payload) => (await ES256.getVerifier((payload.cnf as { jwk: object }).jwk))(data, signature),
      statusListFetcher: async (uri) => {
        const res = await get(new URL(uri).pathname);
        expect(res.headers['content-type']).toMatch(/^application\/statuslist\+jwt/);
        return res.body;
      },
      // The type metadata, read at the vct address as the library does (no network: the platform's answer).
      loadTypeMetadataFormat: true,
      vctFetcher: async (uri) => {
        expect(uri).toBe(`${PUBLIC_URL}/vct/diploma`);
        return (await get(new URL(uri).pathname)).json();
      },
    });
    const verified = await verifier.verify(presentation, { keyBindingNonce: 'challenge-1' });
    expect(verified.kb?.payload).toMatchObject({ aud: 'https://university.example.be', nonce: 'challenge-1' });
    expect(verified.payload).toMatchObject({ family_name: 'MUKENDI', school: expect.any(String) });
    expect(verified.typeMetadata?.mergedTypeMetadata.vct).toBe(`${PUBLIC_URL}/vct/diploma`);

    // Another trust anchor (here the leaf itself, which issued nothing): refused.
    const otherRoot = keys.active.certificateChainDer[0]!;
    const strict = new SDJwtVcInstance({ hasher: digest, verifier: rootOnlyVerifier(otherRoot), statusListFetcher: async () => '' });
    await expect(strict.verify(credential)).rejects.toThrow();
    // The revoked diploma: the status list, checked with the same root, says so.
    const revokedCredential = await service.issue(revoked.id);
    const statusOnly = new SDJwtVcInstance({
      hasher: digest,
      verifier: rootOnlyVerifier(root),
      statusListFetcher: async (uri) => (await get(new URL(uri).pathname)).body,
    });
    await expect(statusOnly.verify(revokedCredential)).rejects.toThrow(/Status is not valid/);
  });
});

describe('with a path in PUBLIC_URL', () => {
  it('serves the issuer metadata at the well-known name then the path, and the type metadata at its vct address', async () => {
    const publicUrl = 'https://minepst.gouv.cd/diplomes';
    const config = { ...ctx.config, publicUrl };
    const other = new SdJwtVcService(ctx.db, config, keys, null);
    const base = createServices(ctx.db, config);
    const pathApp = await buildApp({ db: ctx.db, config, services: { ...base, sdJwtVc: other } });
    try {
      await pathApp.ready();
      for (const url of ['/.well-known/jwt-vc-issuer/diplomes', '/.well-known/jwt-vc-issuer']) {
        const res = await pathApp.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(200);
        expect(res.json().issuer).toBe(publicUrl);
      }
      expect(other.vct).toBe(`${publicUrl}/vct/diploma`);
      for (const url of ['/diplomes/vct/diploma', '/vct/diploma']) {
        const res = await pathApp.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(200);
        expect(res.json().vct).toBe(`${publicUrl}/vct/diploma`);
      }
    } finally {
      await pathApp.close();
    }
  });
});
