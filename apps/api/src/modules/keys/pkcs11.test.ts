// The PKCS#11 signer against a real PKCS#11 library: a SoftHSM2 token made for this file, a P-256 key
// generated inside it, a diploma PDF signed through it and checked by the platform and by pdfsig.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { verifyEs256 } from '@sceau/credential';
import { createDevelopmentPki, createDiplomaRenderer, diplomeEtatTemplate, preparePhoto, signPdf, verifyPdfSignature } from '@sceau/pdf';
import { createTestPhoto, createTestSignatureImages, testCredentialJson, testFields, testOfflinePayload } from '@sceau/pdf/test-fixtures';
import { spawnSync } from 'node:child_process';
import { createPublicKey, verify, X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateRequest, issueDevelopmentCertificate } from './certificates.ts';
import { loadMinistryKeys } from './ministry-keys.ts';
import {
  destroyPkcs11PrivateKey,
  generatePkcs11Key,
  openPkcs11Key,
  p1363ToDer,
  Pkcs11ConfigError,
  signOnceWithPkcs11Key,
  storePkcs11Certificate,
  type Pkcs11Config,
} from './pkcs11.ts';
import { createTestToken, softHsmAvailable, type TestToken } from './softhsm-token.ts';

const available = softHsmAvailable();
let token: TestToken;
let keyConfig: Pkcs11Config;
let ca: { certificatePem: string; privateKeyPem: string; der: Uint8Array };
let chainFile: string;

describe.skipIf(!available)('PKCS#11 signer (SoftHSM2)', () => {
  beforeAll(async () => {
    token = await createTestToken();
    keyConfig = { ...token.config, keyLabel: 'ministry-2026', keyId: 'a1' };
    const pki = await createDevelopmentPki({ organization: 'Ministère de test' });
    ca = { certificatePem: pki.caCertificatePem, privateKeyPem: pki.caPrivateKeyPem, der: pki.caCertificateDer };
    const { publicKey } = await generatePkcs11Key(keyConfig);
    const leafPem = await issueDevelopmentCertificate({ ca, publicKey, organization: 'Ministère de test' });
    chainFile = path.join(token.dir, 'ministry.chain.pem');
    await writeFile(chainFile, leafPem + ca.certificatePem);
  });
  afterAll(() => token?.remove());

  it('generates the key inside the token, sensitive and not extractable: no key file anywhere', async () => {
    const files = await readdir(token.dir, { recursive: true });
    expect(files.some((f) => /\.key|private/i.test(f))).toBe(false);
    // The token's object files hold no PKCS#8 or SEC1 key (they are SoftHSM's own, encrypted with the PIN-derived key).
    for (const file of files.filter((f) => f.endsWith('.object'))) {
      const bytes = await readFile(path.join(token.dir, file));
      expect(bytes.includes(Buffer.from('BEGIN'))).toBe(false);
    }
    await expect(generatePkcs11Key(keyConfig)).rejects.toThrow(/already holds a private key with this label/);
  });

  it('signs ES256 (r‖s) and DER signatures that the certificate key verifies, many at once', async () => {
    const key = await openPkcs11Key(keyConfig, { certificateFile: chainFile });
    try {
      expect(key.description).toContain('token "sceau-test"');
      expect(key.certificateChainDer).toHaveLength(2);
      const messages = Array.from({ length: 40 }, (_, i) => new TextEncoder().encode(`racine ${i}`));
      const signatures = await Promise.all(messages.map((m) => key.signRaw(m)));
      for (const [i, signature] of signatures.entries()) {
        expect(signature).toHaveLength(64);
        expect(verify('sha256', messages[i]!, { key: key.publicKey, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
      }
      const der = await key.signDer(messages[0]!);
      expect(verify('sha256', messages[0]!, { key: key.publicKey, dsaEncoding: 'der' }, der)).toBe(true);
      const jwk = key.publicKey.export({ format: 'jwk' }) as { x: string; y: string };
      expect(verifyEs256({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, messages[1]!, signatures[1]!)).toBe(true);
      expect(verifyEs256({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, messages[2]!, signatures[1]!)).toBe(false);
    } finally {
      key.close();
    }
  });

  it('signs a real diploma PDF through the token: the platform and pdfsig accept it', async () => {
    const key = await openPkcs11Key(keyConfig, { certificateFile: chainFile });
    try {
      const renderer = await createDiplomaRenderer({ template: diplomeEtatTemplate, signatureImages: await createTestSignatureImages() });
      const photo = await preparePhoto(await createTestPhoto(), renderer.template.photo);
      const fields = testFields();
      const unsigned = await renderer.render(fields, photo, { verifyUrl: 'https://sceau.example.cd/verify/x', offlinePayload: testOfflinePayload() }, testCredentialJson(fields));
      const signed = await signPdf(unsigned, { certificateChainDer: key.certificateChainDer, sign: key.signDer });
      const check = verifyPdfSignature(signed);
      expect(check).toMatchObject({ intact: true, coversWholeFile: true, digestOk: true, signatureOk: true });
      expect(Buffer.from(check.signerCertificateDer!).equals(Buffer.from(key.certificateChainDer[0]!))).toBe(true);
      const file = path.join(token.dir, 'signed.pdf');
      await writeFile(file, signed);
      const pdfsig = spawnSync('pdfsig', [file], { encoding: 'utf8' });
      if (pdfsig.error && !process.env.CI) return; // poppler-utils missing outside CI
      expect(pdfsig.stdout).toContain('Signature Validation: Signature is Valid.');
      expect(pdfsig.stdout).toMatch(/Signer full Distinguished Name: .*Sceau Diploma Signing \(development, PKCS#11\)/);
      // One changed byte inside the signed range: refused.
      const tampered = Uint8Array.from(signed);
      tampered[2000] = tampered[2000]! ^ 1;
      expect(verifyPdfSignature(tampered).intact).toBe(false);
    } finally {
      key.close();
    }
  });

  it('reads the certificate chain from the token when no file is given', async () => {
    const leafDer = new Uint8Array(new x509.X509Certificate(await readFile(chainFile, 'utf8')).rawData);
    await storePkcs11Certificate(keyConfig, leafDer);
    await storePkcs11Certificate({ ...keyConfig, keyId: null }, ca.der, 'development-ca');
    const key = await openPkcs11Key(keyConfig);
    try {
      expect(key.certificateChainDer.map((der) => Buffer.from(der).toString('hex'))).toEqual([Buffer.from(leafDer).toString('hex'), Buffer.from(ca.der).toString('hex')]);
    } finally {
      key.close();
    }
  });

  it('makes a certificate request for a key just generated in the token, signed there, for the CA', async () => {
    const next = { ...keyConfig, keyLabel: 'ministry-2027', keyId: 'c3' };
    const { publicKey } = await generatePkcs11Key(next);
    {
      const pem = await createCertificateRequest({ publicKey, subject: 'CN=Sceau 2027, O=Ministère de test, C=CD', signRaw: (data) => signOnceWithPkcs11Key(next, data) });
      const request = new x509.Pkcs10CertificateRequest(pem);
      expect(request.subject).toBe('CN=Sceau 2027, O=Ministère de test, C=CD');
      expect(await request.verify()).toBe(true);
      const out = spawnSync('openssl', ['req', '-verify', '-noout'], { input: pem, encoding: 'utf8' });
      if (!out.error) expect(`${out.stdout}${out.stderr}`).toMatch(/verify OK/i);
      expect(Buffer.from(new x509.Pkcs10CertificateRequest(pem).publicKey.rawData).equals(publicKey.export({ format: 'der', type: 'spki' }))).toBe(true);
    }
  });

  it('refuses what does not fit, naming what to fix', async () => {
    await expect(openPkcs11Key({ ...keyConfig, pin: '000000' }, { certificateFile: chainFile })).rejects.toThrow(/refused the PIN/);
    await expect(openPkcs11Key({ ...keyConfig, tokenLabel: 'absent' }, { certificateFile: chainFile })).rejects.toThrow(/no initialised token labelled "absent"/);
    await expect(openPkcs11Key({ ...keyConfig, keyLabel: 'other', keyId: null }, { certificateFile: chainFile })).rejects.toThrow(/holds no EC private key with label "other"/);
    await expect(openPkcs11Key({ ...keyConfig, keyId: 'zz' }, { certificateFile: chainFile })).rejects.toThrow(/hexadecimal/);
    await expect(openPkcs11Key({ ...keyConfig, pin: null })).rejects.toThrow(Pkcs11ConfigError);
    await expect(openPkcs11Key({ ...keyConfig, module: '/nonexistent/libpkcs11.so' })).rejects.toThrow(/could not be loaded/);
    // A certificate of another key: a mismatch found by signing once at opening.
    const other = await createDevelopmentPki();
    const otherFile = path.join(token.dir, 'other.chain.pem');
    await writeFile(otherFile, other.signingCertificatePem);
    await expect(openPkcs11Key(keyConfig, { certificateFile: otherFile })).rejects.toThrow(/does not belong to the token's key/);
  });

  it('reads the PIN from a file (first line)', async () => {
    const pinFile = path.join(token.dir, 'pin');
    await writeFile(pinFile, `${token.config.pin}\n`, { mode: 0o600 });
    const key = await openPkcs11Key({ ...keyConfig, pin: null, pinFile }, { certificateFile: chainFile });
    key.close();
  });

  it('is the ministry key of the platform: mode pkcs11, no private key in the process, published and signing', async () => {
    const keysConfig = {
      dir: path.join(token.dir, 'keys'),
      keyFile: null,
      certificateFile: chainFile,
      retiredCertificateFiles: [],
      organization: 'Ministère de test',
      pkcs11: keyConfig,
    };
    const logged: unknown[] = [];
    const keys = await loadMinistryKeys(keysConfig, { info: (o: unknown) => logged.push(o), warn: () => {} });
    try {
      expect(keys.mode).toBe('pkcs11');
      expect(keys.active.privateKey).toBeNull();
      const published = keys.jwks().keys;
      expect(published).toHaveLength(1);
      expect(published[0]).toMatchObject({ kid: keys.active.kid, status: 'active' });
      const data = new TextEncoder().encode('racine du lot');
      expect(verifyEs256(published[0]!, data, await keys.active.es256.sign(data))).toBe(true);
      const der = await keys.active.pdfSigner.sign(data);
      expect(verify('sha256', data, { key: new X509Certificate(keys.active.certificateChainDer[0]!).publicKey, dsaEncoding: 'der' }, der)).toBe(true);
      expect(JSON.stringify(logged)).not.toContain(token.config.pin!);
      // The key folder holds certificates and the keyring, never a private key.
      const files = await readdir(keysConfig.dir);
      expect(files.sort()).toEqual([`ministry-${keys.active.kid}.chain.pem`, 'ministry-keyring.json'].sort());
    } finally {
      keys.close();
    }
  });

  it('destroys a retired private key in the token; the certificate stays', async () => {
    const retired = { ...keyConfig, keyLabel: 'ministry-2025', keyId: 'b2' };
    const { publicKey } = await generatePkcs11Key(retired);
    expect(await destroyPkcs11PrivateKey(retired)).toBe(1);
    await expect(openPkcs11Key(retired, { certificateFile: chainFile })).rejects.toThrow(/holds no EC private key/);
    expect(await destroyPkcs11PrivateKey(retired)).toBe(0);
    // The active key is untouched.
    const key = await openPkcs11Key(keyConfig, { certificateFile: chainFile });
    key.close();
    expect(createPublicKey(publicKey.export({ format: 'pem', type: 'spki' })).asymmetricKeyType).toBe('ec');
    expect(existsSync(chainFile)).toBe(true);
    expect(new X509Certificate(await readFile(chainFile, 'utf8')).publicKey.asymmetricKeyType).toBe('ec');
  });

  it('encodes r‖s as DER integers, with a leading zero when the high bit is set', () => {
    const raw = new Uint8Array(64);
    raw[0] = 0x80;
    raw[63] = 1;
    const der = Buffer.from(p1363ToDer(raw)).toString('hex');
    expect(der.startsWith('3026022100800000')).toBe(true);
    expect(der.endsWith('020101')).toBe(true);
  });
});
