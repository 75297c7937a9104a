// CMS SignedData for PAdES-B-B (ETSI.CAdES.detached): built by hand in DER, signed through the
// Signer interface (node:crypto by default), and parsed back for verification.
import { X509Certificate, createHash, createPrivateKey, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { children, content, contextConstructed, decodeOid, octetString, oid, raw, readNode, sequence, set, setOf, smallInteger, derNull, type DerNode } from './der.ts';

/**
 * Who signs the PDF: the ministry certificate (first) with its chain, and a function that signs
 * bytes with the certificate's key. The API plugs its key here; later an HSM.
 * `sign` receives the DER of the signed attributes and returns the signature: DER (r,s) for ECDSA
 * with SHA-256 (node:crypto's default), PKCS#1 v1.5 with SHA-256 for RSA.
 */
export interface Signer {
  certificateChainDer: Uint8Array[];
  sign(dataToSign: Uint8Array): Promise<Uint8Array>;
}

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  ecdsaWithSha384: '1.2.840.10045.4.3.3',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  rsaEncryption: '1.2.840.113549.1.1.1',
  /** id-ct-TSTInfo: the content of an RFC 3161 time-stamp token. */
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  /** id-aa-signatureTimeStampToken: unsigned attribute holding a token over the signature value. */
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
} as const;

/**
 * Who time-stamps: returns an RFC 3161 time-stamp token (DER ContentInfo) over a SHA-256 imprint.
 * `maxTokenLength` bounds the token's size, to reserve room for it in the PDF.
 */
export interface TimeStamper {
  timestamp(imprint: Uint8Array): Promise<Uint8Array>;
  maxTokenLength: number;
}

const digestNames: Record<string, string> = { [OID.sha256]: 'sha256', [OID.sha384]: 'sha384', [OID.sha512]: 'sha512' };

/** What the CMS needs from the signer's certificate, computed once per signer. */
interface SignerProfile {
  certificates: Uint8Array[];
  issuerAndSerial: Uint8Array;
  signatureAlgorithm: Uint8Array;
  signingCertificateV2: Uint8Array;
  maxSignatureLength: number;
}

const profiles = new WeakMap<Signer, SignerProfile>();

/** Reads issuer and serial number (DER) from a certificate. */
export function certificateIssuerAndSerial(der: Uint8Array): { issuer: Uint8Array; serial: Uint8Array } {
  const cert = readNode(der, 0);
  const tbs = children(der, cert)[0]!;
  const fields = children(der, tbs);
  const offset = fields[0]!.tag === 0xa0 ? 1 : 0;
  return { serial: raw(der, fields[offset]!), issuer: raw(der, fields[offset + 2]!) };
}

function signerProfile(signer: Signer): SignerProfile {
  const cached = profiles.get(signer);
  if (cached) return cached;
  const leaf = signer.certificateChainDer[0];
  if (!leaf) throw new Error('the signer has no certificate');
  const certificate = new X509Certificate(leaf);
  const key = certificate.publicKey;
  let signatureAlgorithm: Uint8Array;
  let maxSignatureLength: number;
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve !== 'prime256v1') throw new Error(`ECDSA curve ${curve} is not supported (use P-256)`);
    signatureAlgorithm = sequence(oid(OID.ecdsaWithSha256));
    maxSignatureLength = 72;
  } else if (key.asymmetricKeyType === 'rsa') {
    signatureAlgorithm = sequence(oid(OID.sha256WithRsa), derNull);
    maxSignatureLength = Math.ceil((key.asymmetricKeyDetails?.modulusLength ?? 4096) / 8);
  } else {
    throw new Error(`key type ${key.asymmetricKeyType} is not supported`);
  }
  const { issuer, serial } = certificateIssuerAndSerial(leaf);
  const certHash = createHash('sha256').update(leaf).digest();
  const profile: SignerProfile = {
    certificates: signer.certificateChainDer,
    issuerAndSerial: sequence(issuer, serial),
    signatureAlgorithm,
    // SigningCertificateV2 { certs: [ ESSCertIDv2 { certHash } ] } (hash algorithm: the SHA-256 default).
    signingCertificateV2: sequence(oid(OID.signingCertificateV2), set(sequence(sequence(sequence(octetString(certHash)))))),
    maxSignatureLength,
  };
  profiles.set(signer, profile);
  return profile;
}

function signedAttributes(profile: SignerProfile, messageDigest: Uint8Array, contentType: string = OID.data): Uint8Array {
  // No signing-time attribute: PAdES-B-B takes the claimed time from the signature dictionary's /M.
  return setOf([sequence(oid(OID.contentType), set(oid(contentType))), sequence(oid(OID.messageDigest), set(octetString(messageDigest))), profile.signingCertificateV2]);
}

interface AssembleOptions {
  /** Encapsulated content type (default id-data) and, when not detached, the content itself. */
  contentType?: string;
  content?: Uint8Array;
  /** DER of the unsigned attributes' Attribute values (each a SEQUENCE), if any. */
  unsignedAttributes?: Uint8Array[];
}

function assemble(profile: SignerProfile, attributes: Uint8Array, signature: Uint8Array, options: AssembleOptions = {}): Uint8Array {
  const sha256 = sequence(oid(OID.sha256));
  const contentType = options.contentType ?? OID.data;
  // In SignerInfo the signed attributes are [0] IMPLICIT: same bytes, context tag.
  const implicitAttributes = Uint8Array.from(attributes);
  implicitAttributes[0] = 0xa0;
  // Unsigned attributes: [1] IMPLICIT SET OF Attribute (DER order).
  const unsigned = options.unsignedAttributes?.length ? [setOf(options.unsignedAttributes)] : [];
  if (unsigned[0]) unsigned[0][0] = 0xa1;
  const signerInfo = sequence(smallInteger(1), profile.issuerAndSerial, sha256, implicitAttributes, profile.signatureAlgorithm, octetString(signature), ...unsigned);
  const encapsulated = options.content ? sequence(oid(contentType), contextConstructed(0, octetString(options.content))) : sequence(oid(contentType));
  // RFC 5652 5.1: version 3 when the encapsulated content is not id-data.
  const version = contentType === OID.data ? 1 : 3;
  const signedData = sequence(smallInteger(version), set(sha256), encapsulated, contextConstructed(0, ...profile.certificates), set(signerInfo));
  return sequence(oid(OID.signedData), contextConstructed(0, signedData));
}

/** The unsigned attribute carrying a signature time-stamp token. */
function signatureTimeStampAttribute(token: Uint8Array): Uint8Array {
  return sequence(oid(OID.signatureTimeStampToken), set(token));
}

/** Upper bound of the CMS size for this signer (to reserve the /Contents placeholder). */
export function maxCmsLength(signer: Signer, timestamper?: TimeStamper): number {
  const profile = signerProfile(signer);
  const unsignedAttributes = timestamper ? [signatureTimeStampAttribute(new Uint8Array(timestamper.maxTokenLength))] : [];
  return assemble(profile, signedAttributes(profile, new Uint8Array(32)), new Uint8Array(profile.maxSignatureLength), { unsignedAttributes }).length;
}

/**
 * Builds the detached CMS over a SHA-256 document digest. With a time-stamper, the signature value
 * is time-stamped and the token added as the unsigned signature-time-stamp attribute (CAdES-T,
 * PAdES B-T).
 */
export async function createCms(signer: Signer, documentDigest: Uint8Array, options: { timestamper?: TimeStamper | undefined } = {}): Promise<Uint8Array> {
  const profile = signerProfile(signer);
  const attributes = signedAttributes(profile, documentDigest);
  const signature = await signer.sign(attributes);
  if (signature.length > profile.maxSignatureLength) throw new Error('signature longer than the certificate key allows');
  if (!options.timestamper) return assemble(profile, attributes, signature);
  const token = await options.timestamper.timestamp(createHash('sha256').update(signature).digest());
  if (token.length > options.timestamper.maxTokenLength) throw new Error(`time-stamp token of ${token.length} bytes, more than the ${options.timestamper.maxTokenLength} reserved`);
  return assemble(profile, attributes, signature, { unsignedAttributes: [signatureTimeStampAttribute(token)] });
}

/**
 * A CMS SignedData encapsulating `content` of type `contentType` (e.g. a TSTInfo), signed by
 * `signer` with content-type, message-digest and signing-certificate-v2 signed attributes.
 */
export async function createEncapsulatedCms(signer: Signer, contentType: string, content: Uint8Array): Promise<Uint8Array> {
  const profile = signerProfile(signer);
  const attributes = signedAttributes(profile, createHash('sha256').update(content).digest(), contentType);
  const signature = await signer.sign(attributes);
  return assemble(profile, attributes, signature, { contentType, content });
}

/** Upper bound of `createEncapsulatedCms`'s size for content of at most `contentLength` bytes. */
export function maxEncapsulatedCmsLength(signer: Signer, contentType: string, contentLength: number): number {
  const profile = signerProfile(signer);
  return assemble(profile, signedAttributes(profile, new Uint8Array(32), contentType), new Uint8Array(profile.maxSignatureLength), {
    contentType,
    content: new Uint8Array(contentLength),
  }).length;
}

/** A Signer over a private key in node:crypto (ECDSA P-256 or RSA), synchronous under the hood. */
export function createKeySigner(options: { privateKey: KeyObject | string; certificateChainDer: Uint8Array[] }): Signer {
  const key = typeof options.privateKey === 'string' ? createPrivateKey(options.privateKey) : options.privateKey;
  return {
    certificateChainDer: options.certificateChainDer,
    sign: async (data) => cryptoSign('sha256', data, key),
  };
}

export interface ParsedCms {
  certificates: Uint8Array[];
  signerCertificate: Uint8Array | null;
  digestAlgorithm: string | null;
  signatureAlgorithm: string;
  /** Signed attributes re-tagged as a SET (the bytes the signature covers). */
  signedAttributes: Uint8Array;
  messageDigest: Uint8Array | null;
  contentType: string | null;
  /** SHA-256 certificate hashes of the signing-certificate-v2 attribute (empty if absent). */
  signingCertificateHashes: Uint8Array[];
  signature: Uint8Array;
  /** Encapsulated content type and content (null when detached). */
  encapsulatedContentType: string;
  encapsulatedContent: Uint8Array | null;
  /** The signature-time-stamp token (unsigned attribute), if any. */
  signatureTimeStampToken: Uint8Array | null;
}

function expectTag(node: DerNode | undefined, tag: number, what: string): DerNode {
  if (!node || node.tag !== tag) throw new Error(`CMS: expected ${what}`);
  return node;
}

export function parseCms(der: Uint8Array): ParsedCms {
  const contentInfo = readNode(der, 0);
  const [typeNode, wrapped] = children(der, expectTag(contentInfo, 0x30, 'ContentInfo'));
  if (decodeOid(der, expectTag(typeNode, 0x06, 'content type')) !== OID.signedData) throw new Error('CMS: not SignedData');
  const signedData = expectTag(children(der, expectTag(wrapped, 0xa0, 'content'))[0], 0x30, 'SignedData');
  const parts = children(der, signedData);
  const certificates: Uint8Array[] = [];
  let signerInfos: DerNode | undefined;
  for (const part of parts.slice(3)) {
    if (part.tag === 0xa0) for (const c of children(der, part)) if (c.tag === 0x30) certificates.push(raw(der, c));
    if (part.tag === 0x31) signerInfos = part;
  }
  const signerInfo = expectTag(children(der, expectTag(signerInfos, 0x31, 'signerInfos'))[0], 0x30, 'SignerInfo');
  const [, sid, digestAlg, ...rest] = children(der, signerInfo);
  const attributesNode = expectTag(rest[0], 0xa0, 'signed attributes');
  const signatureAlgorithmNode = expectTag(rest[1], 0x30, 'signature algorithm');
  const signatureNode = expectTag(rest[2], 0x04, 'signature');
  let signatureTimeStampToken: Uint8Array | null = null;
  if (rest[3]?.tag === 0xa1) {
    for (const attribute of children(der, rest[3])) {
      const [idNode, valuesNode] = children(der, attribute);
      if (decodeOid(der, expectTag(idNode, 0x06, 'attribute type')) !== OID.signatureTimeStampToken) continue;
      const token = children(der, expectTag(valuesNode, 0x31, 'attribute values'))[0];
      if (token) signatureTimeStampToken = raw(der, expectTag(token, 0x30, 'time-stamp token'));
    }
  }
  const encapsulatedNodes = children(der, expectTag(parts[2], 0x30, 'encapsulated content info'));
  const encapsulatedContentType = decodeOid(der, expectTag(encapsulatedNodes[0], 0x06, 'encapsulated content type'));
  const explicitContent = encapsulatedNodes[1] ? children(der, expectTag(encapsulatedNodes[1], 0xa0, 'encapsulated content'))[0] : undefined;
  const encapsulatedContent = explicitContent ? content(der, expectTag(explicitContent, 0x04, 'encapsulated content octets')) : null;

  const signedAttributes = Uint8Array.from(raw(der, attributesNode));
  signedAttributes[0] = 0x31;
  let messageDigest: Uint8Array | null = null;
  let contentType: string | null = null;
  const signingCertificateHashes: Uint8Array[] = [];
  for (const attribute of children(der, attributesNode)) {
    const [idNode, valuesNode] = children(der, attribute);
    const id = decodeOid(der, expectTag(idNode, 0x06, 'attribute type'));
    const value = children(der, expectTag(valuesNode, 0x31, 'attribute values'))[0];
    if (!value) continue;
    if (id === OID.messageDigest) messageDigest = content(der, expectTag(value, 0x04, 'digest'));
    if (id === OID.contentType) contentType = decodeOid(der, expectTag(value, 0x06, 'content type'));
    if (id === OID.signingCertificateV2) {
      const certs = children(der, expectTag(value, 0x30, 'SigningCertificateV2'))[0];
      for (const essCertId of certs ? children(der, certs) : []) {
        const fields = children(der, essCertId);
        // An explicit hash algorithm other than SHA-256 comes first; we only accept the default.
        const hashNode = fields[0]?.tag === 0x04 ? fields[0] : undefined;
        if (hashNode) signingCertificateHashes.push(content(der, hashNode));
      }
    }
  }

  const sidBytes = raw(der, expectTag(sid, 0x30, 'issuer and serial number'));
  const signerCertificate =
    certificates.find((certificate) => {
      const { issuer, serial } = certificateIssuerAndSerial(certificate);
      return Buffer.compare(Buffer.from(sequence(issuer, serial)), Buffer.from(sidBytes)) === 0;
    }) ?? null;

  return {
    certificates,
    signerCertificate,
    digestAlgorithm: digestNames[decodeOid(der, children(der, expectTag(digestAlg, 0x30, 'digest algorithm'))[0]!)] ?? null,
    signatureAlgorithm: decodeOid(der, children(der, signatureAlgorithmNode)[0]!),
    signedAttributes,
    messageDigest,
    contentType,
    signingCertificateHashes,
    signature: content(der, signatureNode),
    encapsulatedContentType,
    encapsulatedContent,
    signatureTimeStampToken,
  };
}
