// Issuing with the ministry key in a token: the render threads cannot hold it, so each asks the
// pool's thread to sign (render-pool.ts, ADR 0136). A SoftHSM2 token made for this file.
import { createCertificateRevocationList, createDevelopmentTsa, diplomeEtatTemplate, preparePhoto, verifyDocumentTimestamps, verifyPdfSignature } from '@sceau/pdf';
import { createDevelopmentPki } from '@sceau/pdf/dev-pki';
import { createTestPhoto, createTestSignatureImages, testCredentialJson, testFields, testOfflinePayload } from '@sceau/pdf/test-fixtures';
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RenderPool, type RenderJob, type RenderSetup } from '../generations/render-pool.ts';
import { issueDevelopmentCertificate } from './certificates.ts';
import { loadMinistryKeys, type MinistryKeys } from './ministry-keys.ts';
import { generatePkcs11Key } from './pkcs11.ts';
import { createTestToken, softHsmAvailable, type TestToken } from './softhsm-token.ts';

const available = softHsmAvailable();
let token: TestToken;
let keys: MinistryKeys;
let pool: RenderPool;
let photo: Uint8Array;
let longTerm: RenderSetup['longTerm'];

function job(i: number): RenderJob {
  const fields = testFields({ name: `Kabeya Mwamba ${i}`, diplomaNumber: `DE-${i}` });
  return {
    fields,
    photo: new Uint8Array(photo),
    qr: { verifyUrl: `https://sceau.example/verify/${i}`, offlinePayload: testOfflinePayload() },
    credentialJson: testCredentialJson(fields),
  };
}

describe.skipIf(!available)('issuing PDFs with a token key (PKCS#11)', () => {
  beforeAll(async () => {
    token = await createTestToken('sceau-render');
    const keyConfig = { ...token.config, keyLabel: 'ministry', keyId: '01' };
    const pki = await createDevelopmentPki({ organization: 'Ministère de test' });
    // PAdES B-LTA as issuing makes it (ADR 0135): a local TSA and a CRL of the same development CA.
    const ca = { certificatePem: pki.caCertificatePem, privateKeyPem: pki.caPrivateKeyPem };
    const tsa = await createDevelopmentTsa({ ca });
    const crl = await createCertificateRevocationList({ ca, revoked: [], thisUpdate: new Date(), nextUpdate: new Date(Date.now() + 86400e3), crlNumber: 1 });
    longTerm = {
      id: 'pkcs11-test',
      tsa: { kind: 'local', privateKeyPem: tsa.privateKeyPem, certificateChainDer: tsa.certificateChainDer },
      validation: { certificates: [pki.caCertificateDer, tsa.certificateDer], crls: [crl] },
    };
    const { publicKey } = await generatePkcs11Key(keyConfig);
    const chainFile = path.join(token.dir, 'chain.pem');
    await writeFile(
      chainFile,
      (await issueDevelopmentCertificate({ ca: { certificatePem: pki.caCertificatePem, privateKeyPem: pki.caPrivateKeyPem }, publicKey, organization: 'Ministère de test' })) +
        pki.caCertificatePem,
    );
    keys = await loadMinistryKeys(
      { dir: path.join(token.dir, 'keys'), keyFile: null, certificateFile: chainFile, retiredCertificateFiles: [], organization: 'Ministère de test', pkcs11: keyConfig },
      { info: () => {}, warn: () => {} },
    );
    photo = await preparePhoto(await createTestPhoto(1), diplomeEtatTemplate.photo);
    pool = new RenderPool({ size: 2 });
  });
  afterAll(async () => {
    await pool?.close();
    keys?.close();
    await token?.remove();
  });

  it('renders in the threads and signs in the token: every PDF intact, signed by the token key', async () => {
    const setup: RenderSetup = { key: 'pkcs11', template: diplomeEtatTemplate, signatureImages: await createTestSignatureImages(), signer: keys.active.pdfSigner, longTerm };
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => pool.render(setup, job(i))));
    for (const { pdf } of results) {
      const check = verifyPdfSignature(pdf);
      // B-LTA: the signature (time-stamped) covers its revision; the DSS and a document time-stamp follow.
      expect(check).toMatchObject({ intact: true, coversWholeFile: false, signatureOk: true });
      expect(check.signatureTimestamp).toBeTruthy();
      expect(verifyDocumentTimestamps(pdf)).toMatchObject([{ ok: true, coveredLength: pdf.length }]);
      expect(Buffer.from(check.signerCertificateDer!).equals(Buffer.from(keys.active.certificateChainDer[0]!))).toBe(true);
    }
    // poppler's pdfsig accepts the token's signature as well.
    const file = path.join(token.dir, 'issued.pdf');
    await writeFile(file, results[0]!.pdf);
    const pdfsig = spawnSync('pdfsig', [file], { encoding: 'utf8' });
    if (!pdfsig.error || process.env.CI) expect(pdfsig.stdout).toMatch(/Signer full Distinguished Name: .*PKCS#11[\s\S]*Signature Validation: Signature is Valid\./);
  });

  it('fails the job with the signer error when the token refuses', async () => {
    const setup: RenderSetup = {
      key: 'pkcs11-broken',
      template: diplomeEtatTemplate,
      signatureImages: await createTestSignatureImages(),
      signer: { certificateChainDer: keys.active.certificateChainDer, sign: async () => Promise.reject(new Error('CKR_DEVICE_REMOVED')) },
      longTerm,
    };
    await expect(pool.render(setup, job(99))).rejects.toThrow(/CKR_DEVICE_REMOVED/);
    expect(pool.stats.failed).toBe(1);
  });
});
