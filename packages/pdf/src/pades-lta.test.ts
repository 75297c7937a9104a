// PAdES B-T, B-LT and B-LTA on a real diploma, each layer checked by tools that share no code with
// ours: poppler's pdfsig (signature, ranges; it lists but cannot validate RFC 3161 document
// time-stamps) and OpenSSL (cms -verify for the signature and its chain, ts -verify for both
// time-stamps, crl/verify for the revocation list), including after the signing certificate expired.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeySigner, type Signer } from './cms.ts';
import { diplomeEtatTemplate } from './default-template.ts';
import { createCertificateRevocationList, createDevelopmentPki, createDevelopmentTsa, type DevelopmentPki, type DevelopmentTsa } from './dev-pki.ts';
import { preparePhoto } from './images.ts';
import { readCrossReference, readDictionaryObject } from './incremental.ts';
import { addDocumentTimestamp, addValidationData, extendToLongTerm, latestTimestamp, signPdf, verifyDocumentTimestamps, verifyPdfSignature } from './pades.ts';
import { createDiplomaRenderer, type DiplomaRenderer } from './renderer.ts';
import { createTestPhoto, createTestSignatureImages, testCredentialJson, testFields, testOfflinePayload } from './test-fixtures.ts';
import { createLocalTimeStampAuthority, type LocalTimeStampAuthority } from './tsp.ts';

const CRL_URL = 'http://127.0.0.1:3000/pki/ca.crl';
let dir: string;
let pki: DevelopmentPki;
let tsaPki: DevelopmentTsa;
let tsa: LocalTimeStampAuthority;
let signer: Signer;
let crl: Uint8Array;
let renderer: DiplomaRenderer;
let unsigned: Uint8Array;

function run(tool: string, ...args: string[]) {
  const result = spawnSync(tool, args, { encoding: 'utf8', cwd: dir });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

function save(name: string, bytes: Uint8Array | string): string {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

/** pdfsig -dump's files (signature #n's /Contents, as poppler reads them) and the bytes each covers. */
function dumped(pdfName: string, pdf: Uint8Array): { cms: string; covered: string }[] {
  expect(run('pdfsig', '-nocert', '-dump', join(dir, pdfName)).status).toBe(0);
  const text = Buffer.from(pdf).toString('latin1');
  return [...text.matchAll(/\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\s*\]/g)].map((m, i) => {
    const [a, b, c, d] = m.slice(1).map(Number) as [number, number, number, number];
    return { cms: join(dir, `${pdfName}.sig${i}`), covered: save(`${pdfName}.range${i}`, Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)])) };
  });
}

/** The signature time-stamp token of a CMS, and the signature value it is over, found with `openssl asn1parse`. */
function signatureTimestamp(cmsFile: string): { token: string; signatureHex: string } {
  const der = readFileSync(cmsFile);
  const lines = run('openssl', 'asn1parse', '-inform', 'DER', '-in', cmsFile).out.split('\n');
  const oid = lines.findIndex((l) => l.includes(':id-smime-aa-timeStampToken'));
  expect(oid).toBeGreaterThan(0);
  const token = /^\s*(\d+):d=\d+\s+hl=(\d+)\s+l=\s*(\d+) cons: SEQUENCE/.exec(lines[oid + 2]!)!;
  const [start, header, length] = token.slice(1).map(Number) as [number, number, number];
  // The SignerInfo's signature value: the last OCTET STRING at its depth before the time-stamp.
  const signature = lines
    .slice(0, oid)
    .filter((l) => /d=5 .*prim: OCTET STRING/.test(l))
    .pop()!;
  return { token: save(`${basename(cmsFile)}.tst`, der.subarray(start, start + header + length)), signatureHex: /\[HEX DUMP\]:([0-9A-F]+)/.exec(signature)![1]! };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sceau-lta-'));
  pki = await createDevelopmentPki({ crlUrl: CRL_URL });
  const ca = { certificatePem: pki.caCertificatePem, privateKeyPem: pki.caPrivateKeyPem };
  tsaPki = await createDevelopmentTsa({ ca, crlUrl: CRL_URL });
  tsa = createLocalTimeStampAuthority({ signer: createKeySigner({ privateKey: tsaPki.privateKeyPem, certificateChainDer: tsaPki.certificateChainDer }) });
  crl = await createCertificateRevocationList({ ca, revoked: [], thisUpdate: new Date(Date.now() - 60_000), nextUpdate: new Date(Date.now() + 7 * 86400e3), crlNumber: 1 });
  signer = createKeySigner({ privateKey: pki.signingPrivateKeyPem, certificateChainDer: pki.certificateChainDer });
  renderer = await createDiplomaRenderer({ template: diplomeEtatTemplate, signatureImages: await createTestSignatureImages() });
  const photo = await preparePhoto(await createTestPhoto(), renderer.template.photo);
  unsigned = await renderer.render(testFields(), photo, { verifyUrl: 'https://sceau.example.cd/verify/x', offlinePayload: testOfflinePayload() }, testCredentialJson(testFields()));
  save('ca.pem', pki.caCertificatePem);
  save('crl.der', crl);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('PAdES B-T', () => {
  it('carries a signature time-stamp over the signature value: pdfsig valid, OpenSSL cms and ts verify', async () => {
    const pdf = await signPdf(unsigned, signer, { timestamper: tsa, hashedPrefix: renderer.hashedPrefix() });
    save('bt.pdf', pdf);
    const sig = run('pdfsig', 'bt.pdf').out;
    expect(sig).toContain('Signature is Valid.');
    expect(sig).toContain('Total document signed');
    const [signature] = dumped('bt.pdf', pdf);
    expect(
      run(
        'openssl',
        'cms',
        '-verify',
        '-binary',
        '-inform',
        'DER',
        '-in',
        signature!.cms,
        '-content',
        signature!.covered,
        '-CAfile',
        'ca.pem',
        '-purpose',
        'any',
        '-out',
        '/dev/null',
      ).out,
    ).toContain('Verification successful');
    const stamp = signatureTimestamp(signature!.cms);
    const imprint = createHash('sha256').update(Buffer.from(stamp.signatureHex, 'hex')).digest('hex');
    expect(run('openssl', 'ts', '-verify', '-digest', imprint, '-in', stamp.token, '-token_in', '-CAfile', 'ca.pem').out).toContain('Verification: OK');
    // Over any other value the token is refused.
    expect(run('openssl', 'ts', '-verify', '-digest', '00'.repeat(32), '-in', stamp.token, '-token_in', '-CAfile', 'ca.pem').out).not.toContain('Verification: OK');

    const check = verifyPdfSignature(pdf);
    expect(check).toMatchObject({ intact: true, coversWholeFile: true });
    expect(Buffer.from(check.signatureTimestamp!.tsaCertificateDer)).toEqual(Buffer.from(tsaPki.certificateDer));
  });

  it('reserves room for the token: the CMS fits, and a token larger than announced is refused', async () => {
    const liar = { maxTokenLength: 100, timestamp: (imprint: Uint8Array) => tsa.timestamp(imprint) };
    await expect(signPdf(unsigned, signer, { timestamper: liar })).rejects.toThrow(/more than the 100 reserved/);
  });
});

describe('PAdES B-LT and B-LTA', () => {
  let lta: Uint8Array;

  beforeAll(async () => {
    const bt = await signPdf(unsigned, signer, { timestamper: tsa });
    lta = await extendToLongTerm(bt, { certificates: [...pki.certificateChainDer, tsaPki.certificateDer], crls: [crl] }, tsa);
    save('lta.pdf', lta);
  });

  it('adds a DSS with the signing chain, the TSA certificate and the CRL, without changing the signed revision', async () => {
    const bt = await signPdf(unsigned, signer, { timestamper: tsa });
    const lt = addValidationData(bt, { certificates: [...pki.certificateChainDer, tsaPki.certificateDer], crls: [crl] });
    expect(Buffer.from(lt.subarray(0, bt.length))).toEqual(Buffer.from(bt));
    const xref = readCrossReference(lt);
    const catalog = readDictionaryObject(lt, xref, xref.root);
    const dss = readDictionaryObject(lt, xref, Number(/\/DSS (\d+) 0 R/.exec(catalog)![1]));
    expect(dss).toMatch(/\/Certs \[\d+ 0 R \d+ 0 R \d+ 0 R\]/);
    expect(dss).toMatch(/\/CRLs \[\d+ 0 R\]/);
    // The same data again adds nothing to the DSS.
    const again = readCrossReference(addValidationData(lt, { certificates: pki.certificateChainDer, crls: [crl] }));
    expect(again.size).toBe(xref.size);
    save('lt.pdf', lt);
    expect(run('pdfsig', 'lt.pdf').out).toContain('Signature is Valid.');
  });

  it('ends with a document time-stamp covering the whole file: pdfsig lists it, OpenSSL verifies it', () => {
    const sig = run('pdfsig', 'lta.pdf').out;
    expect(sig).toMatch(/Signature #1:[\s\S]*Signature is Valid\.[\s\S]*Signature #2:[\s\S]*Signature Field Name: DocTimeStamp1[\s\S]*Total document signed/);
    expect(sig).toContain('Sceau Time-Stamping Authority (development)');
    const [signature, stamp] = dumped('lta.pdf', lta);
    expect(
      run(
        'openssl',
        'cms',
        '-verify',
        '-binary',
        '-inform',
        'DER',
        '-in',
        signature!.cms,
        '-content',
        signature!.covered,
        '-CAfile',
        'ca.pem',
        '-purpose',
        'any',
        '-out',
        '/dev/null',
      ).out,
    ).toContain('Verification successful');
    expect(run('openssl', 'ts', '-verify', '-data', stamp!.covered, '-in', stamp!.cms, '-token_in', '-CAfile', 'ca.pem').out).toContain('Verification: OK');
    const checks = verifyDocumentTimestamps(lta);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ ok: true, coveredLength: lta.length });
    expect(verifyPdfSignature(lta)).toMatchObject({ intact: true, coversWholeFile: false });
  });

  it('a byte changed anywhere after the signature breaks the document time-stamp for OpenSSL and for us', () => {
    const changed = Uint8Array.from(lta);
    const at = Buffer.from(changed).lastIndexOf('/Type /DSS');
    changed[at + 1] = 'X'.charCodeAt(0);
    save('changed.pdf', changed);
    const [, stamp] = dumped('changed.pdf', changed);
    expect(run('openssl', 'ts', '-verify', '-data', stamp!.covered, '-in', stamp!.cms, '-token_in', '-CAfile', 'ca.pem').out).not.toContain('Verification: OK');
    expect(verifyDocumentTimestamps(changed)[0]).toMatchObject({ ok: false });
  });

  it('the DSS CRL is signed by the CA, names its next update, and OpenSSL checks the certificates against it', () => {
    const text = run('openssl', 'crl', '-inform', 'DER', '-in', 'crl.der', '-CAfile', 'ca.pem', '-noout', '-text');
    expect(text.out).toContain('verify OK');
    expect(text.out).toMatch(/Next Update: /);
    run('openssl', 'crl', '-inform', 'DER', '-in', 'crl.der', '-out', join(dir, 'crl.pem'));
    save('signer.pem', pki.signingCertificatePem);
    save('tsa.pem', tsaPki.certificatePem);
    expect(run('openssl', 'verify', '-crl_check', '-CRLfile', 'crl.pem', '-CAfile', 'ca.pem', 'signer.pem').out).toContain('signer.pem: OK');
    expect(run('openssl', 'verify', '-crl_check', '-CRLfile', 'crl.pem', '-CAfile', 'ca.pem', 'tsa.pem').out).toContain('tsa.pem: OK');
    expect(run('openssl', 'x509', '-in', 'signer.pem', '-noout', '-ext', 'crlDistributionPoints').out).toContain(`URI:${CRL_URL}`);
  });

  it('a revoked signing certificate is reported revoked by OpenSSL with the regenerated CRL', async () => {
    const serial = run('openssl', 'x509', '-in', 'signer.pem', '-noout', '-serial').out.trim().split('=')[1]!;
    const revoked = await createCertificateRevocationList({
      ca: { certificatePem: pki.caCertificatePem, privateKeyPem: pki.caPrivateKeyPem },
      revoked: [{ serialHex: serial.toLowerCase(), revokedAt: new Date(), reason: 'keyCompromise' }],
      thisUpdate: new Date(Date.now() - 1000),
      nextUpdate: new Date(Date.now() + 86400e3),
      crlNumber: 2,
    });
    save('revoked.der', revoked);
    run('openssl', 'crl', '-inform', 'DER', '-in', 'revoked.der', '-out', join(dir, 'revoked.pem'));
    expect(run('openssl', 'verify', '-crl_check', '-CRLfile', 'revoked.pem', '-CAfile', 'ca.pem', 'signer.pem').out).toContain('certificate revoked');
  });

  it('re-time-stamping adds fresh validation data and a second document time-stamp; every layer still verifies', async () => {
    const renewed = await extendToLongTerm(lta, { certificates: [tsaPki.certificateDer], crls: [crl] }, tsa);
    expect(Buffer.from(renewed.subarray(0, lta.length))).toEqual(Buffer.from(lta));
    const checks = verifyDocumentTimestamps(renewed);
    expect(checks.map((c) => c.ok)).toEqual([true, true]);
    expect(checks[1]!.coveredLength).toBe(renewed.length);
    expect(latestTimestamp(renewed)?.serialNumberHex).toBe(checks[1]!.info!.serialNumberHex);
    save('renewed.pdf', renewed);
    const [, first, second] = dumped('renewed.pdf', renewed);
    for (const stamp of [first!, second!]) {
      expect(run('openssl', 'ts', '-verify', '-data', stamp.covered, '-in', stamp.cms, '-token_in', '-CAfile', 'ca.pem').out).toContain('Verification: OK');
    }
    expect(run('pdfsig', 'renewed.pdf').out).toContain('Signature is Valid.');
  });

  it('refuses to add a document time-stamp to a PDF that was never signed', async () => {
    await expect(addDocumentTimestamp(unsigned, tsa)).rejects.toThrow(/sign the PDF first/);
  });
});

describe('after the signing certificate expired', () => {
  it('OpenSSL refuses the signature at the current time, accepts it at the time-stamped time, and the time-stamp verifies', async () => {
    // A signing certificate that lives three seconds.
    const shortLived = await createDevelopmentPki({
      ca: { certificatePem: pki.caCertificatePem, privateKeyPem: pki.caPrivateKeyPem },
      signerNotBefore: new Date(Date.now() - 60_000),
      signerNotAfter: new Date(Date.now() + 3000),
      crlUrl: CRL_URL,
    });
    const shortSigner = createKeySigner({ privateKey: shortLived.signingPrivateKeyPem, certificateChainDer: shortLived.certificateChainDer });
    const bt = await signPdf(unsigned, shortSigner, { timestamper: tsa });
    const pdf = await extendToLongTerm(bt, { certificates: [...shortLived.certificateChainDer, tsaPki.certificateDer], crls: [crl] }, tsa);
    await new Promise((resolve) => setTimeout(resolve, 3500));
    save('expired.pdf', pdf);
    save('short.pem', shortLived.signingCertificatePem);
    expect(run('openssl', 'x509', '-in', 'short.pem', '-noout', '-checkend', '0').status).toBe(1);

    const [signature, stamp] = dumped('expired.pdf', pdf);
    const verify = (...extra: string[]) =>
      run(
        'openssl',
        'cms',
        '-verify',
        '-binary',
        '-inform',
        'DER',
        '-in',
        signature!.cms,
        '-content',
        signature!.covered,
        '-CAfile',
        'ca.pem',
        '-purpose',
        'any',
        '-out',
        '/dev/null',
        ...extra,
      ).out;
    expect(verify()).toContain('certificate has expired');
    const token = signatureTimestamp(signature!.cms);
    const genTime = run('openssl', 'ts', '-reply', '-in', token.token, '-token_in', '-text').out;
    const stamped = new Date(/Time stamp: (.+)/.exec(genTime)![1]!.trim());
    expect(verify('-attime', String(Math.floor(stamped.getTime() / 1000)))).toContain('Verification successful');
    const imprint = createHash('sha256').update(Buffer.from(token.signatureHex, 'hex')).digest('hex');
    expect(run('openssl', 'ts', '-verify', '-digest', imprint, '-in', token.token, '-token_in', '-CAfile', 'ca.pem').out).toContain('Verification: OK');
    expect(run('openssl', 'ts', '-verify', '-data', stamp!.covered, '-in', stamp!.cms, '-token_in', '-CAfile', 'ca.pem').out).toContain('Verification: OK');
    // pdfsig still finds the signature itself valid; its certificate check (at the current time,
    // with no trust anchor in its NSS store) is not a long-term validation.
    expect(run('pdfsig', 'expired.pdf').out).toContain('Signature is Valid.');
  });
});
