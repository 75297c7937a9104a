import { connectChain, createRegistry } from '@sceau/chain';
import { verifyDocument, verifyQrPayload } from '@sceau/credential';
import { extractAttachment, latestTimestamp, verifyDocumentTimestamps, verifyPdfSignature } from '@sceau/pdf';
import { X509Certificate } from 'node:crypto';
import { DIPLOMA_ID_PATTERN } from '@sceau/contracts';
import { execFileSync } from 'node:child_process';
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { diplomas, generations } from '../../db/schema.ts';
import { DEMO_BATCH_TITLE, seedDemoBatch } from '../../seed/demo-batch.ts';
import { createServices, type Services } from '../../services.ts';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';
import { signIn } from '../../../test/helpers.ts';
import type { OpenChain } from '../chain/open-chain.ts';
import { loadMinistryKeys, rotateDevelopmentKey } from '../keys/ministry-keys.ts';
import { moveSignature } from './generation-status.ts';
import type { CredentialDocument } from '@sceau/credential';
import { SIGNING_TIME_PRECISION_MS } from '@sceau/verifier/retired-keys';
import { createPdfFactory } from '@sceau/verifier/test-support';

let ctx: ChainTestContext;
let chain: OpenChain;
let services: Services;
let app: App;
let batchId: number;

beforeAll(async () => {
  ctx = await createChainTestApp();
  chain = ctx.chain;
  services = createServices(ctx.db, ctx.config, { identity: { keys: ctx.keys, chain } });
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  batchId = await seedDemoBatch(ctx.db, services.storage, services.issuing!);
}, 120_000);
afterAll(async () => {
  await app?.close();
  await ctx?.close();
});

describe('issuing a batch', () => {
  it('generates every diploma, anchors the root on the chain, and publishes the batch', async () => {
    const [batch] = await ctx.db.select().from(generations).where(eq(generations.id, batchId));
    expect(batch).toMatchObject({ status: 'completed', signatureStatus: 'finished', progressDone: 12, progressTotal: 12 });
    expect(batch!.anchorTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    const reader = createRegistry(connectChain({ rpcUrl: chain.connection.rpcUrl, chainId: chain.chainId }), chain.address);
    expect(await reader.isIssued(`0x${batch!.merkleRoot}`)).toBe(true);
  });

  it('gives each diploma a random 22-character id, a credential that verifies, and a signed PDF carrying it', async () => {
    const rows = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId));
    expect(rows).toHaveLength(12);
    for (const row of rows) expect(row.id).toMatch(DIPLOMA_ID_PATTERN);
    const [first] = rows;
    const check = verifyDocument(first!.credential);
    expect(check.integrity).toBe('ok');
    const pdf = (await services.storage.get(first!.pdfKey!))!;
    expect(pdf.length).toBeLessThan(150 * 1024);
    // PAdES B-LTA (ADR 0135): the signature with its time-stamp, then the DSS and a document
    // time-stamp covering the whole file; the row knows when that time-stamp's TSA certificate ends.
    const signature = verifyPdfSignature(pdf);
    expect(signature).toMatchObject({ intact: true, coversWholeFile: false });
    expect(signature.signatureTimestamp?.genTime).toBeInstanceOf(Date);
    expect(verifyDocumentTimestamps(pdf)).toMatchObject([{ ok: true, coveredLength: pdf.length }]);
    expect(first!.timestampExpiresAt!.getTime()).toBe(new Date(new X509Certificate(latestTimestamp(pdf)!.tsaCertificateDer).validTo).getTime());
    const attached = JSON.parse(new TextDecoder().decode((await extractAttachment(pdf, 'credential.json'))!));
    expect(attached.signature.targetHash).toBe(first!.targetHash);
    // An independent tool agrees.
    const file = path.join(ctx.dataDir, 'check.pdf');
    await writeFile(file, pdf);
    const pdfsig = execFileSync('pdfsig', [file], { encoding: 'utf8' });
    expect(pdfsig).toContain('Signature is Valid.');
    expect(pdfsig).toMatch(/Signature #2:[\s\S]*DocTimeStamp1[\s\S]*Total document signed/);
  });

  it('prints on each diploma an offline QR payload that the published keys verify', async () => {
    const rows = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId));
    const jwks = services.identity!.keys.jwks();
    for (const row of rows) {
      const checked = verifyQrPayload(row.qrPayload, jwks);
      expect(checked.status, row.id).toBe('valid');
      if (checked.status === 'valid') expect(checked.fields.target_hash).toBe(row.targetHash);
    }
  });

  it('does nothing more when its jobs run again (idempotent)', async () => {
    await services.issuing!.generate(batchId);
    await services.issuing!.anchor(batchId);
    expect(await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId))).toHaveLength(12);
  });

  it('lists the batch for its creator, shows its candidates, and serves a PDF to who may download it', async () => {
    const root = { authorization: `Bearer ${await signIn(ctx, 'root@sceau.example')}` };
    const mine = (await app.inject({ method: 'GET', url: '/api/generations/by-user', headers: root })).json();
    expect(mine.data.map((g: { title: string }) => g.title)).toContain(DEMO_BATCH_TITLE);
    const detail = await app.inject({ method: 'GET', url: `/api/generations/${batchId}?page=1&search=kabamba`, headers: root });
    expect(detail.statusCode).toBe(200);
    const body = detail.json();
    expect(body.data).toMatchObject({ status: 'completed', signature_status: 'finished', counts: { items: 12, diplomas: 12 } });
    expect(body.data.anchor.tx_hash).toMatch(/^0x/);
    expect(body.data.items.map((i: { last_name: string }) => i.last_name)).toEqual(['Ngalula']);
    const itemId = body.data.items[0].id;

    const download = await app.inject({ method: 'GET', url: `/api/items/${itemId}`, headers: root });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const validateur = { authorization: `Bearer ${await signIn(ctx, 'validateur@sceau.example')}` };
    expect((await app.inject({ method: 'GET', url: `/api/items/${itemId}`, headers: validateur })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: `/api/generations/${batchId}`, headers: validateur })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/generations/999999', headers: root })).statusCode).toBe(404);
  });

  it('streams a zip of the batch to who may download many, counting the downloads', async () => {
    const root = { authorization: `Bearer ${await signIn(ctx, 'root@sceau.example')}` };
    const res = await app.inject({ method: 'GET', url: `/api/generations/${batchId}/export-zip`, headers: root });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const zip = res.rawPayload;
    // One central-directory entry per diploma, each named after the candidate (accents folded).
    const entries = zip.toString('latin1').split('PK\x01\x02').length - 1;
    expect(entries).toBe(12);
    expect(zip.toString('latin1')).toContain('20260000000001-Ngalula-Elodie.pdf');
    const counted = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId));
    expect(counted.every((d) => d.downloads >= 1)).toBe(true);
    const validateur = { authorization: `Bearer ${await signIn(ctx, 'validateur@sceau.example')}` };
    expect((await app.inject({ method: 'GET', url: `/api/generations/${batchId}/export-zip`, headers: validateur })).statusCode).toBe(403);
  });

  it('hides a batch outside the scope of a scoped member of staff', async () => {
    const token = await signIn(ctx, 'controleur@sceau.example');
    await ctx.db.$client.query(`update users set educ_province_id = (select id from educ_provinces where code = 'NK-1') where email = 'controleur@sceau.example'`);
    const res = await app.inject({ method: 'GET', url: `/api/generations/${batchId}`, headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(404);
  });

  it('counts published diplomas, their holders, schools and downloads for the home page', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.data).toMatchObject({ documents: 12, students: 12, schools: 1 });
    expect(res.json().data.data.downloads).toBeGreaterThan(0);
  });

  it('anchors again, at start, a batch the local chain lost', async () => {
    const [batch] = await ctx.db.select().from(generations).where(eq(generations.id, batchId));
    // The local chain's state is lost (its key and deployment record remain): the registry is deployed
    // again by the same account at the same nonce, so at the same address the credentials name.
    const address = chain.address;
    chain = await ctx.restartChain(async () => {
      for (const file of await readdir(path.join(ctx.dataDir, 'chain'))) {
        if (file.startsWith('anvil-state')) await rm(path.join(ctx.dataDir, 'chain', file), { force: true });
      }
    });
    expect(chain.action).toBe('redeployed');
    expect(chain.address).toBe(address);
    expect(await chain.registry.isIssued(`0x${batch!.merkleRoot}`)).toBe(false);
    const keys = services.identity!.keys;
    services = createServices(ctx.db, ctx.config, { identity: { keys, chain } });
    const result = await services.issuing!.reconcileAnchors(pino({ level: 'silent' }));
    expect(result).toMatchObject({ reanchored: 1, flagged: 0 });
    expect(await chain.registry.isIssued(`0x${batch!.merkleRoot}`)).toBe(true);
    const [after] = await ctx.db.select().from(generations).where(eq(generations.id, batchId));
    expect(after!.anchorContract).toBe(chain.address.toLowerCase());
    // Its diplomas verify again.
    const [one] = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId)).limit(1);
    expect((await services.verification!.verify({ diplomaId: one!.id })).verdict).toBe('authentic');
  });

  // After the re-anchoring test: a batch anchored again after its key retired is refused (ADR 0136, 0138).
  it('keeps diplomas signed before a key rotation verifiable', async () => {
    const [old] = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId)).limit(1);
    const before = services.identity!.keys.active.kid;
    // The root is dated by its anchoring block, in whole seconds: a key retired within that
    // precision of it might have signed after (signing_time_unknown, rightly not authentic). The
    // previous test anchors the batch again, so the rotation waits until it is clearly later.
    const anchored = (await services.verification!.verify({ diplomaId: old!.id })).checks.find((c) => c.name === 'anchored');
    const blockSeconds = Number((anchored?.details as { timestamp?: number } | undefined)?.timestamp);
    expect(blockSeconds).toBeGreaterThan(0);
    const clear = blockSeconds * 1000 + SIGNING_TIME_PRECISION_MS + 50 - Date.now();
    if (clear > 0) await new Promise((resolve) => setTimeout(resolve, clear));
    await rotateDevelopmentKey(ctx.config.keys);
    const keys = await loadMinistryKeys(ctx.config.keys, pino({ level: 'silent' }));
    expect(keys.active.kid).not.toBe(before);
    services = createServices(ctx.db, ctx.config, { identity: { keys, chain } });
    const byId = await services.verification!.verify({ diplomaId: old!.id });
    expect(byId.verdict, JSON.stringify(byId.checks)).toBe('authentic');
    const pdf = (await services.storage.get(old!.pdfKey!))!;
    const byPdf = await services.verification!.verify({ pdf: new Uint8Array(pdf) });
    expect(byPdf.verdict).toBe('authentic');

    // A thief of the retired key (its signer kept from before the rotation) renders the diploma
    // afresh, its name changed, around the genuine credential, signs without a time-stamp (or with
    // one of their own TSA): the platform holds another file for that diploma (ADR 0148).
    const stolen = await createPdfFactory(ctx.keys.active.pdfSigner);
    const genuine = old!.credential as unknown as CredentialDocument;
    const printed = structuredClone(genuine);
    printed.record.last_name = 'FAUSSAIRE';
    const forged = await stolen.render(printed, old!.qrPayload, { attached: genuine });
    const refused = await services.verification!.verify({ pdf: forged });
    expect(refused.checks.find((c) => c.name === 'pdf_signature')).toMatchObject({ status: 'failed', code: 'pdf_not_issued', details: { kid: before } });
    expect(refused.verdict).toBe('altered');
  });

  it('never finishes a signature without a mined transaction: a chain that is down leaves it in progress', async () => {
    const [batch] = await ctx.db.select().from(generations).where(eq(generations.id, batchId));
    // A second batch, generated, waiting for its anchoring, when the chain goes away.
    const [copy] = await ctx.db
      .insert(generations)
      .values({
        type: batch!.type,
        templateId: batch!.templateId,
        sessionId: batch!.sessionId,
        educProvinceId: batch!.educProvinceId,
        status: 'ready_for_signature',
        merkleRoot: 'cd'.repeat(32),
      })
      .returning();
    await ctx.db.transaction((tx) => moveSignature(tx, copy!.id, 'in_progress'));
    await chain.local!.stop();
    await expect(services.issuing!.anchor(copy!.id)).rejects.toThrow();
    const [after] = await ctx.db.select().from(generations).where(eq(generations.id, copy!.id));
    expect(after).toMatchObject({ status: 'ready_for_signature', signatureStatus: 'in_progress', anchorTxHash: null });
  });
});
