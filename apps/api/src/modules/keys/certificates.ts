// Certificates for a key the platform does not hold (one generated in a PKCS#11 token): a
// certificate request signed through the token, for the ministry's CA, and, in development, a
// certificate from the development CA. @peculiar/x509 needs the Reflect metadata polyfill first.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { randomBytes, webcrypto, type KeyObject } from 'node:crypto';

const ecdsa = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
// id-kp-documentSigning (RFC 9336) and emailProtection, as the development PKI writes them.
const DOCUMENT_SIGNING = '1.3.6.1.5.5.7.3.36';
const EMAIL_PROTECTION = '1.3.6.1.5.5.7.3.4';

type Crypto = Parameters<typeof x509.X509CertificateGenerator.create>[1];
const nodeCrypto = webcrypto as unknown as NonNullable<Crypto> & typeof webcrypto;

function escapeName(value: string): string {
  return value.replace(/([,+"\\<>;=])/g, '\\$1');
}

function toPem(label: string, der: ArrayBuffer | Uint8Array): string {
  const base64 = Buffer.from(der instanceof Uint8Array ? der : new Uint8Array(der)).toString('base64');
  return `-----BEGIN ${label}-----\n${base64.replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END ${label}-----\n`;
}

async function importPublic(key: KeyObject): Promise<webcrypto.CryptoKey> {
  return nodeCrypto.subtle.importKey('spki', key.export({ format: 'der', type: 'spki' }), ecdsa, true, ['verify']);
}

/**
 * A document-signing certificate for `publicKey`, issued by the development CA (development mode
 * only: the ministry's real certificate comes from its CA). PEM, leaf only.
 */
export async function issueDevelopmentCertificate(options: {
  ca: { certificatePem: string; privateKeyPem: string };
  publicKey: KeyObject;
  organization: string;
  commonName?: string;
  years?: number;
}): Promise<string> {
  const ca = new x509.X509Certificate(options.ca.certificatePem);
  const der = Buffer.from(options.ca.privateKeyPem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
  const caKey = await nodeCrypto.subtle.importKey('pkcs8', der, ecdsa, false, ['sign']);
  const caPublic = await ca.publicKey.export(ecdsa, ['verify'], nodeCrypto);
  const publicKey = await importPublic(options.publicKey);
  const now = new Date(Date.now() - 60_000);
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  const certificate = await x509.X509CertificateGenerator.create(
    {
      serialNumber: serial.toString('hex'),
      subject: `CN=${escapeName(options.commonName ?? 'Sceau Diploma Signing (development, PKCS#11)')}, O=${escapeName(options.organization)}, C=CD`,
      issuer: ca.subject,
      notBefore: now,
      notAfter: new Date(now.getTime() + (options.years ?? 3) * 365.25 * 24 * 3600 * 1000),
      publicKey,
      signingKey: caKey,
      signingAlgorithm: ecdsa,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
        new x509.ExtendedKeyUsageExtension([DOCUMENT_SIGNING, EMAIL_PROTECTION], false),
        await x509.SubjectKeyIdentifierExtension.create(publicKey, false, nodeCrypto),
        await x509.AuthorityKeyIdentifierExtension.create(caPublic, false, nodeCrypto),
      ],
    },
    nodeCrypto,
  );
  return toPem('CERTIFICATE', certificate.rawData);
}

/**
 * A PKCS#10 certificate request for a key held elsewhere (a token): `signRaw` signs the request's
 * body (ECDSA P-256 over SHA-256, r‖s), so the private key never leaves the token. PEM.
 */
export async function createCertificateRequest(options: { publicKey: KeyObject; subject: string; signRaw(data: Uint8Array): Promise<Uint8Array> }): Promise<string> {
  const publicKey = await importPublic(options.publicKey);
  // The generator signs through `crypto.subtle.sign`: a provider whose sign goes to the token.
  const tokenKey = { algorithm: ecdsa, type: 'private', extractable: false, usages: ['sign'] } as unknown as webcrypto.CryptoKey;
  const real = nodeCrypto.subtle;
  const subtle = new Proxy(real, {
    get(target, name) {
      if (name === 'sign') {
        return async (_algorithm: unknown, key: webcrypto.CryptoKey, data: ArrayBuffer | ArrayBufferView) => {
          if (key !== tokenKey) throw new Error('unexpected key');
          const bytes = ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
          // WebCrypto's form, r‖s: @peculiar/x509 writes it as DER in the request.
          return Uint8Array.from(await options.signRaw(bytes)).buffer;
        };
      }
      const value = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const provider = { subtle, getRandomValues: nodeCrypto.getRandomValues.bind(nodeCrypto), randomUUID: nodeCrypto.randomUUID.bind(nodeCrypto) } as unknown as NonNullable<Crypto>;
  const request = await x509.Pkcs10CertificateRequestGenerator.create(
    { name: options.subject, keys: { privateKey: tokenKey, publicKey } as webcrypto.CryptoKeyPair, signingAlgorithm: ecdsa },
    provider,
  );
  return toPem('CERTIFICATE REQUEST', request.rawData);
}
