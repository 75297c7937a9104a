import { clientAuthenticationAnonymous, type JwtSigner, type SignJwtCallback } from '@openid4vc/oauth2';
import { Openid4vciClient, setGlobalConfig } from '@openid4vc/openid4vci';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as dbVc from '@digitalbazaar/vc';
import { digest, ES256 } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { createDocumentLoader, type DidDocument, verificationSuite } from '@sceau/vc';
import pino from 'pino';
import { eq, sql } from 'drizzle-orm';
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { auditLog, diplomas, users, walletNonces, walletNotifications, walletOffers } from '../../db/schema.ts';
import { Sweeper } from '../../jobs/sweeps.ts';
import { createServices, type Services } from '../../services.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import type { DiplomaFixture } from '../candidate-check/public-diploma-fixtures.ts';
import { heldBy, holderAccount, issuedDiplomas } from '../holder/holder-test-support.ts';
import { CredentialStatusService } from '../credential-status/credential-status-service.ts';
import { loadMinistryKeys, type MinistryKeys } from '../keys/ministry-keys.ts';
import { SdJwtVcService } from '../sd-jwt-vc/sd-jwt-vc-service.ts';
import { VcService } from '../vc/vc-service.ts';
import { CONFIGURATION, Oid4vciService, TX_CODE_MAX_FAILURES } from './oid4vci-service.ts';
import { OID4VCI_REQUESTS_PER_MINUTE } from './oid4vci-routes.ts';

const ISSUER = 'https://diplomes.test';
const VCT = `${ISSUER}/vct/diploma`;
const DID = 'did:web:diplomes.test';
const AMANI_PHONE = '+243812345678';

let ctx: TestContext;
let services: Services;
let app: App;
let amani: string;
let beya: string;
let mine: DiplomaFixture;
let hers: DiplomaFixture;
let mineRevoked: DiplomaFixture;
let mineLater: DiplomaFixture;
let keysDir: string;
let keys: MinistryKeys;

/** The wallet's fetch, answered by the app in-process at the issuer's address. */
const walletFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const request = new Request(input, init);
  const url = new URL(request.url);
  expect(url.origin).toBe(ISSUER);
  const body = request.method === 'GET' ? undefined : Buffer.from(await request.arrayBuffer());
  const answer = await app.inject({
    method: request.method as 'GET' | 'POST',
    url: url.pathname + url.search,
    remoteAddress: address(),
    headers: Object.fromEntries(request.headers),
    ...(body?.length ? { payload: body } : {}),
  });
  return new Response(answer.statusCode === 204 ? null : answer.rawPayload, { status: answer.statusCode, headers: answer.headers as Record<string, string> });
};

/** The wallet's key (P-256) and its signer, as a wallet keeps them. */
const walletKeys = await generateKeyPair('ES256', { extractable: true });
const walletJwk = await exportJWK(walletKeys.publicKey);
const signJwt: SignJwtCallback = async (signer: JwtSigner, { header, payload }) => {
  const jwt = await new SignJWT(payload).setProtectedHeader({ ...header, alg: signer.alg }).sign(walletKeys.privateKey);
  return { jwt, signerJwk: walletJwk as never };
};
const wallet = new Openid4vciClient({
  callbacks: {
    fetch: walletFetch as never,
    signJwt,
    hash: (data, alg) => new Uint8Array(createHash(alg.replace('-', '').toLowerCase()).update(data).digest()),
    generateRandom: (length) => new Uint8Array(randomBytes(length)),
    clientAuthentication: clientAuthenticationAnonymous(),
  },
});

type IssuerMetadata = Awaited<ReturnType<Openid4vciClient['resolveIssuerMetadata']>>;
type DpopOptions = Parameters<Openid4vciClient['retrieveCredentials']>[0]['dpop'];

/** A wallet's request for the SD-JWT VC: a fresh nonce, a key proof over it by the wallet's key, then the credential (with DPoP when given). */
async function requestSdJwt(client: Openid4vciClient, issuerMetadata: IssuerMetadata, accessToken: string, dpop?: DpopOptions) {
  const { c_nonce } = await client.requestNonce({ issuerMetadata });
  const { jwt } = await client.createCredentialRequestJwtProof({
    issuerMetadata,
    credentialConfigurationId: CONFIGURATION.sdJwt,
    nonce: c_nonce,
    signer: { method: 'jwk', alg: 'ES256', publicJwk: walletJwk as never },
  });
  return client.retrieveCredentials({ issuerMetadata, accessToken, credentialConfigurationId: CONFIGURATION.sdJwt, proofs: { jwt: [jwt] }, ...(dpop ? { dpop } : {}) });
}

const as = (token: string) => ({ authorization: `Bearer ${token}` });
const offerFor = (token: string, diplomaId: string, body?: { tx_code?: boolean }, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: `/api/holder/diplomas/${diplomaId}/wallet-offer`, headers: { ...as(token), ...headers }, ...(body ? { payload: body } : {}) });
/** Each call from its own address, so the per-address limit (tested on its own below) does not end the suite. */
let calls = 0;
const address = () => `10.1.${Math.floor(++calls / 250) % 250}.${calls % 250}`;
const codeOf = (offer: { credential_offer: { grants: Record<string, { 'pre-authorized_code': string }> } }) =>
  offer.credential_offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']!['pre-authorized_code'];
const tokenRequest = (form: Record<string, string> | string, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/oid4vci/token',
    remoteAddress: address(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: typeof form === 'string' ? form : new URLSearchParams(form).toString(),
  });
const exchange = async (code: string) =>
  (await tokenRequest({ grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': code })).json().access_token as string;
const nonce = async () => (await app.inject({ method: 'POST', url: '/oid4vci/nonce', remoteAddress: address() })).json().c_nonce as string;
const proof = (claims: { nonce?: string; aud?: string; iat?: number }, header: Record<string, unknown> = {}) =>
  new SignJWT({ ...(claims.nonce ? { nonce: claims.nonce } : {}) })
    .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: walletJwk, ...header })
    .setAudience(claims.aud ?? ISSUER)
    .setIssuedAt(claims.iat ?? Math.floor(Date.now() / 1000))
    .sign(walletKeys.privateKey);
const credentialRequest = (accessToken: string | null, body: unknown) =>
  app.inject({ method: 'POST', url: '/oid4vci/credential', remoteAddress: address(), headers: accessToken ? as(accessToken) : {}, payload: body as object });
/** A fresh offer for Amani's diploma, exchanged: its access token. */
const accessToken = async (diplomaId = mine.id) => exchange(codeOf((await offerFor(amani, diplomaId)).json().data));
/**
 * Each private member of a JWK (RFC 7518, 8037) with a value of its form; `d` is the signer's own,
 * so the proof would otherwise verify.
 */
const privateMembers = (d: string | undefined): [string, unknown][] => [
  ['d', d],
  ...['p', 'q', 'dp', 'dq', 'qi', 'k'].map((member): [string, unknown] => [member, 'AQAB']),
  ['oth', [{ r: 'AQAB', d: 'AQAB', t: 'AQAB' }]],
];
/** A stored nonce's key (kept as its SHA-256 only). */
const nonceHash = (nonce: string) => createHash('sha256').update(`wallet-nonce:${nonce}`).digest('hex');
/** The stored offer of a pre-authorised code (kept as its SHA-256 only). */
const offerOfCode = (code: string) => eq(walletOffers.codeHash, createHash('sha256').update(`wallet-code:${code}`).digest('hex'));
/** The id of the offer an access token was given for. */
const offerIdOf = async (token: string) =>
  (
    await ctx.db
      .select({ id: walletOffers.id })
      .from(walletOffers)
      .where(eq(walletOffers.tokenHash, createHash('sha256').update(`wallet-token:${token}`).digest('hex')))
  )[0]!.id;

beforeAll(async () => {
  setGlobalConfig({ allowInsecureUrls: false });
  ctx = await createTestApp({ PUBLIC_URL: ISSUER });
  keysDir = await mkdtemp(path.join(os.tmpdir(), 'sceau-oid4vci-keys-'));
  keys = await loadMinistryKeys({ ...ctx.config.keys, dir: keysDir }, pino({ level: 'silent' }));
  // The platform's own credential makers, on the test's keys (the SD-JWT VC's status list aside).
  const status = new CredentialStatusService(ctx.db, ISSUER, keys, { recheckMs: 0 });
  const sdJwtVc = new SdJwtVcService(ctx.db, ctx.config, keys, null);
  const vc = new VcService(ctx.db, ctx.config, keys, status);
  services = { ...createServices(ctx.db, ctx.config), credentialStatus: status, vc, sdJwtVc };
  services.oid4vci = new Oid4vciService(ctx.db, ISSUER, { sdJwt: sdJwtVc, openBadge: vc });
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  [mine, hers, mineRevoked, mineLater] = await issuedDiplomas(ctx.db, services.storage, ['valid', 'valid', 'revoked', 'valid']);
  await heldBy(ctx.db, [mine, mineRevoked, mineLater], { phone: AMANI_PHONE });
  await heldBy(ctx.db, [hers], { email: 'beya@example.cd' });
  amani = await holderAccount(ctx, 'Amani', { phone: AMANI_PHONE });
  beya = await holderAccount(ctx, 'Beya', { email: 'beya@example.cd' });
}, 120_000);
// Each test starts within the holder's hourly offers (the limit is the offer's own test's matter).
beforeEach(async () => {
  await ctx.db.$client.query(`delete from rate_limits where key like 'wallet_offer%'`);
});
afterAll(async () => {
  await app?.close();
  keys?.close();
  await ctx?.close();
  if (keysDir) await rm(keysDir, { recursive: true, force: true });
});

describe('metadata', () => {
  it('publishes the credential issuer metadata: endpoints, both configurations, names in French and English', async () => {
    const response = await app.inject({ method: 'GET', url: '/.well-known/openid-credential-issuer' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const metadata = response.json();
    expect(metadata.credential_issuer).toBe(ISSUER);
    expect(metadata.credential_endpoint).toBe(`${ISSUER}/oid4vci/credential`);
    expect(metadata.nonce_endpoint).toBe(`${ISSUER}/oid4vci/nonce`);
    expect(metadata.notification_endpoint).toBe(`${ISSUER}/oid4vci/notification`);
    expect(metadata.display.map((d: { locale: string }) => d.locale)).toEqual(['fr', 'en']);
    const sdJwt = metadata.credential_configurations_supported[CONFIGURATION.sdJwt];
    expect(sdJwt).toMatchObject({ format: 'dc+sd-jwt', vct: VCT, cryptographic_binding_methods_supported: ['jwk'] });
    expect(sdJwt.proof_types_supported.jwt.proof_signing_alg_values_supported).toEqual(['ES256', 'EdDSA']);
    expect(sdJwt.credential_metadata.display.map((d: { name: string; locale: string }) => [d.locale, d.name])).toEqual([
      ['fr', 'Diplôme'],
      ['en', 'Diploma'],
    ]);
    // Wallets still on drafts 13–15 read the names beside the format.
    expect(sdJwt.display).toEqual(sdJwt.credential_metadata.display);
    const badge = metadata.credential_configurations_supported[CONFIGURATION.openBadge];
    expect(badge.display).toEqual(badge.credential_metadata.display);
    expect(badge.format).toBe('ldp_vc');
    expect(badge.credential_definition.type).toEqual(['VerifiableCredential', 'OpenBadgeCredential']);
  });

  it('publishes the authorisation server metadata of the pre-authorised code flow', async () => {
    const metadata = (await app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json();
    expect(metadata).toMatchObject({
      issuer: ISSUER,
      token_endpoint: `${ISSUER}/oid4vci/token`,
      'pre-authorized_grant_anonymous_access_supported': true,
      grant_types_supported: ['urn:ietf:params:oauth:grant-type:pre-authorized_code'],
      dpop_signing_alg_values_supported: ['ES256', 'ES384', 'ES512', 'EdDSA'],
    });
  });
});

describe('metadata when PUBLIC_URL has a path', () => {
  it('names the endpoints under that path and is found where a wallet looks for it (the path after the well-known name)', async () => {
    const publicUrl = 'https://minepst.gouv.cd/diplomes/';
    const issuer = 'https://minepst.gouv.cd/diplomes';
    const other = await buildApp({ db: ctx.db, config: { ...ctx.config, publicUrl }, services });
    try {
      await other.ready();
      const fetched: string[] = [];
      const client = new Openid4vciClient({
        callbacks: {
          fetch: (async (input: string | URL | Request, init?: RequestInit) => {
            const url = new URL(new Request(input, init).url);
            expect(url.origin).toBe('https://minepst.gouv.cd');
            fetched.push(url.pathname);
            const answer = await other.inject({ method: 'GET', url: url.pathname });
            return new Response(answer.rawPayload, { status: answer.statusCode, headers: answer.headers as Record<string, string> });
          }) as never,
          signJwt,
          hash: (data, alg) => new Uint8Array(createHash(alg.replace('-', '').toLowerCase()).update(data).digest()),
          generateRandom: (length) => new Uint8Array(randomBytes(length)),
          clientAuthentication: clientAuthenticationAnonymous(),
        },
      });
      const metadata = await client.resolveIssuerMetadata(issuer);
      expect(fetched).toEqual(expect.arrayContaining(['/.well-known/openid-credential-issuer/diplomes']));
      expect(metadata.credentialIssuer).toMatchObject({
        credential_issuer: issuer,
        credential_endpoint: `${issuer}/oid4vci/credential`,
        nonce_endpoint: `${issuer}/oid4vci/nonce`,
      });
      const server = (await other.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server/diplomes' })).json();
      expect(server).toMatchObject({ issuer, token_endpoint: `${issuer}/oid4vci/token` });
      // The address without the path still answers (a proxy that passes the root's well-known files).
      expect((await other.inject({ method: 'GET', url: '/.well-known/openid-credential-issuer' })).json().credential_issuer).toBe(issuer);
    } finally {
      await other.close();
    }
  });
});

describe('the hourly sweep', () => {
  it('deletes the offers whose code and token have both expired, and the expired nonces; keeps the others', async () => {
    const [amaniRow] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.phone, AMANI_PHONE));
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const offer = (n: number, codeExpiresAt: Date, tokenExpiresAt: Date | null) => ({
      userId: amaniRow!.id,
      diplomaId: mine.id,
      codeHash: createHash('sha256').update(`sweep-offer-${n}`).digest('hex'),
      codeExpiresAt,
      ...(tokenExpiresAt ? { tokenHash: createHash('sha256').update(`sweep-token-${n}`).digest('hex'), tokenExpiresAt } : {}),
    });
    const made = await ctx.db
      .insert(walletOffers)
      .values([offer(1, ago(30), null), offer(2, ago(30), ago(5)), offer(3, ago(30), ago(-10)), offer(4, ago(-5), null)])
      .returning({ id: walletOffers.id });
    const nonce = (n: number, expiresAt: Date) => ({ nonceHash: createHash('sha256').update(`sweep-nonce-${n}`).digest('hex'), expiresAt });
    await ctx.db.insert(walletNonces).values([nonce(1, ago(1)), nonce(2, ago(-4))]);
    await ctx.db.insert(walletNotifications).values([
      { id: 'sweep-notification-2', offerId: made[1]!.id },
      { id: 'sweep-notification-3', offerId: made[2]!.id },
    ]);

    const sweeper = new Sweeper(ctx.db, services.storage, { draftTtlHours: 24, filesDir: null }, { info() {}, warn() {} });
    const result = await sweeper.sweep();
    expect(result.walletOffers).toBeGreaterThanOrEqual(2);
    expect(result.walletNonces).toBeGreaterThanOrEqual(1);
    const left = new Set((await ctx.db.select({ id: walletOffers.id }).from(walletOffers)).map((row) => row.id));
    expect(made.map((row) => left.has(row.id))).toEqual([false, false, true, true]);
    // An offer's notification ids go with it.
    const notifications = await ctx.db.select({ id: walletNotifications.id }).from(walletNotifications);
    expect(notifications.map((row) => row.id)).not.toContain('sweep-notification-2');
    expect(notifications.map((row) => row.id)).toContain('sweep-notification-3');
    const nonces = new Set((await ctx.db.select({ hash: walletNonces.nonceHash }).from(walletNonces)).map((row) => row.hash));
    expect(nonces.has(nonce(1, new Date()).nonceHash)).toBe(false);
    expect(nonces.has(nonce(2, new Date()).nonceHash)).toBe(true);
    // Nothing left to sweep at once after.
    expect(await sweeper.sweepWalletOffers()).toEqual({ walletOffers: 0, walletNonces: 0 });
  });
});

describe('a wallet (the OpenWallet Foundation client) obtains the diploma', () => {
  it('resolves the offer, reads the metadata, exchanges the code, takes a nonce, proves its key and receives the SD-JWT VC bound to it', async () => {
    const created = await offerFor(amani, mine.id);
    expect(created.statusCode).toBe(201);
    expect(created.headers['cache-control']).toContain('no-store');
    const { data } = created.json();
    expect(data.offer_uri.startsWith('openid-credential-offer://?credential_offer=')).toBe(true);
    expect(new Date(data.expires_at).getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(new Date(data.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(10 * 60_000);

    const offer = await wallet.resolveCredentialOffer(data.offer_uri);
    expect(offer.credential_configuration_ids).toEqual([CONFIGURATION.sdJwt, CONFIGURATION.openBadge]);
    const issuerMetadata = await wallet.resolveIssuerMetadata(offer.credential_issuer);
    const { accessTokenResponse } = await wallet.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata });
    expect(accessTokenResponse.token_type).toBe('Bearer');
    const response = await requestSdJwt(wallet, issuerMetadata, accessTokenResponse.access_token);
    const credential = (response.credentialResponse.credentials?.[0] as { credential: unknown } | undefined)?.credential;
    expect(typeof credential).toBe('string');
    // Verified by the OpenWallet Foundation's SD-JWT VC library against the issuer's published keys.
    const { jwks } = (await app.inject({ method: 'GET', url: '/.well-known/jwt-vc-issuer' })).json() as { jwks: { keys: JWK[] } };
    const kid = decodeProtectedHeader((credential as string).split('~')[0]!).kid;
    const sdJwtVc = new SDJwtVcInstance({ hasher: digest, verifier: await ES256.getVerifier(jwks.keys.find((key) => key.kid === kid)!) });
    const { payload } = await sdJwtVc.verify(credential as string);
    expect(payload).toMatchObject({ iss: ISSUER, vct: VCT, family_name: 'MUKENDI', place_of_birth: 'Kananga' });
    // Bound to the wallet's own key, not any other.
    expect(payload.cnf).toEqual({ jwk: { kty: walletJwk.kty, crv: walletJwk.crv, x: walletJwk.x, y: walletJwk.y } });

    // The same token also obtains the Open Badges 3.0 VC (no key proof: it is not bound), verified by Digital Bazaar's library.
    const badgeResponse = await wallet.retrieveCredentials({ issuerMetadata, accessToken: accessTokenResponse.access_token, credentialConfigurationId: CONFIGURATION.openBadge });
    const badge = (badgeResponse.credentialResponse.credentials?.[0] as { credential: Record<string, unknown> } | undefined)?.credential;
    expect(badge).toMatchObject({ type: ['VerifiableCredential', 'OpenBadgeCredential'], id: `${ISSUER}/verify/${mine.id}`, issuer: { id: DID } });
    const didDocument = (await app.inject({ method: 'GET', url: '/.well-known/did.json' })).json() as DidDocument;
    const loader = createDocumentLoader({
      didDocuments: [didDocument],
      resolve: async (url) => (url.startsWith(`${ISSUER}/credentials/status/`) ? (await app.inject({ method: 'GET', url: url.slice(ISSUER.length) })).json() : null),
    });
    const verified = await dbVc.verifyCredential({ credential: badge!, suite: verificationSuite(), documentLoader: loader, checkStatus: async () => ({ verified: true }) });
    expect(verified.error).toBeUndefined();
    expect(verified.verified).toBe(true);

    const [stored] = await ctx.db
      .select()
      .from(walletOffers)
      .where(offerOfCode(codeOf(data)));
    expect(stored).toMatchObject({ diplomaId: mine.id, credentialsIssued: 2 });
    expect(stored!.codeUsedAt).not.toBeNull();
    expect(stored!.tokenHash).not.toBe(accessTokenResponse.access_token);
    const audit = await ctx.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.subjectId, mine.id));
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['diploma.wallet_offer_created', 'diploma.wallet_credential_issued']));
  });
});

describe('the holder makes an offer', () => {
  it('keeps only the hash of the code', async () => {
    const made = await offerFor(amani, mine.id);
    expect(made.statusCode, made.body).toBe(201);
    const { data } = made.json();
    const rows = await ctx.db.select({ codeHash: walletOffers.codeHash }).from(walletOffers);
    expect(rows.some((row) => row.codeHash === codeOf(data))).toBe(false);
    expect(JSON.parse(decodeURIComponent(data.offer_uri.split('credential_offer=')[1]))).toEqual(data.credential_offer);
  });

  it("refuses another person's diploma as unknown, a revoked one as a conflict, and a stranger", async () => {
    expect((await offerFor(beya, mine.id)).statusCode).toBe(404);
    expect((await offerFor(amani, hers.id)).statusCode).toBe(404);
    expect((await offerFor(amani, mineRevoked.id)).statusCode).toBe(409);
    expect((await app.inject({ method: 'POST', url: `/api/holder/diplomas/${mine.id}/wallet-offer` })).statusCode).toBe(401);
  });
});

describe('the token endpoint', () => {
  const grant = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

  it('refuses a code used twice (invalid_grant), without a second token', async () => {
    const code = codeOf((await offerFor(amani, mine.id)).json().data);
    const first = await tokenRequest({ grant_type: grant, 'pre-authorized_code': code });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.json()).toMatchObject({ token_type: 'Bearer', expires_in: 300 });
    const again = await tokenRequest({ grant_type: grant, 'pre-authorized_code': code });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
  });

  it('refuses an expired code and an unknown one', async () => {
    const code = codeOf((await offerFor(amani, mine.id)).json().data);
    await ctx.db
      .update(walletOffers)
      .set({ codeExpiresAt: new Date(Date.now() - 1000) })
      .where(offerOfCode(code));
    expect((await tokenRequest({ grant_type: grant, 'pre-authorized_code': code })).json().error).toBe('invalid_grant');
    expect((await tokenRequest({ grant_type: grant, 'pre-authorized_code': 'x'.repeat(43) })).json().error).toBe('invalid_grant');
  });

  it('answers malformed requests in the OAuth form', async () => {
    const wrongGrant = await tokenRequest({ grant_type: 'authorization_code', code: 'abc' });
    expect(wrongGrant.statusCode).toBe(400);
    expect(wrongGrant.json().error).toBe('unsupported_grant_type');
    expect((await tokenRequest({ 'pre-authorized_code': 'abc' })).json().error).toBe('invalid_request');
    expect((await tokenRequest({ grant_type: grant })).json().error).toBe('invalid_request');
    expect((await tokenRequest(`grant_type=${encodeURIComponent(grant)}&pre-authorized_code=a&pre-authorized_code=b`)).json().error).toBe('invalid_request');
    const json = await app.inject({ method: 'POST', url: '/oid4vci/token', payload: { grant_type: grant, 'pre-authorized_code': 'abc' } });
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toBe('invalid_request');
    // Bounded before it is read: a form larger than 2 KB is refused as such.
    const large = await tokenRequest({ grant_type: grant, 'pre-authorized_code': 'x'.repeat(4096) });
    expect(large.statusCode).toBe(413);
    expect(large.json()).toEqual({ error: 'invalid_request', error_description: 'The request body is too large' });
  });

  it('gives no token for a diploma revoked after the offer', async () => {
    const code = codeOf((await offerFor(amani, mineLater.id)).json().data);
    await ctx.db.update(diplomas).set({ revokedAt: new Date() }).where(eq(diplomas.id, mineLater.id));
    expect((await tokenRequest({ grant_type: grant, 'pre-authorized_code': code })).json().error).toBe('invalid_grant');
    await ctx.db.update(diplomas).set({ revokedAt: null }).where(eq(diplomas.id, mineLater.id));
  });
});

describe('the credential endpoint', () => {
  it('refuses a missing, wrong or expired access token with a Bearer challenge', async () => {
    const missing = await credentialRequest(null, { credential_configuration_id: CONFIGURATION.openBadge });
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer, DPoP algs="ES256 ES384 ES512 EdDSA"');
    expect(missing.json().error).toBe('invalid_token');
    const wrong = await credentialRequest('not-a-token', { credential_configuration_id: CONFIGURATION.openBadge });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    const token = await accessToken();
    await ctx.db
      .update(walletOffers)
      .set({ tokenExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(walletOffers.tokenHash, createHash('sha256').update(`wallet-token:${token}`).digest('hex')));
    expect((await credentialRequest(token, { credential_configuration_id: CONFIGURATION.openBadge })).statusCode).toBe(401);
  });

  it('refuses key proofs with a nonce it did not give, a spent nonce, or no nonce', async () => {
    const token = await accessToken();
    const forged = await credentialRequest(token, { credential_configuration_id: CONFIGURATION.sdJwt, proofs: { jwt: [await proof({ nonce: 'made-up-nonce' })] } });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toBe('invalid_nonce');
    const fresh = await nonce();
    const ok = await credentialRequest(token, { credential_configuration_id: CONFIGURATION.sdJwt, proofs: { jwt: [await proof({ nonce: fresh })] } });
    expect(ok.statusCode).toBe(200);
    const replayed = await credentialRequest(token, { credential_configuration_id: CONFIGURATION.sdJwt, proofs: { jwt: [await proof({ nonce: fresh })] } });
    expect(replayed.json().error).toBe('invalid_nonce');
    expect((await credentialRequest(token, { credential_configuration_id: CONFIGURATION.sdJwt, proofs: { jwt: [await proof({})] } })).json().error).toBe('invalid_nonce');
    // An expired nonce is no nonce.
    const old = await nonce();
    await ctx.db.update(walletNonces).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await credentialRequest(token, { credential_configuration_id: CONFIGURATION.sdJwt, proofs: { jwt: [await proof({ nonce: old })] } })).json().error).toBe(
      'invalid_nonce',
    );
  });

  it('refuses proofs for another audience, stale or future, of another type, naming a kid, or signed by another key', async () => {
    const token = await accessToken();
    const ask = async (jwt: string) => (await credentialRequest(token, { credential_configuration_id: CONFIGURATION.sdJwt, proofs: { jwt: [jwt] } })).json();
    expect(await ask(await proof({ nonce: await nonce(), aud: 'https://evil.example' }))).toEqual({
      error: 'invalid_proof',
      error_description: `The key proof's aud must be ${ISSUER}`,
    });
    expect((await ask(await proof({ nonce: await nonce(), iat: Math.floor(Date.now() / 1000) - 600 }))).error).toBe('invalid_proof');
    expect((await ask(await proof({ nonce: await nonce(), iat: Math.floor(Date.now() / 1000) + 600 }))).error).toBe('invalid_proof');
    expect((await ask(await proof({ nonce: await nonce() }, { typ: 'JWT' }))).error).toBe('invalid_proof');
    expect((await ask(await proof({ nonce: await nonce() }, { kid: 'did:example:123#key-1' }))).error).toBe('invalid_proof');
    const other = await exportJWK((await generateKeyPair('ES256', { extractable: true })).publicKey);
    expect((await ask(await proof({ nonce: await nonce() }, { jwk: other }))).error).toBe('invalid_proof');
    expect((await ask('not.a.jwt')).error).toBe('invalid_proof');
    // No proof at all, or two of them: the SD-JWT VC is bound to one key.
    expect((await credentialRequest(token, { credential_configuration_id: CONFIGURATION.sdJwt })).json().error).toBe('invalid_proof');
    const two = [await proof({ nonce: await nonce() }), await proof({ nonce: await nonce() })];
    expect((await credentialRequest(token, { credential_configuration_id: CONFIGURATION.sdJwt, proofs: { jwt: two } })).json().error).toBe('invalid_proof');
  });

  it('refuses a key proof whose jwk carries any private member (d, p, q, dp, dq, qi, oth, k) or is not an object, before its nonce is spent (ADR 0146)', async () => {
    const token = await accessToken();
    const ask = async (jwt: string) => (await credentialRequest(token, { credential_configuration_id: CONFIGURATION.sdJwt, proofs: { jwt: [jwt] } })).json();
    const privateD = (await exportJWK(walletKeys.privateKey)).d;
    for (const [member, value] of privateMembers(privateD)) {
      const fresh = await nonce();
      expect(await ask(await proof({ nonce: fresh }, { jwk: { ...walletJwk, [member]: value } })), member).toEqual({
        error: 'invalid_proof',
        error_description: 'The key proof carries a private key',
      });
      const [kept] = await ctx.db
        .select({ expiresAt: walletNonces.expiresAt })
        .from(walletNonces)
        .where(eq(walletNonces.nonceHash, nonceHash(fresh)));
      expect(kept, member).toBeDefined();
    }
    expect(await ask(await proof({ nonce: await nonce() }, { jwk: 'not-a-jwk' }))).toEqual({
      error: 'invalid_proof',
      error_description: 'The key proof must carry the public key in its jwk header',
    });
    // The same key, public: the credential.
    const response = await credentialRequest(token, { credential_configuration_id: CONFIGURATION.sdJwt, proofs: { jwt: [await proof({ nonce: await nonce() })] } });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('accepts an Ed25519 key proof (EdDSA)', async () => {
    const token = await accessToken();
    const keys = await generateKeyPair('EdDSA', { extractable: true });
    const jwk = await exportJWK(keys.publicKey);
    const jwt = await new SignJWT({ nonce: await nonce() })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'openid4vci-proof+jwt', jwk })
      .setAudience(ISSUER)
      .setIssuedAt()
      .sign(keys.privateKey);
    const response = await credentialRequest(token, { credential_configuration_id: CONFIGURATION.sdJwt, proofs: { jwt: [jwt] } });
    expect(response.statusCode, response.body).toBe(200);
    const [credential] = response.json().credentials;
    expect(decodeJwt(credential.credential.split('~')[0]).cnf).toEqual({ jwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x } });
  });

  it('answers unknown configurations, malformed and oversized requests in the OpenID4VCI form', async () => {
    const token = await accessToken();
    expect((await credentialRequest(token, { credential_configuration_id: 'mdoc' })).json().error).toBe('unknown_credential_configuration');
    // A draft-13 request (format, no credential_configuration_id) that names nothing this issuer makes.
    expect((await credentialRequest(token, { format: 'ldp_vc' })).json().error).toBe('unsupported_credential_type');
    expect((await credentialRequest(token, { format: 'mso_mdoc', doctype: 'org.iso.18013.5.1.mDL' })).json().error).toBe('unsupported_credential_format');
    expect((await credentialRequest(token, {})).json().error).toBe('invalid_credential_request');
    expect((await credentialRequest(token, { credential_identifier: 'x' })).json().error).toBe('invalid_credential_request');
    const broken = await app.inject({
      method: 'POST',
      url: '/oid4vci/credential',
      headers: { ...as(token), 'content-type': 'application/json' },
      payload: '{"credential_configuration_id":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error).toBe('invalid_request');
    const large = await credentialRequest(token, { credential_configuration_id: CONFIGURATION.sdJwt, proofs: { jwt: ['x'.repeat(20_000)] } });
    expect(large.statusCode).toBe(413);
    expect(large.json().error).toBe('invalid_request');
  });

  it('denies the credential once the diploma is revoked, even with a live token', async () => {
    const token = await accessToken(mineLater.id);
    await ctx.db.update(diplomas).set({ revokedAt: new Date() }).where(eq(diplomas.id, mineLater.id));
    const response = await credentialRequest(token, { credential_configuration_id: CONFIGURATION.openBadge });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('credential_request_denied');
    await ctx.db.update(diplomas).set({ revokedAt: null }).where(eq(diplomas.id, mineLater.id));
  });

  it('limits the calls of one address per minute, answered in the OAuth form', async () => {
    let last = await app.inject({ method: 'POST', url: '/oid4vci/nonce', remoteAddress: '203.0.113.9' });
    for (let i = 1; i <= OID4VCI_REQUESTS_PER_MINUTE && last.statusCode === 200; i++)
      last = await app.inject({ method: 'POST', url: '/oid4vci/nonce', remoteAddress: '203.0.113.9' });
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(last.json().error).toBe('invalid_request');
  });
});

/** A second key of the wallet, for DPoP (RFC 9449), as EUDI wallets keep one apart from the credential's. */
const dpopKeys = await generateKeyPair('ES256', { extractable: true });
const dpopJwk = await exportJWK(dpopKeys.publicKey);
const dpopSigner = { method: 'jwk' as const, alg: 'ES256', publicJwk: dpopJwk as never };
const dpopWallet = new Openid4vciClient({
  callbacks: {
    fetch: walletFetch as never,
    // The wallet signs its key proofs with its credential key and its DPoP proofs with the DPoP key.
    signJwt: async (signer: JwtSigner, { header, payload }) => {
      const dpop = header.typ === 'dpop+jwt';
      const jwt = await new SignJWT(payload).setProtectedHeader({ ...header, alg: signer.alg }).sign(dpop ? dpopKeys.privateKey : walletKeys.privateKey);
      return { jwt, signerJwk: (dpop ? dpopJwk : walletJwk) as never };
    },
    hash: (data, alg) => new Uint8Array(createHash(alg.replace('-', '').toLowerCase()).update(data).digest()),
    generateRandom: (length) => new Uint8Array(randomBytes(length)),
    clientAuthentication: clientAuthenticationAnonymous(),
  },
});
const now = () => Math.floor(Date.now() / 1000);
const ath = (token: string) => createHash('sha256').update(token).digest('base64url');
/** A DPoP proof made by hand, to spoil one part at a time. */
const dpopProof = (claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}, key: typeof dpopKeys.privateKey = dpopKeys.privateKey) =>
  new SignJWT({ htm: 'POST', htu: `${ISSUER}/oid4vci/token`, jti: randomUUID(), iat: now(), ...claims })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: dpopJwk, ...header })
    .sign(key);
const grantType = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
/** A fresh offer exchanged with a DPoP proof: its access token, bound to the DPoP key. */
const boundToken = async (diplomaId = mine.id) => {
  const code = codeOf((await offerFor(amani, diplomaId)).json().data);
  const response = await tokenRequest({ grant_type: grantType, 'pre-authorized_code': code }, { dpop: await dpopProof() });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json().token_type).toBe('DPoP');
  return response.json().access_token as string;
};
const resourceRequest = (path: 'credential' | 'notification', headers: Record<string, string>, body: unknown) =>
  app.inject({ method: 'POST', url: `/oid4vci/${path}`, remoteAddress: address(), headers, payload: body as object });
const credentialProof = (token: string, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) =>
  dpopProof({ htu: `${ISSUER}/oid4vci/credential`, ath: ath(token), ...claims }, header);

describe('a wallet using DPoP and a transaction code (the OpenWallet Foundation client)', () => {
  it('exchanges the code with its transaction code and a DPoP proof, receives the credential with a bound token, and notifies its acceptance', async () => {
    const created = await offerFor(amani, mine.id, { tx_code: true }, { 'x-locale': 'en' });
    expect(created.statusCode, created.body).toBe(201);
    const { data } = created.json();
    expect(data.tx_code).toMatch(/^\d{6}$/);
    expect(data.credential_offer.grants[grantType].tx_code).toEqual({
      input_mode: 'numeric',
      length: 6,
      description: 'Enter the 6-digit code shown on your "My diplomas and results" page.',
    });
    // The code itself is never in what the QR code carries.
    expect(data.offer_uri).not.toContain(data.tx_code);

    const offer = await dpopWallet.resolveCredentialOffer(data.offer_uri);
    const issuerMetadata = await dpopWallet.resolveIssuerMetadata(offer.credential_issuer);
    expect(issuerMetadata.authorizationServers[0]?.dpop_signing_alg_values_supported).toContain('ES256');
    const { accessTokenResponse, dpop } = await dpopWallet.retrievePreAuthorizedCodeAccessTokenFromOffer({
      credentialOffer: offer,
      issuerMetadata,
      txCode: data.tx_code,
      dpop: { signer: dpopSigner },
    });
    expect(accessTokenResponse.token_type).toBe('DPoP');
    // For the wallets of draft 13, the token response carries a c_nonce too.
    expect(typeof accessTokenResponse.c_nonce).toBe('string');
    expect(accessTokenResponse.c_nonce_expires_in).toBe(300);
    const [stored] = await ctx.db
      .select({ jkt: walletOffers.tokenJkt, txCodeHash: walletOffers.txCodeHash })
      .from(walletOffers)
      .where(offerOfCode(codeOf(data)));
    expect(stored!.jkt).toBe(await calculateJwkThumbprint(dpopJwk, 'sha256'));
    expect(stored!.txCodeHash).not.toContain(data.tx_code);

    const response = await requestSdJwt(dpopWallet, issuerMetadata, accessTokenResponse.access_token, { ...dpop!, signer: dpopSigner });
    const credential = (response.credentialResponse.credentials?.[0] as { credential: string } | undefined)?.credential;
    expect(decodeJwt(credential!.split('~')[0]!).cnf).toEqual({ jwk: { kty: walletJwk.kty, crv: walletJwk.crv, x: walletJwk.x, y: walletJwk.y } });
    const notificationId = response.credentialResponse.notification_id;
    expect(typeof notificationId).toBe('string');

    const notified = await dpopWallet.sendNotification({
      issuerMetadata,
      accessToken: accessTokenResponse.access_token,
      notification: { notificationId: notificationId!, event: 'credential_accepted' },
      dpop: { ...dpop!, signer: dpopSigner },
    });
    expect(notified.ok).toBe(true);
    expect(notified.response.status).toBe(204);
    const audit = await ctx.db.select({ action: auditLog.action, details: auditLog.details }).from(auditLog).where(eq(auditLog.action, 'diploma.wallet_notification'));
    expect(audit.map((a) => a.details)).toContainEqual(expect.objectContaining({ notification_id: notificationId, event: 'credential_accepted' }));
  });

  it('refuses a missing, unexpected or wrong transaction code, and voids the offer after 5 wrong ones', async () => {
    const { data } = (await offerFor(amani, mine.id, { tx_code: true })).json();
    const code = codeOf(data);
    // French by default.
    expect(data.credential_offer.grants[grantType].tx_code.description).toBe('Saisissez le code à 6 chiffres affiché sur votre page « Mes diplômes et résultats ».');
    expect((await tokenRequest({ grant_type: grantType, 'pre-authorized_code': code })).json().error).toBe('invalid_request');
    const wrong = String((Number(data.tx_code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 1; i <= TX_CODE_MAX_FAILURES; i++) {
      const answer = await tokenRequest({ grant_type: grantType, 'pre-authorized_code': code, tx_code: wrong });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({
        error: 'invalid_grant',
        error_description:
          i < TX_CODE_MAX_FAILURES ? `The transaction code is wrong (${TX_CODE_MAX_FAILURES - i} tries left)` : 'The transaction code is wrong: the offer is now void',
      });
    }
    // Void: even the right code no longer gives a token.
    const right = await tokenRequest({ grant_type: grantType, 'pre-authorized_code': code, tx_code: data.tx_code });
    expect(right.json()).toEqual({ error: 'invalid_grant', error_description: 'Too many wrong transaction codes: the offer is void' });

    // An offer without a code refuses one; an offer with a code takes the right one after a wrong one.
    const plain = codeOf((await offerFor(amani, mine.id)).json().data);
    expect((await tokenRequest({ grant_type: grantType, 'pre-authorized_code': plain, tx_code: '123456' })).json().error).toBe('invalid_request');
    const second = (await offerFor(amani, mine.id, { tx_code: true })).json().data;
    // The new offer (with a code) voided the one shown before it without a code.
    expect((await tokenRequest({ grant_type: grantType, 'pre-authorized_code': plain })).json()).toEqual({
      error: 'invalid_grant',
      error_description: 'The pre-authorized code is unknown, expired or already used',
    });
    expect((await tokenRequest({ grant_type: grantType, 'pre-authorized_code': codeOf(second), tx_code: 'x'.repeat(40) })).json().error).toBe('invalid_grant');
    const ok = await tokenRequest({ grant_type: grantType, 'pre-authorized_code': codeOf(second), tx_code: second.tx_code });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().token_type).toBe('Bearer');
    // An unknown body field is refused by the contract.
    expect((await offerFor(amani, mine.id, { tx_code: true, pin: 1 } as never)).statusCode).toBe(422);
  });
});

describe('DPoP at the token endpoint', () => {
  const exchangeWith = async (dpop: string | string[]) => {
    const code = codeOf((await offerFor(amani, mine.id)).json().data);
    const answer = await tokenRequest({ grant_type: grantType, 'pre-authorized_code': code }, { dpop } as Record<string, string>);
    return { answer, code };
  };

  it('refuses each spoilt proof with invalid_dpop_proof, before the code is spent', async () => {
    const other = await generateKeyPair('ES256', { extractable: true });
    const privateJwk = await exportJWK(dpopKeys.privateKey);
    const hs = await new SignJWT({ htm: 'POST', htu: `${ISSUER}/oid4vci/token`, jti: randomUUID(), iat: now() })
      .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt' })
      .sign(new Uint8Array(32));
    const cases: [string, string | string[]][] = [
      ['wrong htm', await dpopProof({ htm: 'GET' })],
      ['wrong htu', await dpopProof({ htu: `${ISSUER}/oid4vci/credential` })],
      ['another host', await dpopProof({ htu: 'https://evil.example/oid4vci/token' })],
      ['stale iat', await dpopProof({ iat: now() - 600 })],
      ['future iat', await dpopProof({ iat: now() + 600 })],
      ['no jti', await dpopProof({ jti: undefined })],
      ['wrong typ', await dpopProof({}, { typ: 'JWT' })],
      ['private key in jwk', await dpopProof({}, { jwk: privateJwk })],
      ['symmetric alg', hs],
      ['signed by another key', await dpopProof({}, {}, other.privateKey)],
      ['not a JWT', 'not.a.jwt'],
      ['too long', `${'a'.repeat(5000)}.b.c`],
      ['two headers', [await dpopProof(), await dpopProof()]],
    ];
    for (const [label, proof] of cases) {
      const { answer, code } = await exchangeWith(proof);
      expect(answer.statusCode, label).toBe(400);
      expect(answer.json().error, label).toBe('invalid_dpop_proof');
      // The code is still good: a bad proof spends nothing.
      const [row] = await ctx.db.select({ used: walletOffers.codeUsedAt }).from(walletOffers).where(offerOfCode(code));
      expect(row!.used, label).toBeNull();
    }
  });

  it('refuses a proof whose jwk carries any private member (d, p, q, dp, dq, qi, oth, k), before the code is spent; the same key public is accepted (ADR 0146)', async () => {
    const privateD = (await exportJWK(dpopKeys.privateKey)).d;
    for (const [member, value] of privateMembers(privateD)) {
      const { answer, code } = await exchangeWith(await dpopProof({}, { jwk: { ...dpopJwk, [member]: value } }));
      expect(answer.statusCode, member).toBe(400);
      expect(answer.json(), member).toEqual({ error: 'invalid_dpop_proof', error_description: 'The DPoP proof carries a private or symmetric key' });
      const [row] = await ctx.db.select({ used: walletOffers.codeUsedAt }).from(walletOffers).where(offerOfCode(code));
      expect(row!.used, member).toBeNull();
    }
    expect((await exchangeWith(await dpopProof())).answer.statusCode).toBe(200);
  });

  it('accepts the htu with a query or fragment and a different case of host, and refuses a replayed proof (same jti)', async () => {
    expect((await exchangeWith(await dpopProof({ htu: 'https://DIPLOMES.test/oid4vci/token?x=1#y' }))).answer.statusCode).toBe(200);
    const proof = await dpopProof();
    expect((await exchangeWith(proof)).answer.statusCode).toBe(200);
    const replayed = (await exchangeWith(proof)).answer;
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json()).toEqual({ error: 'invalid_dpop_proof', error_description: 'This DPoP proof was already used (its jti is spent)' });
  });

  it('refuses a header larger than the server reads, in the OAuth form', async () => {
    const { answer } = await exchangeWith('x'.repeat(20_000));
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toBe('invalid_dpop_proof');
  });
});

describe('a DPoP-bound token at the credential and notification endpoints', () => {
  it('needs the DPoP scheme, a proof of the same key for this request with the token hash (ath), each proof once', async () => {
    const token = await boundToken();
    const body = { credential_configuration_id: CONFIGURATION.openBadge };
    const dpop = (headers: Record<string, string>) => resourceRequest('credential', headers, body);

    const asBearer = await dpop({ authorization: `Bearer ${token}`, dpop: await credentialProof(token) });
    expect(asBearer.statusCode).toBe(401);
    expect(asBearer.json().error).toBe('invalid_token');
    expect(asBearer.headers['www-authenticate']).toBe('DPoP error="invalid_token", algs="ES256 ES384 ES512 EdDSA"');

    const noProof = await dpop({ authorization: `DPoP ${token}` });
    expect(noProof.statusCode).toBe(401);
    expect(noProof.json().error).toBe('invalid_dpop_proof');
    expect(noProof.headers['www-authenticate']).toBe('DPoP error="invalid_dpop_proof", algs="ES256 ES384 ES512 EdDSA"');

    const noAth = await dpop({ authorization: `DPoP ${token}`, dpop: await credentialProof(token, { ath: undefined }) });
    expect(noAth.statusCode).toBe(401);
    expect(noAth.json()).toEqual({ error: 'invalid_dpop_proof', error_description: "The DPoP proof's ath must be the hash of the access token" });
    expect((await dpop({ authorization: `DPoP ${token}`, dpop: await credentialProof(token, { ath: ath('another-token') }) })).json().error).toBe('invalid_dpop_proof');
    expect((await dpop({ authorization: `DPoP ${token}`, dpop: await credentialProof(token, { htu: `${ISSUER}/oid4vci/token` }) })).json().error).toBe('invalid_dpop_proof');

    // A proof by another key (its own jwk) is not the token's key.
    const other = await generateKeyPair('ES256', { extractable: true });
    const otherProof = await credentialProof(token, {});
    const byOther = await new SignJWT({ htm: 'POST', htu: `${ISSUER}/oid4vci/credential`, jti: randomUUID(), iat: now(), ath: ath(token) })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: await exportJWK(other.publicKey) })
      .sign(other.privateKey);
    const wrongKey = await dpop({ authorization: `DPoP ${token}`, dpop: byOther });
    expect(wrongKey.statusCode).toBe(401);
    expect(wrongKey.json()).toEqual({ error: 'invalid_dpop_proof', error_description: "The DPoP proof's key is not the access token's" });

    const ok = await dpop({ authorization: `DPoP ${token}`, dpop: otherProof });
    expect(ok.statusCode, ok.body).toBe(200);
    const { notification_id } = ok.json();
    const replayed = await dpop({ authorization: `DPoP ${token}`, dpop: otherProof });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().error).toBe('invalid_dpop_proof');

    // The notification endpoint: the same rules, its own htu.
    const notify = (headers: Record<string, string>, event = 'credential_deleted') => resourceRequest('notification', headers, { notification_id, event });
    expect((await notify({ authorization: `Bearer ${token}` })).statusCode).toBe(401);
    expect((await notify({ authorization: `DPoP ${token}`, dpop: await credentialProof(token) })).json().error).toBe('invalid_dpop_proof');
    const done = await notify({ authorization: `DPoP ${token}`, dpop: await dpopProof({ htu: `${ISSUER}/oid4vci/notification`, ath: ath(token) }) });
    expect(done.statusCode, done.body).toBe(204);
  });

  it('refuses a proof at the credential endpoint whose jwk carries any private member, with the DPoP challenge (ADR 0146)', async () => {
    const token = await boundToken();
    const body = { credential_configuration_id: CONFIGURATION.openBadge };
    const privateD = (await exportJWK(dpopKeys.privateKey)).d;
    for (const [member, value] of privateMembers(privateD)) {
      const answer = await resourceRequest(
        'credential',
        { authorization: `DPoP ${token}`, dpop: await credentialProof(token, {}, { jwk: { ...dpopJwk, [member]: value } }) },
        body,
      );
      expect(answer.statusCode, member).toBe(401);
      expect(answer.json(), member).toEqual({ error: 'invalid_dpop_proof', error_description: 'The DPoP proof carries a private or symmetric key' });
      expect(answer.headers['www-authenticate'], member).toBe('DPoP error="invalid_dpop_proof", algs="ES256 ES384 ES512 EdDSA"');
    }
    const ok = await resourceRequest('credential', { authorization: `DPoP ${token}`, dpop: await credentialProof(token) }, body);
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('keeps Bearer for a token issued without DPoP, and refuses it under the DPoP scheme', async () => {
    const token = await accessToken();
    const asDpop = await resourceRequest(
      'credential',
      { authorization: `DPoP ${token}`, dpop: await credentialProof(token) },
      { credential_configuration_id: CONFIGURATION.openBadge },
    );
    expect(asDpop.statusCode).toBe(401);
    expect(asDpop.json().error).toBe('invalid_token');
    const asBearer = await credentialRequest(token, { credential_configuration_id: CONFIGURATION.openBadge });
    expect(asBearer.statusCode, asBearer.body).toBe(200);
    // An Authorization header beyond any token's length is refused unread.
    expect((await resourceRequest('credential', { authorization: `Bearer ${'a'.repeat(4000)}` }, {})).statusCode).toBe(401);
  });
});

describe('a wallet of draft 13', () => {
  it('asks with format and vct and a singular proof, and receives a singular credential, a fresh c_nonce and a notification_id', async () => {
    const code = codeOf((await offerFor(amani, mine.id)).json().data);
    const tokenAnswer = (await tokenRequest({ grant_type: grantType, 'pre-authorized_code': code })).json();
    expect(tokenAnswer).toMatchObject({ token_type: 'Bearer', c_nonce: expect.any(String), c_nonce_expires_in: 300 });
    // The c_nonce of the token response is good for a key proof (draft 13 has no nonce endpoint).
    const first = await credentialRequest(tokenAnswer.access_token, {
      format: 'vc+sd-jwt',
      vct: VCT,
      proof: { proof_type: 'jwt', jwt: await proof({ nonce: tokenAnswer.c_nonce }) },
    });
    expect(first.statusCode, first.body).toBe(200);
    const answer = first.json();
    expect(answer.credentials).toBeUndefined();
    expect(typeof answer.credential).toBe('string');
    expect(decodeJwt(answer.credential.split('~')[0]).vct).toBe(VCT);
    expect(answer).toMatchObject({ c_nonce: expect.any(String), c_nonce_expires_in: 300, notification_id: expect.any(String) });
    // The credential response's c_nonce serves the next request; dc+sd-jwt is accepted as the same.
    const second = await credentialRequest(tokenAnswer.access_token, { format: 'dc+sd-jwt', vct: VCT, proof: { proof_type: 'jwt', jwt: await proof({ nonce: answer.c_nonce }) } });
    expect(second.statusCode, second.body).toBe(200);
    // The Open Badges VC by its credential_definition.
    const badge = await credentialRequest(tokenAnswer.access_token, {
      format: 'ldp_vc',
      credential_definition: { '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiableCredential', 'OpenBadgeCredential'] },
    });
    expect(badge.statusCode, badge.body).toBe(200);
    expect(badge.json().credential.type).toEqual(['VerifiableCredential', 'OpenBadgeCredential']);
    // Another vct, a proof of another type, or both proof and proofs are refused.
    expect((await credentialRequest(tokenAnswer.access_token, { format: 'vc+sd-jwt', vct: 'https://other.example/vct' })).json().error).toBe('unsupported_credential_type');
    expect((await credentialRequest(tokenAnswer.access_token, { format: 'vc+sd-jwt', vct: VCT, proof: { proof_type: 'cwt', cwt: 'x' } })).json().error).toBe('invalid_proof');
    const both = await credentialRequest(tokenAnswer.access_token, {
      format: 'vc+sd-jwt',
      vct: VCT,
      proof: { proof_type: 'jwt', jwt: 'a' },
      proofs: { jwt: ['a'] },
    });
    expect(both.json().error).toBe('invalid_credential_request');
  });
});

describe('the notification endpoint', () => {
  it("answers 204 for each event of a credential of this token, and refuses another token's id, an unknown event or a malformed body", async () => {
    const token = await accessToken();
    const issued = await credentialRequest(token, { credential_configuration_id: CONFIGURATION.openBadge });
    const { notification_id } = issued.json();
    const notify = (body: unknown, bearer = token) => resourceRequest('notification', as(bearer), body);
    for (const event of ['credential_accepted', 'credential_failure', 'credential_deleted']) {
      const answer = await notify({ notification_id, event, event_description: 'Stored in the wallet' });
      expect(answer.statusCode, answer.body).toBe(204);
      expect(answer.body).toBe('');
    }
    const recorded = await ctx.db.select({ details: auditLog.details, actorId: auditLog.actorId }).from(auditLog).where(eq(auditLog.action, 'diploma.wallet_notification'));
    const mineRecorded = recorded.filter((row) => (row.details as { notification_id?: string }).notification_id === notification_id);
    expect(mineRecorded.map((row) => (row.details as { event: string }).event)).toEqual(['credential_accepted', 'credential_failure', 'credential_deleted']);
    // The wallet's free text is not kept.
    expect(JSON.stringify(mineRecorded)).not.toContain('Stored in the wallet');

    const otherToken = await accessToken();
    expect((await notify({ notification_id, event: 'credential_accepted' }, otherToken)).json().error).toBe('invalid_notification_id');
    // An id this token never received, of the right shape or not, and one of the former `<offer>.<n>` form.
    expect((await notify({ notification_id: randomBytes(16).toString('base64url'), event: 'credential_accepted' })).json().error).toBe('invalid_notification_id');
    expect((await notify({ notification_id: 'abc', event: 'credential_accepted' })).json().error).toBe('invalid_notification_id');
    expect((await notify({ notification_id: `${await offerIdOf(token)}.1`, event: 'credential_accepted' })).json().error).toBe('invalid_notification_id');
    // Each token its own ids: the other token's is refused with this one.
    const otherId = (await credentialRequest(otherToken, { credential_configuration_id: CONFIGURATION.openBadge })).json().notification_id;
    expect((await notify({ notification_id: otherId, event: 'credential_accepted' }, otherToken)).statusCode).toBe(204);
    const refused = await notify({ notification_id: otherId, event: 'credential_accepted' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'invalid_notification_id', error_description: 'This notification_id was not issued with this access token' });
    expect((await notify({ notification_id, event: 'credential_lost' })).json().error).toBe('invalid_notification_request');
    expect((await notify({ event: 'credential_accepted' })).json().error).toBe('invalid_notification_request');
    expect((await notify([1, 2])).json().error).toBe('invalid_notification_request');
    const missing = await resourceRequest('notification', {}, { notification_id, event: 'credential_accepted' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error).toBe('invalid_token');
    const large = await notify({ notification_id, event: 'credential_accepted', event_description: 'x'.repeat(4000) });
    expect(large.statusCode).toBe(413);
    expect(large.json().error).toBe('invalid_request');
  });

  it('gives opaque ids: random, distinct, telling neither the offer nor how many credentials it gave', async () => {
    // Offer ids far from any a random id could hold by chance, so that "does not contain" means something.
    await ctx.db.execute(sql`select setval('wallet_offers_id_seq', 987654320)`);
    const token = await accessToken();
    const offerId = await offerIdOf(token);
    expect(offerId).toBeGreaterThan(987654320);
    const ids: string[] = [];
    for (let n = 0; n < 2; n++) ids.push((await credentialRequest(token, { credential_configuration_id: CONFIGURATION.openBadge })).json().notification_id);
    ids.push((await credentialRequest(await accessToken(), { credential_configuration_id: CONFIGURATION.openBadge })).json().notification_id);
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(id).not.toContain(String(offerId));
      expect(id).not.toContain(String(offerId + 1));
    }
    expect(new Set(ids).size).toBe(3);
    // 128 random bits each: two ids of the same offer differ in about half their bits, not in a counter's last ones.
    const bits = (a: string, b: string) => [...Buffer.from(a, 'base64url')].reduce((sum, byte, i) => sum + popcount(byte ^ Buffer.from(b, 'base64url')[i]!), 0);
    expect(Buffer.from(ids[0]!, 'base64url')).toHaveLength(16);
    expect(bits(ids[0]!, ids[1]!)).toBeGreaterThan(24);
    // Both accepted with their token, and kept with their offer only.
    for (const id of ids.slice(0, 2)) expect((await resourceRequest('notification', as(token), { notification_id: id, event: 'credential_accepted' })).statusCode).toBe(204);
    const stored = await ctx.db.select({ id: walletNotifications.id }).from(walletNotifications).where(eq(walletNotifications.offerId, offerId));
    expect(stored.map((row) => row.id).sort()).toEqual(ids.slice(0, 2).sort());
  });
});

function popcount(byte: number): number {
  let count = 0;
  for (let b = byte; b; b >>= 1) count += b & 1;
  return count;
}
