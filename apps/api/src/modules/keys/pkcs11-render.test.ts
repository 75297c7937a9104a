// Issuing with the ministry key in a token: the render threads cannot hold it, so each asks the
// pool's thread to sign (render-pool.ts, ADR 0136). A SoftHSM2 token made for this file.
import { diplomeEtatTemplate, preparePhoto, verifyPdfSignature } from '@sceau/pdf';
import { createDevelopmentPki } from '@sceau/pdf/dev-pki';
import { createTestPhoto, createTestSignatureImages, testCredentialJson, testFields, testOfflinePayload } from '@sceau/pdf/test-fixtures';
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
    const setup: RenderSetup = { key: 'pkcs11', template: diplomeEtatTemplate, signatureImages: await createTestSignatureImages(), signer: keys.active.pdfSigner };
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => pool.render(setup, job(i))));
    for (const { pdf } of results) {
      const check = verifyPdfSignature(pdf);
      expect(check).toMatchObject({ intact: true, coversWholeFile: true, signatureOk: true });
      expect(Buffer.from(check.signerCertificateDer!).equals(Buffer.from(keys.active.certificateChainDer[0]!))).toBe(true);
    }
  });

  it('fails the job with the signer error when the token refuses', async () => {
    const setup: RenderSetup = {
      key: 'pkcs11-broken',
      template: diplomeEtatTemplate,
      signatureImages: await createTestSignatureImages(),
      signer: { certificateChainDer: keys.active.certificateChainDer, sign: async () => Promise.reject(new Error('CKR_DEVICE_REMOVED')) },
    };
    await expect(pool.render(setup, job(99))).rejects.toThrow(/CKR_DEVICE_REMOVED/);
    expect(pool.stats.failed).toBe(1);
  });
});
