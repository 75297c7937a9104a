import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { qrFieldsFromDocument, verifyIssuerSignature, verifyQrPayload, type CredentialDocument, type IssuerInfo } from '@sceau/credential';
import { extractAttachment } from '@sceau/pdf/attachment';
import { checkQrPayload, checkRootSignature } from './fast-signatures.ts';
import { qrCodesFromContents, readPdfQrCodes } from './pdf-qr.ts';
import { readDiplomaPdf } from './pdf-reader.ts';
import { apiContext, createMinistryKeys, createPdfFactory, issueBatch, issuerFor, signQr, type Batch, type MinistryKeys, type PdfFactory } from './test-support.ts';
import type { RegistryPort, VerificationContext, VerificationResult } from './types.ts';
import { verify } from './verify.ts';

let ministry: MinistryKeys;
let stranger: MinistryKeys;
let issuer: IssuerInfo;
let batch: Batch;
let pdfs: PdfFactory;
let genuine: Uint8Array;
let mixed: Uint8Array;
let foreign: Uint8Array;
let context: VerificationContext;
let tempDir: string;

// A registry port answering from memory (the chain itself is exercised in verify.test.ts).
const registry = { chainId: 72328, address: `0x${'11'.repeat(20)}` };
const port: RegistryPort = {
  ...registry,
  isIssued: async () => true,
  isRevoked: async () => false,
  findIssuance: async (root) => ({ root, txHash: `0x${'22'.repeat(32)}`, blockNumber: 5, blockHash: null, timestamp: 1_750_000_000, issuer: null }),
  findRevocation: async () => null,
};

beforeAll(async () => {
  [ministry, stranger] = await Promise.all([createMinistryKeys(), createMinistryKeys('Faussaire')]);
  issuer = issuerFor(registry);
  batch = await issueBatch(issuer, ministry.es256, 3);
  pdfs = await createPdfFactory(ministry.pdfSigner);
  genuine = await pdfs.render(batch.documents[0]!, batch.qr[0]!);
  mixed = await pdfs.render(batch.documents[0]!, batch.qr[0]!, { attached: batch.documents[1]! });
  foreign = await pdfs.render(batch.documents[0]!, batch.qr[0]!, { attached: batch.documents[1]!, signer: stranger.pdfSigner });
  context = apiContext(issuer, ministry.jwks, port, new Map<string, CredentialDocument>(batch.documents.map((d) => [d.record.diploma_id!, d])));
  tempDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sceau-pdf-reader-'));
}, 60_000);

afterAll(async () => {
  if (tempDir) await fs.rm(tempDir, { recursive: true, force: true });
});

describe('the targeted PDF reader', () => {
  it('finds the same attachment and the same QR codes as the full parser, on every kind of diploma PDF', async () => {
    for (const pdf of [genuine, mixed, foreign]) {
      const parts = readDiplomaPdf(pdf, 'credential.json');
      expect(parts).not.toBeNull();
      expect(Buffer.from(parts!.attachment)).toEqual(Buffer.from((await extractAttachment(pdf, 'credential.json'))!));
      const full = await readPdfQrCodes(pdf);
      expect(full).toHaveLength(2);
      expect(qrCodesFromContents(parts!.contents, { grid: true })).toEqual(full);
      expect(qrCodesFromContents(parts!.contents)).toEqual(full);
    }
  });

  it('gives up (null) on what it does not handle, never throws: object streams, other names, damaged or foreign files', async () => {
    // pdf-lib re-saves with a cross-reference stream and object streams.
    const resaved = await (await PDFDocument.load(genuine)).save({ useObjectStreams: true });
    expect(readDiplomaPdf(resaved, 'credential.json')).toBeNull();
    expect(await extractAttachment(resaved, 'credential.json')).not.toBeNull();

    expect(readDiplomaPdf(genuine, 'other.json')).toBeNull();
    expect(readDiplomaPdf(genuine.subarray(0, genuine.length - 200), 'credential.json')).toBeNull();
    expect(readDiplomaPdf(new TextEncoder().encode('%PDF-1.7\nnot really\n%%EOF\n'), 'credential.json')).toBeNull();
    const blank = await (await PDFDocument.create()).save({ useObjectStreams: false });
    expect(readDiplomaPdf(blank, 'credential.json')).toBeNull();

    // An offset in the table that does not point at its object.
    const shifted = Buffer.from(genuine);
    const at = shifted.lastIndexOf('startxref');
    const xrefAt = Number(/startxref\s+(\d+)/.exec(shifted.subarray(at).toString('latin1'))![1]);
    const entry = shifted.indexOf(' 00000 n', xrefAt) - 10;
    shifted.write('0000000001', entry, 'latin1');
    expect(readDiplomaPdf(shifted, 'credential.json')).toBeNull();
  });
});

describe('verification by PDF gives the same answers as before', () => {
  const statusOf = (result: VerificationResult) => result.checks.map((c) => `${c.name}:${c.status}:${c.code}`);

  it('a genuine PDF is authentic; a ministry-signed PDF with another credential stays altered (QR mismatch)', async () => {
    const result = await verify({ pdf: genuine }, context);
    expect(result.verdict).toBe('authentic');
    expect(result.checks.find((c) => c.name === 'integrity')!.details).toMatchObject({ qr: 'matches' });

    const bad = await verify({ pdf: mixed }, context);
    expect(bad.verdict).toBe('altered');
    expect(bad.checks.find((c) => c.name === 'integrity')).toMatchObject({ status: 'failed', code: 'qr_credential_mismatch' });
    expect(statusOf(await verify({ pdf: foreign }, context))).toContain('pdf_signature:failed:pdf_unknown_signer');
  });

  it('agrees with pdfsig (poppler) on the PDF signature of a genuine, a changed and an extended PDF', async () => {
    const changed = Buffer.from(genuine);
    changed[2000] = changed[2000]! ^ 0x01;
    const extended = Buffer.concat([genuine, Buffer.from('\n% appended\n')]);
    const cases = [
      { name: 'genuine.pdf', bytes: genuine, ours: 'pdf_signature:passed:pdf_signature_valid', poppler: /^(?=[\s\S]*Signature is Valid\.)(?=[\s\S]*Total document signed)/ },
      { name: 'changed.pdf', bytes: changed, ours: 'pdf_signature:failed:pdf_modified', poppler: /Digest Mismatch/ },
      { name: 'extended.pdf', bytes: extended, ours: 'pdf_signature:failed:pdf_changed_after_signing', poppler: /Not total document signed/ },
    ];
    for (const c of cases) {
      const file = path.join(tempDir, c.name);
      await fs.writeFile(file, c.bytes);
      let report: string;
      try {
        report = execFileSync('pdfsig', [file], { encoding: 'utf8' });
      } catch (error) {
        report = `${(error as { stdout?: string }).stdout ?? ''}`;
      }
      expect(report, c.name).toMatch(c.poppler);
      expect(statusOf(await verify({ pdf: new Uint8Array(c.bytes) }, context)), c.name).toContain(c.ours);
    }
  });
});

describe('the faster signature checks answer as @sceau/credential does', () => {
  it('QR payloads: valid, re-signed by another key, a flipped character, not ours', async () => {
    const forged = await signQr({ ...qrFieldsFromDocument(batch.documents[0]!), percentage: 99 }, stranger.es256);
    const qr = batch.qr[0]!;
    const at = qr.length - 7;
    const flipped = qr.slice(0, at) + (qr[at] === '0' ? '1' : '0') + qr.slice(at + 1);
    for (const text of [qr, batch.qr[1]!, forged, flipped, 'SC1:', 'hello', `${qr}\n`]) {
      expect(checkQrPayload(text, ministry.jwks), text.slice(0, 30)).toEqual(verifyQrPayload(text, ministry.jwks));
    }
    expect(checkQrPayload(qr, stranger.jwks)).toEqual(verifyQrPayload(qr, stranger.jwks));
  });

  it('batch root signatures, also when asked again (remembered) and with other keys', () => {
    const { merkleRoot, issuerSignature } = batch.documents[0]!.signature;
    const otherRoot = merkleRoot.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    for (let round = 0; round < 2; round++) {
      expect(checkRootSignature(merkleRoot, issuerSignature, ministry.jwks)).toBe('valid');
      expect(checkRootSignature(otherRoot, issuerSignature, ministry.jwks)).toBe(verifyIssuerSignature(otherRoot, issuerSignature, ministry.jwks));
      expect(checkRootSignature(merkleRoot, issuerSignature, stranger.jwks)).toBe('unknown-key');
      expect(checkRootSignature(merkleRoot, undefined, ministry.jwks)).toBe('absent');
    }
  });
});
