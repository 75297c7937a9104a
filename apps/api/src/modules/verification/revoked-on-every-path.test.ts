// Issue 17, "revoked consistently on every path": one diploma revoked, then its whole batch, and
// every form the platform gives of a diploma says so: the PDF's upload, its QR payload, GET
// /api/verify/{id}, the W3C VC (its Bitstring Status List bit and its upload), the SD-JWT VC (its
// Token Status List bit and its upload), the OpenID4VCI credential endpoint, and the chain.
/// <reference path="../../../../../packages/vc/src/digitalbazaar.d.ts" />
import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { bitstringEntry, createDocumentLoader, type DidDocument, verifyOpenBadgeCredential } from '@sceau/vc';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';
import { signIn } from '../../../test/helpers.ts';
import { buildApp, type App } from '../../app.ts';
import { diplomas, generations } from '../../db/schema.ts';
import { JobQueue } from '../../jobs/job-queue.ts';
import { seedDemoBatch } from '../../seed/demo-batch.ts';
import { createServices, type Services } from '../../services.ts';
import { heldBy, holderAccount } from '../holder/holder-test-support.ts';
import { CONFIGURATION } from '../oid4vci/oid4vci-service.ts';

const PUBLIC_URL = 'https://diplomes.example.cd';
const DID = 'did:web:diplomes.example.cd';
const PHONE = '+243812340999';

let ctx: ChainTestContext;
let services: Services;
let app: App;
let queue: JobQueue;
let rows: (typeof diplomas.$inferSelect)[];
let holder: string;
let admin: Record<string, string>;

/** Everything a diploma was given out as, taken while it was valid. */
interface Forms {
  row: typeof diplomas.$inferSelect;
  pdf: Buffer;
  vc: Record<string, unknown>;
  sdJwt: string;
  /** An OpenID4VCI access token obtained before the revocation. */
  walletToken: string;
  statusIndex: number;
}

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
const asHolder = () => ({ authorization: `Bearer ${holder}` });

function upload(part: { name: 'cert_document' | 'cert_url'; filename?: string; data: Buffer | string }) {
  const boundary = '----sceau-revoked';
  const disposition = part.filename ? `form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: application/octet-stream` : `form-data; name="${part.name}"`;
  const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`), Buffer.from(part.data), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return app.inject({ method: 'POST', url: '/api/generations/verify', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-locale': 'en' }, payload });
}

/** A wallet's key proof for the credential endpoint (OpenID4VCI 1.0, appendix F.1). */
const walletKeys = await generateKeyPair('ES256', { extractable: true });
const walletJwk = await exportJWK(walletKeys.publicKey);
async function keyProof(): Promise<string> {
  const nonce = (await app.inject({ method: 'POST', url: '/oid4vci/nonce' })).json().c_nonce as string;
  return new SignJWT({ nonce }).setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: walletJwk }).setAudience(PUBLIC_URL).setIssuedAt().sign(walletKeys.privateKey);
}
const credentialRequest = async (token: string, configuration: string) =>
  app.inject({
    method: 'POST',
    url: '/oid4vci/credential',
    headers: { authorization: `Bearer ${token}` },
    payload:
      configuration === CONFIGURATION.sdJwt ? { credential_configuration_id: configuration, proofs: { jwt: [await keyProof()] } } : { credential_configuration_id: configuration },
  });

async function formsOf(row: typeof diplomas.$inferSelect): Promise<Forms> {
  const vc = await get(`/api/holder/diplomas/${row.id}/vc`, asHolder());
  const sdJwt = await get(`/api/holder/diplomas/${row.id}/sd-jwt`, asHolder());
  expect([vc.statusCode, sdJwt.statusCode]).toEqual([200, 200]);
  const offer = await app.inject({ method: 'POST', url: `/api/holder/diplomas/${row.id}/wallet-offer`, headers: asHolder() });
  expect(offer.statusCode, offer.body).toBe(201);
  const code = offer.json().data.credential_offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']['pre-authorized_code'] as string;
  const token = await app.inject({
    method: 'POST',
    url: '/oid4vci/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': code }).toString(),
  });
  expect(token.statusCode, token.body).toBe(200);
  return {
    row,
    pdf: (await services.storage.get(row.pdfKey!))!,
    vc: vc.json(),
    sdJwt: sdJwt.body,
    walletToken: token.json().access_token,
    statusIndex: (await services.credentialStatus.entryFor(row.id)).index,
  };
}

/** The verdict and the not_revoked check's code of every path, in one object to compare at once. */
async function everyPath(forms: Forms) {
  const verdict = (res: Awaited<ReturnType<typeof upload>>) => {
    const data = res.json().data as { verdict: string; checks: { name: string; status: string; code: string }[] };
    return `${data.verdict}${data.checks.some((c) => c.name === 'not_revoked' && c.status !== 'passed') ? ` (${data.checks.find((c) => c.name === 'not_revoked')?.code})` : ''}`;
  };
  const statusToken = await get('/credentials/status/0/token');
  const bitstring = (await get('/credentials/status/0')).json();
  const didDocument = (await get('/.well-known/did.json')).json() as DidDocument;
  const loader = createDocumentLoader({
    didDocuments: [didDocument],
    resolve: async (url) => (url.startsWith(`${PUBLIC_URL}/credentials/status/`) ? (await get(url.slice(PUBLIC_URL.length))).json() : null),
  });
  const outside = await verifyOpenBadgeCredential(forms.vc, { documentLoader: loader, trust: { issuers: [DID] } });
  const wallet = await Promise.all(
    [CONFIGURATION.openBadge, CONFIGURATION.sdJwt].map(async (configuration) => (await credentialRequest(forms.walletToken, configuration)).json().error ?? 'issued'),
  );
  const newOffer = (await app.inject({ method: 'POST', url: `/api/holder/diplomas/${forms.row.id}/wallet-offer`, headers: asHolder() })).statusCode;
  const [batch] = await ctx.db.select({ merkleRoot: generations.merkleRoot }).from(generations).where(eq(generations.id, forms.row.generationId));
  return {
    pdf: verdict(await upload({ name: 'cert_document', filename: 'diplome.pdf', data: forms.pdf })),
    qr: verdict(await upload({ name: 'cert_url', data: forms.row.qrPayload })),
    byId: verdict(await get(`/api/verify/${forms.row.id}`, { 'x-locale': 'en' })),
    vcBitstringBit: bitstringEntry(bitstring.credentialSubject.encodedList, forms.statusIndex),
    vcOutsideVerifier: outside.revoked,
    vcUpload: verdict(await upload({ name: 'cert_document', filename: 'diplome.vc.json', data: JSON.stringify(forms.vc) })),
    sdJwtTokenStatus: getListFromStatusListJWT(statusToken.body).getStatus(forms.statusIndex),
    sdJwtUpload: verdict(await upload({ name: 'cert_document', filename: 'diplome.sd-jwt', data: forms.sdJwt })),
    oid4vciCredential: wallet,
    oid4vciNewOffer: newOffer,
    chain: [await ctx.chain.registry.isRevoked(`0x${forms.row.targetHash}`), await ctx.chain.registry.isRevoked(`0x${batch!.merkleRoot}`)],
  };
}

/**
 * The revocation is recorded at once and written to the chain by a job, which then clears the
 * answers kept by every path (ADR 0106): until then, each path may still give its earlier answer.
 */
async function untilWritten(id: string, expected: string) {
  await vi.waitFor(
    async () => {
      const [row] = await ctx.db.select({ generationId: diplomas.generationId, tx: diplomas.revocationTxHash }).from(diplomas).where(eq(diplomas.id, id));
      const [batch] = await ctx.db.select({ tx: generations.revocationTxHash }).from(generations).where(eq(generations.id, row!.generationId));
      expect(row!.tx ?? batch!.tx).toMatch(/^0x[0-9a-f]{64}$/);
      const data = (await get(`/api/verify/${id}`)).json().data as { verdict: string; checks: { name: string; code: string }[] };
      expect(`${data.verdict} (${data.checks.find((c) => c.name === 'not_revoked')?.code})`).toBe(expected);
    },
    { timeout: 30_000, interval: 250 },
  );
}

beforeAll(async () => {
  ctx = await createChainTestApp({ PUBLIC_URL });
  queue = new JobQueue(ctx.databaseUrl, ctx.log);
  services = createServices(ctx.db, ctx.config, { identity: { keys: ctx.keys, chain: ctx.chain }, queue });
  queue.define(services.revocation!.job);
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  const batchId = await seedDemoBatch(ctx.db, services.storage, services.issuing!);
  rows = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId)).orderBy(diplomas.id);
  await heldBy(ctx.db, rows.slice(0, 2), { phone: PHONE });
  holder = await holderAccount(ctx, 'Amani', { phone: PHONE });
  admin = { authorization: `Bearer ${await signIn(ctx, 'admin@sceau.example')}` };
  await queue.start({ work: true, pollingIntervalSeconds: 0.5 });
}, 180_000);
afterAll(async () => {
  await queue?.stop();
  await app?.close();
  await ctx?.close();
});

describe('revoked on every path', () => {
  it('one diploma revoked: the PDF, the QR code, /verify, the VC, the SD-JWT VC, the wallet issuance and the chain all say so; its neighbour stays authentic', {
    timeout: 90_000,
  }, async () => {
    const target = await formsOf(rows[0]!);
    const neighbour = await formsOf(rows[1]!);
    expect(await everyPath(target)).toMatchObject({
      pdf: 'authentic',
      qr: 'authentic',
      byId: 'authentic',
      vcBitstringBit: false,
      vcOutsideVerifier: false,
      sdJwtTokenStatus: 0,
      chain: [false, false],
    });
    // The check above spent the wallet tokens' first credentials: take new ones.
    target.walletToken = (await formsOf(rows[0]!)).walletToken;
    neighbour.walletToken = (await formsOf(rows[1]!)).walletToken;

    const accepted = await app.inject({ method: 'POST', url: `/api/diplomas/${target.row.id}/revoke`, headers: admin, payload: { reason: 'Fraude constatée au centre' } });
    expect(accepted.statusCode, accepted.body).toBe(202);
    await untilWritten(target.row.id, 'revoked (diploma_revoked)');

    const revoked = 'revoked (diploma_revoked)';
    expect(await everyPath(target)).toEqual({
      pdf: revoked,
      qr: revoked,
      byId: revoked,
      vcBitstringBit: true,
      vcOutsideVerifier: true,
      vcUpload: revoked,
      sdJwtTokenStatus: 1,
      sdJwtUpload: revoked,
      oid4vciCredential: ['credential_request_denied', 'credential_request_denied'],
      oid4vciNewOffer: 409,
      chain: [true, false],
    });
    expect(await everyPath(neighbour)).toMatchObject({
      pdf: 'authentic',
      qr: 'authentic',
      byId: 'authentic',
      vcBitstringBit: false,
      vcOutsideVerifier: false,
      vcUpload: 'authentic',
      sdJwtTokenStatus: 0,
      sdJwtUpload: 'authentic',
      oid4vciCredential: ['issued', 'issued'],
      oid4vciNewOffer: 201,
      chain: [false, false],
    });
  });

  it('the whole batch revoked: every path says so for a diploma that was not revoked by itself', { timeout: 90_000 }, async () => {
    const forms = await formsOf(rows[1]!);
    const accepted = await app.inject({
      method: 'POST',
      url: `/api/generations/${forms.row.generationId}/revoke`,
      headers: admin,
      payload: { reason: 'Session annulée par le jury' },
    });
    expect(accepted.statusCode, accepted.body).toBe(202);
    await untilWritten(forms.row.id, 'revoked (batch_revoked)');

    const paths = await everyPath(forms);
    const revoked = 'revoked (batch_revoked)';
    expect(paths).toEqual({
      pdf: revoked,
      qr: revoked,
      byId: revoked,
      vcBitstringBit: true,
      vcOutsideVerifier: true,
      vcUpload: expect.stringMatching(/^revoked/),
      sdJwtTokenStatus: 1,
      sdJwtUpload: expect.stringMatching(/^revoked/),
      oid4vciCredential: ['credential_request_denied', 'credential_request_denied'],
      oid4vciNewOffer: 409,
      chain: [false, true],
    });
  });
});
