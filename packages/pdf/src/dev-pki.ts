// A development PKI: a CA and a ministry document-signing certificate (ECDSA P-256), for tests and
// for the API's first start when no ministry certificate is configured. Never for production.
// @peculiar/x509 needs the Reflect metadata polyfill loaded before it.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { unsignedInteger } from './der.ts';

export interface DevelopmentPki {
  caCertificateDer: Uint8Array;
  caCertificatePem: string;
  caPrivateKeyPem: string;
  signingCertificateDer: Uint8Array;
  signingCertificatePem: string;
  /** PKCS#8 PEM of the signing key, readable by node:crypto's createPrivateKey. */
  signingPrivateKeyPem: string;
  /** Leaf first, as the Signer interface wants it. */
  certificateChainDer: Uint8Array[];
}

export interface DevelopmentPkiOptions {
  /** Organisation in both names, e.g. the ministry's name. */
  organization?: string;
  country?: string;
  signerCommonName?: string;
  /** Validity in years (default 10 for the CA, 3 for the signing certificate). */
  caYears?: number;
  signerYears?: number;
  /** An existing development CA to issue the new signing certificate from (key rotation). */
  ca?: { certificatePem: string; privateKeyPem: string };
  /** Key of the signing certificate: ECDSA P-256 (default, 0.3 ms a signature) or RSA-2048. */
  signerKey?: 'ECDSA-P256' | 'RSA-2048';
  /** Exact validity of the signing certificate (tests: a certificate that expires in seconds). */
  signerNotBefore?: Date;
  signerNotAfter?: Date;
  /** The CA's CRL address, written as the CRL distribution point of the certificates it issues. */
  crlUrl?: string;
}

export function fromPem(pem: string): ArrayBuffer {
  const base64 = pem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, '').replace(/\s+/g, '');
  const bytes = Buffer.from(base64, 'base64');
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
// id-kp-documentSigning (RFC 9336) and emailProtection, which older readers look for.
const DOCUMENT_SIGNING = '1.3.6.1.5.5.7.3.36';
const EMAIL_PROTECTION = '1.3.6.1.5.5.7.3.4';

export function toPem(label: string, der: ArrayBuffer | Uint8Array): string {
  const base64 = Buffer.from(der instanceof Uint8Array ? der : new Uint8Array(der)).toString('base64');
  return `-----BEGIN ${label}-----\n${base64.replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END ${label}-----\n`;
}

function escapeName(value: string): string {
  return value.replace(/([,+"\\<>;=])/g, '\\$1');
}

function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = bytes[0]! & 0x7f;
  return Buffer.from(bytes).toString('hex');
}

export async function createDevelopmentPki(options: DevelopmentPkiOptions = {}): Promise<DevelopmentPki> {
  // @peculiar/x509 is typed against the DOM's Crypto; Node's webcrypto is that implementation.
  const crypto = webcrypto as unknown as Parameters<typeof x509.X509CertificateGenerator.create>[1] & typeof webcrypto;
  const organization = escapeName(options.organization ?? "Ministère de l'Éducation nationale (développement)");
  const country = options.country ?? 'CD';
  const now = new Date(Date.now() - 60_000);
  const years = (n: number) => new Date(now.getTime() + n * 365.25 * 24 * 3600 * 1000);

  let caKeys: webcrypto.CryptoKeyPair;
  let ca: x509.X509Certificate;
  if (options.ca) {
    ca = new x509.X509Certificate(options.ca.certificatePem);
    const privateKey = await crypto.subtle.importKey('pkcs8', fromPem(options.ca.privateKeyPem), algorithm, true, ['sign']);
    caKeys = { privateKey, publicKey: await ca.publicKey.export(algorithm, ['verify'], crypto) } as webcrypto.CryptoKeyPair;
  } else {
    caKeys = (await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
    ca = await x509.X509CertificateGenerator.createSelfSigned(
      {
        serialNumber: randomSerial(),
        name: `CN=Sceau Development CA, O=${organization}, C=${country}`,
        notBefore: now,
        notAfter: years(options.caYears ?? 10),
        keys: caKeys,
        signingAlgorithm: algorithm,
        extensions: [
          new x509.BasicConstraintsExtension(true, 0, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
          await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey, false, crypto),
        ],
      },
      crypto,
    );
  }

  const signerAlgorithm =
    options.signerKey === 'RSA-2048' ? { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: Uint8Array.of(1, 0, 1), hash: 'SHA-256' } : algorithm;
  const signerKeys = (await crypto.subtle.generateKey(signerAlgorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const signer = await x509.X509CertificateGenerator.create(
    {
      serialNumber: randomSerial(),
      subject: `CN=${escapeName(options.signerCommonName ?? 'Sceau Diploma Signing (development)')}, O=${organization}, C=${country}`,
      issuer: ca.subject,
      notBefore: options.signerNotBefore ?? now,
      notAfter: options.signerNotAfter ?? years(options.signerYears ?? 3),
      publicKey: signerKeys.publicKey,
      signingKey: caKeys.privateKey,
      signingAlgorithm: algorithm,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
        new x509.ExtendedKeyUsageExtension([DOCUMENT_SIGNING, EMAIL_PROTECTION], false),
        await x509.SubjectKeyIdentifierExtension.create(signerKeys.publicKey, false, crypto),
        await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey, false, crypto),
        ...(options.crlUrl ? [new x509.CRLDistributionPointsExtension([options.crlUrl], false)] : []),
      ],
    },
    crypto,
  );

  const caDer = new Uint8Array(ca.rawData);
  const signerDer = new Uint8Array(signer.rawData);
  return {
    caCertificateDer: caDer,
    caCertificatePem: toPem('CERTIFICATE', caDer),
    caPrivateKeyPem: options.ca?.privateKeyPem ?? toPem('PRIVATE KEY', await crypto.subtle.exportKey('pkcs8', caKeys.privateKey)),
    signingCertificateDer: signerDer,
    signingCertificatePem: toPem('CERTIFICATE', signerDer),
    signingPrivateKeyPem: toPem('PRIVATE KEY', await crypto.subtle.exportKey('pkcs8', signerKeys.privateKey)),
    certificateChainDer: [signerDer, caDer],
  };
}

/** The CA's key and certificate as PEM (DATA_DIR/keys/development-ca*.pem). */
export interface CaMaterial {
  certificatePem: string;
  privateKeyPem: string;
}

async function openCa(ca: CaMaterial) {
  const crypto = webcrypto as unknown as Parameters<typeof x509.X509CertificateGenerator.create>[1] & typeof webcrypto;
  const certificate = new x509.X509Certificate(ca.certificatePem);
  const privateKey = await crypto.subtle.importKey('pkcs8', fromPem(ca.privateKeyPem), algorithm, true, ['sign']);
  const publicKey = await certificate.publicKey.export(algorithm, ['verify'], crypto);
  return { crypto, certificate, privateKey, publicKey };
}

// id-kp-timeStamping (RFC 3161 2.3: the only extended key usage of a TSA certificate, critical).
const TIME_STAMPING = '1.3.6.1.5.5.7.3.8';

export interface DevelopmentTsa {
  certificateDer: Uint8Array;
  certificatePem: string;
  privateKeyPem: string;
  /** Leaf first: the TSA certificate, then the CA's. */
  certificateChainDer: Uint8Array[];
}

/**
 * A development time-stamping certificate (ECDSA P-256) issued by the development CA: extended key
 * usage timeStamping (critical), key usage digitalSignature + nonRepudiation. Never for production.
 */
export async function createDevelopmentTsa(options: {
  ca: CaMaterial;
  organization?: string;
  country?: string;
  years?: number;
  crlUrl?: string;
  notAfter?: Date;
}): Promise<DevelopmentTsa> {
  const { crypto, certificate: ca, privateKey: caKey, publicKey: caPublic } = await openCa(options.ca);
  const organization = escapeName(options.organization ?? "Ministère de l'Éducation nationale (développement)");
  const now = new Date(Date.now() - 60_000);
  const keys = (await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const caEnd = new Date(ca.notAfter).getTime();
  const wanted = options.notAfter?.getTime() ?? now.getTime() + (options.years ?? 5) * 365.25 * 24 * 3600 * 1000;
  const certificate = await x509.X509CertificateGenerator.create(
    {
      serialNumber: randomSerial(),
      subject: `CN=Sceau Time-Stamping Authority (development), O=${organization}, C=${options.country ?? 'CD'}`,
      issuer: ca.subject,
      notBefore: now,
      // Not beyond the CA: a time-stamp is only as good as its chain.
      notAfter: new Date(Math.min(wanted, caEnd)),
      publicKey: keys.publicKey,
      signingKey: caKey,
      signingAlgorithm: algorithm,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
        new x509.ExtendedKeyUsageExtension([TIME_STAMPING], true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
        await x509.AuthorityKeyIdentifierExtension.create(caPublic, false, crypto),
        ...(options.crlUrl ? [new x509.CRLDistributionPointsExtension([options.crlUrl], false)] : []),
      ],
    },
    crypto,
  );
  const der = new Uint8Array(certificate.rawData);
  return {
    certificateDer: der,
    certificatePem: toPem('CERTIFICATE', der),
    privateKeyPem: toPem('PRIVATE KEY', await crypto.subtle.exportKey('pkcs8', keys.privateKey)),
    certificateChainDer: [der, new Uint8Array(ca.rawData)],
  };
}

export interface RevokedCertificate {
  /** Serial number, hexadecimal as in the certificate. */
  serialHex: string;
  revokedAt: Date;
  reason?: 'unspecified' | 'keyCompromise' | 'cACompromise' | 'affiliationChanged' | 'superseded' | 'cessationOfOperation';
}

/** A CRL signed by the CA: its revoked certificates, thisUpdate, nextUpdate and a CRL number. */
export async function createCertificateRevocationList(options: {
  ca: CaMaterial;
  revoked: RevokedCertificate[];
  thisUpdate: Date;
  nextUpdate: Date;
  /** Monotonic CRL number (RFC 5280 5.2.3). */
  crlNumber: number;
}): Promise<Uint8Array> {
  const { crypto, certificate: ca, privateKey, publicKey } = await openCa(options.ca);
  const number = BigInt(options.crlNumber).toString(16);
  const numberBytes = Buffer.from(number.length % 2 ? `0${number}` : number, 'hex');
  const crl = await x509.X509CrlGenerator.create(
    {
      issuer: ca.subject,
      thisUpdate: options.thisUpdate,
      nextUpdate: options.nextUpdate,
      signingKey: privateKey,
      signingAlgorithm: algorithm,
      extensions: [
        await x509.AuthorityKeyIdentifierExtension.create(publicKey, false, crypto),
        // cRLNumber: INTEGER.
        new x509.Extension('2.5.29.20', false, unsignedInteger(numberBytes)),
      ],
      entries: options.revoked.map((entry) => ({
        serialNumber: entry.serialHex,
        revocationDate: entry.revokedAt,
        ...(entry.reason ? { reason: x509.X509CrlReason[entry.reason] } : {}),
      })),
    },
    crypto,
  );
  return new Uint8Array(crl.rawData);
}
