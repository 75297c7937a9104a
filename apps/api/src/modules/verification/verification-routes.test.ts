import { verificationResponse } from '@sceau/contracts';
import { brotliCompressSync, brotliDecompressSync, constants as zlib, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { z } from 'zod';
import { buildApp, type App } from '../../app.ts';
import { diplomas } from '../../db/schema.ts';
import { seedDemoBatch } from '../../seed/demo-batch.ts';
import { createServices, type Services } from '../../services.ts';
import { signIn } from '../../../test/helpers.ts';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';
import { JobQueue } from '../../jobs/job-queue.ts';
import { DEFAULT_BROTLI_QUALITY, HOT_ROUTE_BROTLI_QUALITY, processCompressionLoad } from '../../lib/compression.ts';
import { registry } from '../../prometheus/metrics.ts';
import { hideFields, ISSUER_FIELDS, NON_PUBLIC_FIELDS, PUBLIC_FIELDS, verifyDocument, verifyIssuerSignature, type CredentialDocument } from '@sceau/credential';

let ctx: ChainTestContext;
let services: Services;
let app: App;
let queue: JobQueue;
let rows: (typeof diplomas.$inferSelect)[];

beforeAll(async () => {
  ctx = await createChainTestApp({ PUBLIC_URL: 'http://diplomes.test' });
  // Started by the revocation test only: nothing else here sends jobs.
  queue = new JobQueue(ctx.databaseUrl, ctx.log);
  services = createServices(ctx.db, ctx.config, { identity: { keys: ctx.keys, chain: ctx.chain }, queue });
  queue.define(services.revocation!.job);
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  const batchId = await seedDemoBatch(ctx.db, services.storage, services.issuing!);
  rows = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId));
}, 120_000);
afterAll(async () => {
  await app?.close();
  await ctx?.close();
});

function upload(fields: { file?: { data: Uint8Array; name: string; type: string }; url?: string }, headers: Record<string, string> = {}) {
  const boundary = '----sceau-verify';
  const chunks: Buffer[] = [];
  if (fields.url !== undefined) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="cert_url"\r\n\r\n${fields.url}\r\n`));
  if (fields.file) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="cert_document"; filename="${fields.file.name}"\r\nContent-Type: ${fields.file.type}\r\n\r\n`));
    chunks.push(Buffer.from(fields.file.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return app.inject({
    method: 'POST',
    url: '/api/generations/verify',
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(chunks),
  });
}

const statusOf = (body: { data: { checks: { name: string; status: string }[] } }) => Object.fromEntries(body.data.checks.map((c) => [c.name, c.status]));

describe('verification', () => {
  it('by id: authentic, every check passed and named in plain words, with the public fields and the public credential', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/verify/${rows[0]!.id}` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.verdict).toBe('authentic');
    expect(body.data.verdict_label).toBe('Authentique');
    expect(statusOf(body)).toEqual({ integrity: 'passed', issuer_signature: 'passed', issuer_identity: 'passed', anchored: 'passed', not_revoked: 'passed' });
    const anchored = body.data.checks.find((c: { name: string }) => c.name === 'anchored');
    expect(anchored.title).toBe('Inscrit sur la blockchain');
    expect(anchored.details).toMatchObject({ chainId: 72328 });
    expect(body.data.diploma.id).toBe(rows[0]!.id);
    expect(body.data.diploma.candidate_code).toBeUndefined();
    expect(body.data.credential.record.candidate_code).toBeUndefined();
    expect(body.data.credential.signature.targetHash).toBe(rows[0]!.targetHash);
  });

  it('by id: the credential discloses the public fields only (no value, no salt of the others) and still verifies independently (ADR 0134)', async () => {
    const stored = rows[0]!.credential as unknown as CredentialDocument;
    const res = await app.inject({ method: 'GET', url: `/api/verify/${rows[0]!.id}` });
    const { credential, diploma } = res.json().data as { credential: CredentialDocument; diploma: Record<string, unknown> };
    expect(Object.keys(credential.record).sort()).toEqual([...PUBLIC_FIELDS].sort());
    expect(Object.keys(credential.salts).sort()).toEqual([...PUBLIC_FIELDS, ...ISSUER_FIELDS].sort());
    expect(NON_PUBLIC_FIELDS).toContain('candidate_code');
    for (const field of NON_PUBLIC_FIELDS) {
      expect(credential.record[field], field).toBeUndefined();
      expect(credential.salts[field], field).toBeUndefined();
      expect(res.body, field).not.toContain(stored.salts[field]!);
    }
    expect(res.body).not.toContain(stored.record.candidate_code!);
    // The same proof and signature, and it verifies from its own content, with the published keys, and on chain.
    expect(credential.signature).toEqual(stored.signature);
    const checked = verifyDocument(credential);
    expect(checked).toMatchObject({ integrity: 'ok', targetHash: rows[0]!.targetHash, merkleRoot: stored.signature.merkleRoot, hiddenFields: NON_PUBLIC_FIELDS });
    const jwks = (await app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    expect(verifyIssuerSignature(credential.signature.merkleRoot, credential.signature.issuerSignature, jwks)).toBe('valid');
    const again = await upload({ file: { data: new TextEncoder().encode(JSON.stringify(credential)), name: 'public.json', type: 'application/json' } });
    expect(again.json().data.verdict).toBe('authentic');
    expect(again.json().data.diploma.hidden_fields).toEqual([...NON_PUBLIC_FIELDS]);
    // What the answer shows of the diploma is exactly the disclosed fields: all provable, nothing more.
    const shown = Object.entries(diploma).filter(([key]) => key !== 'hidden_fields');
    const disclosed = Object.entries(credential.record).map(([key, value]) =>
      key === 'diploma_id' ? ['id', value] : key === 'issuer' ? ['issuer', { id: value, name: credential.issuer.name }] : [key, value],
    );
    expect(Object.fromEntries(shown)).toEqual(Object.fromEntries(disclosed));
  });

  it('by id: the bytes are the whole answer through the response schema, cold or cached, known or unknown (ADR 0153)', async () => {
    const throughSchema = (body: string) => JSON.stringify(z.encode(verificationResponse, JSON.parse(body)));
    for (const url of [`/api/verify/${rows[1]!.id}`, `/api/verify/${rows[1]!.id}`, `/api/verify/${'B'.repeat(22)}`]) {
      for (const locale of ['fr', 'en']) {
        const res = await app.inject({ method: 'GET', url, headers: { 'x-locale': locale } });
        expect(res.body).toBe(throughSchema(res.body));
        expect(Object.keys(res.json().data)).toEqual(['verdict', 'verdict_label', 'source', 'checks', 'diploma', 'credential', 'diploma_kind']);
      }
    }
    // The credential kept with a cached answer (as text) is the one given when it was computed.
    const first = await services.verification!.verifyById(rows[1]!.id);
    const again = await services.verification!.verifyById(rows[1]!.id);
    expect(again.result).toBe(first.result);
    expect(again.credentialJson).toBe(JSON.stringify(first.credential));
    expect(again.credential).toEqual(first.credential);
    expect(again.credential?.signature.targetHash).toBe(rows[1]!.targetHash);
    expect(again.kind).toBe(first.kind);
  });

  it("by id: the answer goes out compressed as the client accepts, brotli at the hot routes' quality, the same bytes once decompressed", async () => {
    const url = `/api/verify/${rows[2]!.id}`;
    // Whatever the test process's own load (a saturated process sends it as it is: the next test).
    const idle = vi.spyOn(processCompressionLoad, 'saturated').mockReturnValue(false);
    onTestFinished(() => idle.mockRestore());
    const plain = await app.inject({ method: 'GET', url, headers: { 'x-locale': 'fr' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    // What a phone's browser sends: brotli, at the quality of the answers written per request (lib/compression.ts).
    const br = await app.inject({ method: 'GET', url, headers: { 'x-locale': 'fr', 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.equals(brotliCompressSync(plain.rawPayload, { params: { [zlib.BROTLI_PARAM_QUALITY]: HOT_ROUTE_BROTLI_QUALITY } }))).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    const gzip = await app.inject({ method: 'GET', url, headers: { 'x-locale': 'fr', 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    // The rest of the API keeps the app's quality.
    expect(HOT_ROUTE_BROTLI_QUALITY).toBeLessThan(DEFAULT_BROTLI_QUALITY);
  });

  it('by id: while the process is saturated, the answer goes out as it is (the same bytes), counted, and compressed again once the load drops', async () => {
    const url = `/api/verify/${rows[3]!.id}`;
    const phone = { 'x-locale': 'fr', 'accept-encoding': 'gzip, deflate, br, zstd' };
    const plain = await app.inject({ method: 'GET', url, headers: { 'x-locale': 'fr' } });
    const counted = async () =>
      (await registry.getSingleMetric('sceau_http_answers_uncompressed_under_load_total')!.get()).values.find((v) => v.labels.route === '/api/verify/:id')?.value ?? 0;
    const before = await counted();
    const saturated = vi.spyOn(processCompressionLoad, 'saturated').mockReturnValue(true);
    try {
      // Cold, then cached: both paths.
      for (const id of [rows[4]!.id, rows[4]!.id, rows[3]!.id]) {
        const res = await app.inject({ method: 'GET', url: `/api/verify/${id}`, headers: phone });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBeUndefined();
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(res.json().data.diploma.id).toBe(id);
      }
      expect(await counted()).toBe(before + 3);
      expect((await app.inject({ method: 'GET', url, headers: phone })).body).toBe(plain.body);
    } finally {
      saturated.mockRestore();
    }
    // The load dropped (whatever the test process's own).
    const idle = vi.spyOn(processCompressionLoad, 'saturated').mockReturnValue(false);
    onTestFinished(() => idle.mockRestore());
    const again = await app.inject({ method: 'GET', url, headers: phone });
    expect(again.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(again.rawPayload).toString()).toBe(plain.body);
  });

  it('an uploaded document is answered without any credential: nothing more than was sent', async () => {
    const stored = rows[2]!.credential as unknown as CredentialDocument;
    const partial = hideFields(stored, ['last_name', 'birth_date', 'percentage']);
    const answers = [
      await upload({ file: { data: new TextEncoder().encode(JSON.stringify(partial)), name: 'partial.json', type: 'application/json' } }),
      await upload({ url: rows[2]!.qrPayload }),
      await upload({ url: `http://diplomes.test/verify/${rows[2]!.id}` }),
      await upload({ file: { data: (await services.storage.get(rows[2]!.pdfKey!))!, name: 'diplome.pdf', type: 'application/pdf' } }),
    ];
    for (const res of answers) {
      expect(res.json().data.verdict).toBe('authentic');
      expect(res.json().data).not.toHaveProperty('credential');
      for (const field of NON_PUBLIC_FIELDS) expect(res.body, field).not.toContain(stored.salts[field]!);
      expect(res.body).not.toContain(stored.record.candidate_code!);
    }
    // A field the holder hid stays hidden in the answer.
    const [fromPartial] = answers;
    expect(fromPartial!.json().data.diploma).not.toHaveProperty('last_name');
    expect(fromPartial!.json().data.diploma).not.toHaveProperty('percentage');
    expect(fromPartial!.json().data.diploma.hidden_fields).toEqual(expect.arrayContaining(['last_name', 'birth_date', 'percentage']));
    expect(fromPartial!.body).not.toContain(stored.salts.last_name!);
  });

  it('by PDF upload: authentic with its PDF signature; one changed byte is caught', async () => {
    const pdf = (await services.storage.get(rows[1]!.pdfKey!))!;
    const good = await upload({ file: { data: pdf, name: 'diplome.pdf', type: 'application/pdf' } }, { 'x-locale': 'en' });
    expect(good.json().data.verdict).toBe('authentic');
    expect(statusOf(good.json()).pdf_signature).toBe('passed');

    // One byte changed inside the signed content (the text is drawn with font subsets, not plain letters).
    const tampered = Buffer.from(pdf);
    tampered[2000] = tampered[2000]! ^ 0x01;
    const bad = await upload({ file: { data: tampered, name: 'diplome.pdf', type: 'application/pdf' } }, { 'x-locale': 'en' });
    expect(bad.json().data.verdict).toBe('altered');
    const pdfCheck = bad.json().data.checks.find((c: { name: string }) => c.name === 'pdf_signature');
    expect(pdfCheck).toMatchObject({ status: 'failed', message: 'The PDF was changed after it was signed.' });
  });

  it('by credential file: a changed field is altered', async () => {
    const credential = structuredClone(rows[2]!.credential) as { record: Record<string, unknown> };
    const good = await upload({ file: { data: new TextEncoder().encode(JSON.stringify(credential)), name: 'credential.json', type: 'application/json' } });
    expect(good.json().data.verdict).toBe('authentic');
    credential.record.percentage = 95;
    const bad = await upload({ file: { data: new TextEncoder().encode(JSON.stringify(credential)), name: 'credential.json', type: 'application/json' } });
    expect(bad.json().data.verdict).toBe('altered');
    expect(statusOf(bad.json()).integrity).toBe('failed');
  });

  it('by QR content and by link; a forged QR and an unknown id are named', async () => {
    expect((await upload({ url: rows[3]!.qrPayload })).json().data.verdict).toBe('authentic');
    expect((await upload({ url: `http://diplomes.test/verify/${rows[3]!.id}` })).json().data.verdict).toBe('authentic');
    const forged = rows[3]!.qrPayload.slice(0, 40) + (rows[3]!.qrPayload[40] === 'A' ? 'B' : 'A') + rows[3]!.qrPayload.slice(41);
    expect((await upload({ url: forged })).json().data.verdict).toBe('altered');
    const unknown = await app.inject({ method: 'GET', url: '/api/verify/AAAAAAAAAAAAAAAAAAAAAA' });
    expect(unknown.json().data.verdict).toBe('unknown');
  });

  it('answers bad input with a clear, translated 422', async () => {
    const none = await upload({}, { 'x-locale': 'en' });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.cert_document).toEqual(['Upload a document or enter a link']);
    const notUrl = await upload({ url: 'pas un lien' });
    expect(notUrl.json().errors.cert_url).toEqual(['Lien invalide']);
    const elsewhere = await upload({ url: 'https://example.com/page' });
    expect(elsewhere.json().errors.cert_url).toEqual(['Ce lien ne mène pas à un diplôme de la plateforme']);
    const image = await upload({ file: { data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), name: 'x.png', type: 'image/png' } });
    expect(image.statusCode).toBe(422);
    const huge = await upload({ file: { data: new Uint8Array(6 * 1024 * 1024), name: 'big.pdf', type: 'application/pdf' } }, { 'x-locale': 'en' });
    expect(huge.json().errors.cert_document).toEqual(['The file must not exceed 5 MB']);
    expect((await app.inject({ method: 'GET', url: '/api/verify/short' })).statusCode).toBe(422);
  });

  it('answers with the same security headers as the rest of the API, on first and later answers and on errors', async () => {
    const securityOf = (headers: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(headers).filter(([name]) => !['content-type', 'content-length', 'content-language', 'date', 'connection', 'keep-alive', 'x-request-id'].includes(name)),
      );
    const reference = securityOf((await app.inject({ method: 'GET', url: '/api/health' })).headers);
    expect(reference['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(reference['x-content-type-options']).toBe('nosniff');
    for (const url of [`/api/verify/${rows[0]!.id}`, `/api/verify/${rows[0]!.id}`, '/api/verify/short']) {
      expect(securityOf((await app.inject({ method: 'GET', url })).headers)).toEqual(reference);
    }
    expect(securityOf((await upload({ url: `http://diplomes.test/verify/${rows[0]!.id}` })).headers)).toEqual(reference);
  });

  it('answers a cached id without reading the database or the chain, with the same bytes; a batch root is read once', async () => {
    const url = `/api/verify/${rows[8]!.id}`;
    const first = await app.inject({ method: 'GET', url, headers: { 'x-locale': 'en' } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.json().data.verdict_label).toBe('Authentic');

    // Every database read goes through the pool (the by-id read is a prepared statement, ADR 0130).
    const selects = vi.spyOn(ctx.db.$client, 'query');
    const revokedReads = vi.spyOn(ctx.chain.registry, 'isRevoked');
    const issuanceReads = vi.spyOn(ctx.chain.registry, 'findIssuance');
    try {
      const again = await app.inject({ method: 'GET', url, headers: { 'x-locale': 'en' } });
      expect(again.body).toBe(first.body);
      expect(selects).not.toHaveBeenCalled();
      expect(revokedReads).not.toHaveBeenCalled();
      // The other language is its own text, from the same answer.
      const french = await app.inject({ method: 'GET', url });
      expect(french.json().data.verdict_label).toBe('Authentique');
      expect({ ...french.json().data, verdict_label: '', checks: [] }).toEqual({ ...first.json().data, verdict_label: '', checks: [] });
      expect(selects).not.toHaveBeenCalled();

      // Another diploma of the same batch: one database read, its own hash read on chain, the root not again.
      const other = await app.inject({ method: 'GET', url: `/api/verify/${rows[9]!.id}` });
      expect(other.json().data.verdict).toBe('authentic');
      expect(other.json().data.credential.signature.targetHash).toBe(rows[9]!.targetHash);
      expect(selects).toHaveBeenCalledTimes(1);
      expect(revokedReads.mock.calls.map(([hash]) => hash)).toEqual([`0x${rows[9]!.targetHash}`]);
      expect(issuanceReads).not.toHaveBeenCalled();
    } finally {
      selects.mockRestore();
      revokedReads.mockRestore();
      issuanceReads.mockRestore();
    }
  });

  it('a cached authentic answer becomes revoked once the contract reports it (answer, chain reads and text all cleared)', async () => {
    const target = rows[10]!;
    const url = `/api/verify/${target.id}`;
    expect((await app.inject({ method: 'GET', url })).json().data.verdict).toBe('authentic');
    expect((await app.inject({ method: 'GET', url })).json().data.verdict).toBe('authentic');
    await ctx.chain.registry.revoke(`0x${target.targetHash}`, 'Fraude constatée');
    // Until the event arrives the cached answer stands (the contract's events clear it, ADR 0040).
    expect((await app.inject({ method: 'GET', url })).json().data.verdict).toBe('authentic');
    services.verification!.invalidate(`0x${target.targetHash}`);
    const res = await app.inject({ method: 'GET', url });
    expect(res.json().data.verdict).toBe('revoked');
    expect(res.json().data.checks.find((c: { name: string }) => c.name === 'not_revoked').code).toBe('diploma_revoked');
    // Its PDF says so too (the chain read behind the PDF's answer was cleared as well).
    const pdf = (await services.storage.get(target.pdfKey!))!;
    expect((await upload({ file: { data: pdf, name: 'diplome.pdf', type: 'application/pdf' } })).json().data.verdict).toBe('revoked');
  });

  it('limits uncached look-ups per address in memory (429 with Retry-After), never the cached answers', async () => {
    const address = '203.0.113.7';
    const unknown = (i: number) => `/api/verify/${`Zz${String(i).padStart(20, '0')}`}`;
    const cachedUrl = `/api/verify/${rows[8]!.id}`;
    let limited: Awaited<ReturnType<typeof app.inject>> | null = null;
    for (let i = 0; i < 200 && !limited; i++) {
      const res = await app.inject({ method: 'GET', url: unknown(i), remoteAddress: address, headers: { 'x-locale': 'en' } });
      if (res.statusCode === 429) limited = res;
      else expect(res.json().data.verdict).toBe('unknown');
    }
    expect(limited).not.toBeNull();
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited!.json().code).toBe('rate_limited');
    // The same unknown id again is a cached answer: served, like any cached id, from the same address.
    expect((await app.inject({ method: 'GET', url: unknown(0), remoteAddress: address })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: cachedUrl, remoteAddress: address })).statusCode).toBe(200);
    // Documents always count; another address is not affected.
    const pdf = (await services.storage.get(rows[11]!.pdfKey!))!;
    const boundary = '----sceau-limit';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="cert_document"; filename="d.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
      Buffer.from(pdf),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const post = (remoteAddress: string) =>
      app.inject({ method: 'POST', url: '/api/generations/verify', remoteAddress, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect((await post(address)).statusCode).toBe(429);
    expect((await post('203.0.113.8')).json().data.verdict).toBe('authentic');
  });

  it('shows a revoked diploma as revoked once the contract says so', async () => {
    const target = rows[4]!;
    await ctx.chain.registry.revoke(`0x${target.targetHash}`, 'Fraude constatée');
    services.verification!.invalidate(`0x${target.targetHash}`);
    const res = await app.inject({ method: 'GET', url: `/api/verify/${target.id}` });
    expect(res.json().data.verdict).toBe('revoked');
    expect(statusOf(res.json()).not_revoked).toBe('failed');
  });

  it('revokes a diploma (root or admin, with a reason): recorded at once, written to the chain by a job, shown revoked', async () => {
    await queue.start({ work: true, pollingIntervalSeconds: 0.5 });
    try {
      const target = rows[6]!;
      const admin = { authorization: `Bearer ${await signIn(ctx, 'admin@sceau.example')}` };
      const validateur = { authorization: `Bearer ${await signIn(ctx, 'validateur@sceau.example')}` };
      const post = (url: string, headers: Record<string, string>, payload: object) => app.inject({ method: 'POST', url, headers, payload });
      expect((await post(`/api/diplomas/${target.id}/revoke`, validateur, { reason: 'Fraude constatée' })).statusCode).toBe(403);
      const short = await post(`/api/diplomas/${target.id}/revoke`, admin, { reason: 'x' });
      expect(short.statusCode).toBe(422);
      expect(short.json().errors.reason).toBeDefined();
      const accepted = await post(`/api/diplomas/${target.id}/revoke`, admin, { reason: 'Fraude constatée au centre' });
      expect(accepted.statusCode).toBe(202);
      expect((await post(`/api/diplomas/${target.id}/revoke`, admin, { reason: 'Encore une fois' })).statusCode).toBe(409);

      await vi.waitFor(
        async () => {
          const res = await app.inject({ method: 'GET', url: `/api/verify/${target.id}` });
          expect(res.json().data.verdict).toBe('revoked');
        },
        { timeout: 20_000, interval: 500 },
      );
      // The job records the transaction once it is mined; the verdict may show it a moment before.
      await vi.waitFor(
        async () => {
          const [row] = await ctx.db.select().from(diplomas).where(eq(diplomas.id, target.id));
          expect(row!.revocationTxHash).toMatch(/^0x[0-9a-f]{64}$/);
        },
        { timeout: 20_000, interval: 250 },
      );

      // A whole batch: every diploma of it is then revoked.
      const batch = await post(`/api/generations/${target.generationId}/revoke`, admin, { reason: 'Session annulée par le jury' });
      expect(batch.statusCode).toBe(202);
      await vi.waitFor(
        async () => {
          const res = await app.inject({ method: 'GET', url: `/api/verify/${rows[7]!.id}` });
          expect(res.json().data.verdict).toBe('revoked');
          expect(res.json().data.checks.find((c: { name: string }) => c.name === 'not_revoked').code).toBe('batch_revoked');
        },
        { timeout: 20_000, interval: 500 },
      );
    } finally {
      await queue.stop();
    }
  });

  it('with the chain stopped, says it could not check and never passes', async () => {
    await ctx.chain.local!.stop();
    const res = await app.inject({ method: 'GET', url: `/api/verify/${rows[5]!.id}` });
    expect(res.json().data.verdict).toBe('incomplete');
    // Whether it is revoked needs the chain; an anchoring already read may be remembered (it cannot be undone).
    expect(statusOf(res.json()).not_revoked).toBe('not-checked');
    expect(statusOf(res.json()).anchored).not.toBe('failed');
  });
});
