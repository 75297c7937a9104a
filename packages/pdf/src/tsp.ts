// RFC 3161 time-stamping: requests and responses (ASN.1 through @peculiar/asn1-tsp), a client for
// any TSA over HTTP (bounded in time and size, nonce, imprint, status and token signature checked),
// a local time-stamping authority (its token is a CMS SignedData built like the PDF signature's,
// cms.ts), and the check of a token by anyone who holds it.
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import { MessageImprint, PKIFailureInfo, PKIFreeText, PKIStatus, PKIStatusInfo, TimeStampReq, TimeStampResp, TSTInfo } from '@peculiar/asn1-tsp';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import { X509Certificate, createHash, verify as cryptoVerify, randomBytes, timingSafeEqual } from 'node:crypto';
import { OID, createEncapsulatedCms, maxEncapsulatedCmsLength, parseCms, type Signer, type TimeStamper } from './cms.ts';
import { children, oid, raw, readNode, sequence, smallInteger, tlv, unsignedInteger, unsignedIntegerContent } from './der.ts';

export type { TimeStamper } from './cms.ts';

/** id-kp-timeStamping. */
export const TIME_STAMPING_EKU = '1.3.6.1.5.5.7.3.8';
/** The local TSA's policy (an arc of the development PKI; production TSAs have their own). */
export const DEVELOPMENT_TSA_POLICY = '1.3.6.1.4.1.99999.3161.1';

/** A time-stamping failure, with the TSA's own words when it gave some. */
export class TimeStampError extends Error {
  constructor(
    message: string,
    readonly code: 'unreachable' | 'timeout' | 'http_status' | 'too_large' | 'malformed' | 'rejected' | 'mismatch' | 'bad_signature',
  ) {
    super(message);
    this.name = 'TimeStampError';
  }
}

const toArrayBuffer = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer as ArrayBuffer;
const sha256Algorithm = () => new AlgorithmIdentifier({ algorithm: OID.sha256 });

/** The DER of a TimeStampReq over a SHA-256 imprint, asking for the TSA's certificate. */
export function createTimeStampRequest(imprint: Uint8Array, options: { nonce?: Uint8Array; policy?: string } = {}): Uint8Array {
  if (imprint.length !== 32) throw new Error('time-stamp imprint must be a SHA-256 digest (32 bytes)');
  const request = new TimeStampReq({
    messageImprint: new MessageImprint({ hashAlgorithm: sha256Algorithm(), hashedMessage: new OctetString(toArrayBuffer(imprint)) }),
    certReq: true,
    ...(options.nonce ? { nonce: toArrayBuffer(unsignedIntegerContent(options.nonce)) } : {}),
    ...(options.policy ? { reqPolicy: options.policy } : {}),
  });
  return new Uint8Array(AsnConvert.serialize(request));
}

/** What a verified token says. */
export interface TimeStampInfo {
  genTime: Date;
  policy: string;
  serialNumberHex: string;
  imprint: Uint8Array;
  nonce: Uint8Array | null;
  /** The TSA's certificate (the token's signer) and every certificate the token carries. */
  tsaCertificateDer: Uint8Array;
  certificatesDer: Uint8Array[];
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks a time-stamp token: a SignedData over a TSTInfo, whose signed attributes' message digest
 * matches the TSTInfo and whose signature verifies with the embedded TSA certificate; that
 * certificate allows time-stamping (extended key usage timeStamping) and the token names it
 * (signing-certificate-v2). With `imprint` (and `nonce`), the token must be over that imprint.
 * Whether the TSA is trusted (its chain) is the caller's decision. Throws TimeStampError.
 */
export function verifyTimeStampToken(token: Uint8Array, expected: { imprint?: Uint8Array; nonce?: Uint8Array } = {}): TimeStampInfo {
  let cms: ReturnType<typeof parseCms>;
  let info: TSTInfo;
  try {
    const outer = readNode(token, 0);
    cms = parseCms(token.subarray(0, outer.end));
    if (cms.encapsulatedContentType !== OID.tstInfo || !cms.encapsulatedContent) throw new Error('not a TSTInfo');
    info = AsnConvert.parse(cms.encapsulatedContent, TSTInfo);
  } catch (error) {
    throw new TimeStampError(`unreadable time-stamp token: ${(error as Error).message}`, 'malformed');
  }
  if (cms.contentType !== OID.tstInfo) throw new TimeStampError('time-stamp token: content-type attribute is not id-ct-TSTInfo', 'malformed');
  if (!cms.digestAlgorithm || !cms.messageDigest) throw new TimeStampError('time-stamp token: no message digest', 'malformed');
  const digest = createHash(cms.digestAlgorithm).update(cms.encapsulatedContent).digest();
  if (!equalBytes(digest, cms.messageDigest)) throw new TimeStampError('time-stamp token: message digest does not match its TSTInfo', 'bad_signature');
  if (!cms.signerCertificate) throw new TimeStampError('time-stamp token: the TSA certificate is not in the token', 'malformed');
  const certificate = new X509Certificate(cms.signerCertificate);
  if (!cryptoVerify(cms.digestAlgorithm, cms.signedAttributes, certificate.publicKey, cms.signature)) {
    throw new TimeStampError('time-stamp token: signature does not verify with the TSA certificate', 'bad_signature');
  }
  const certHash = createHash('sha256').update(cms.signerCertificate).digest();
  if (cms.signingCertificateHashes.length && !cms.signingCertificateHashes.some((h) => equalBytes(h, certHash))) {
    throw new TimeStampError('time-stamp token: signing-certificate-v2 does not name the TSA certificate', 'bad_signature');
  }
  if (!certificate.toLegacyObject().ext_key_usage?.includes(TIME_STAMPING_EKU)) {
    throw new TimeStampError('time-stamp token: the signer certificate is not a time-stamping certificate', 'bad_signature');
  }
  const imprint = new Uint8Array(info.messageImprint.hashedMessage.buffer);
  if (info.messageImprint.hashAlgorithm.algorithm !== OID.sha256) throw new TimeStampError('time-stamp token: imprint is not SHA-256', 'mismatch');
  if (expected.imprint && !equalBytes(imprint, expected.imprint)) throw new TimeStampError('time-stamp token: imprint is not the one requested', 'mismatch');
  const nonce = info.nonce ? new Uint8Array(info.nonce) : null;
  if (expected.nonce && (!nonce || !equalBytes(unsignedIntegerContent(nonce), unsignedIntegerContent(expected.nonce)))) {
    throw new TimeStampError('time-stamp token: nonce is not the one sent', 'mismatch');
  }
  const genTime = info.genTime;
  const validFrom = new Date(certificate.validFrom).getTime();
  const validTo = new Date(certificate.validTo).getTime();
  if (genTime.getTime() < validFrom - 1000 || genTime.getTime() > validTo) {
    throw new TimeStampError('time-stamp token: its time is outside the TSA certificate validity', 'bad_signature');
  }
  return {
    genTime,
    policy: info.policy,
    serialNumberHex: Buffer.from(info.serialNumber).toString('hex'),
    imprint,
    nonce,
    tsaCertificateDer: cms.signerCertificate,
    certificatesDer: cms.certificates,
  };
}

// PKIFailureInfo's named bits (RFC 3161 2.4.2), by bit number.
const failureBits: Record<number, string> = {
  0: 'badAlg',
  2: 'badRequest',
  5: 'badDataFormat',
  14: 'timeNotAvailable',
  15: 'unacceptedPolicy',
  16: 'unacceptedExtension',
  17: 'addInfoNotAvailable',
  25: 'systemFailure',
};

function failureNames(info: PKIFailureInfo): string[] {
  const bytes = new Uint8Array(info.value);
  return Object.entries(failureBits)
    .filter(([bit]) => (bytes[Number(bit) >> 3] ?? 0) & (0x80 >> (Number(bit) & 7)))
    .map(([, name]) => name);
}

const statusWords: Record<number, string> = {
  [PKIStatus.granted]: 'granted',
  [PKIStatus.grantedWithMods]: 'granted with modifications',
  [PKIStatus.rejection]: 'rejected',
  [PKIStatus.waiting]: 'waiting',
  [PKIStatus.revocationWarning]: 'revocation warning',
  [PKIStatus.revocationNotification]: 'revoked',
};

/**
 * Reads a TimeStampResp: status granted, a token present, and the token checked against the
 * imprint and nonce sent (verifyTimeStampToken). Returns the token's DER.
 */
export function readTimeStampResponse(response: Uint8Array, expected: { imprint: Uint8Array; nonce?: Uint8Array }): { token: Uint8Array; info: TimeStampInfo } {
  let parsed: TimeStampResp;
  try {
    parsed = AsnConvert.parse(response, TimeStampResp);
  } catch (error) {
    throw new TimeStampError(`unreadable time-stamp response: ${(error as Error).message}`, 'malformed');
  }
  const status = parsed.status.status;
  if (status !== PKIStatus.granted && status !== PKIStatus.grantedWithMods) {
    const text = parsed.status.statusString?.join('; ');
    const failure = parsed.status.failInfo ? failureNames(parsed.status.failInfo).join(', ') : '';
    throw new TimeStampError(`the TSA refused: ${statusWords[status] ?? `status ${status}`}${failure ? ` (${failure})` : ''}${text ? `: ${text}` : ''}`, 'rejected');
  }
  if (!parsed.timeStampToken) throw new TimeStampError('the TSA granted but sent no token', 'malformed');
  // The token's bytes as the TSA signed them (not re-encoded).
  const token = Uint8Array.from(raw(response, children(response, readNode(response, 0))[1]!));
  return { token, info: verifyTimeStampToken(token, expected) };
}

export interface HttpTimeStamperOptions {
  /** The TSA's URL (RFC 3161 over HTTP: POST application/timestamp-query). */
  url: string;
  /** Time allowed for the whole exchange (default 10 s). */
  timeoutMs?: number;
  /** Largest response read (default 64 KB); a larger one is refused without reading it all. */
  maxResponseBytes?: number;
  /** Room reserved in the PDF for a token (default 12 KB; tokens with a long chain need more). */
  maxTokenLength?: number;
  /** Policy asked of the TSA (default: the TSA's). */
  policy?: string;
  /** HTTP Basic user:password, or any Authorization header value, if the TSA wants one. */
  authorization?: string;
  fetch?: typeof globalThis.fetch;
}

async function readBounded(response: Response, max: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? 'NaN');
  if (declared > max) {
    await response.body?.cancel();
    throw new TimeStampError(`time-stamp response of ${declared} bytes, more than the ${max} accepted`, 'too_large');
  }
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > max) {
      await reader.cancel();
      throw new TimeStampError(`time-stamp response larger than the ${max} bytes accepted`, 'too_large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/** A TimeStamper that asks an RFC 3161 TSA over HTTP(S). */
export function createHttpTimeStamper(options: HttpTimeStamperOptions): TimeStamper & { url: string } {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxResponseBytes = options.maxResponseBytes ?? 64 * 1024;
  const doFetch = options.fetch ?? globalThis.fetch;
  return {
    url: options.url,
    maxTokenLength: options.maxTokenLength ?? 12 * 1024,
    async timestamp(imprint) {
      const nonce = randomBytes(8);
      const body = createTimeStampRequest(imprint, { nonce, ...(options.policy ? { policy: options.policy } : {}) });
      let response: Response;
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        response = await doFetch(options.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/timestamp-query',
            accept: 'application/timestamp-reply',
            ...(options.authorization ? { authorization: options.authorization } : {}),
          },
          body,
          signal,
          redirect: 'error',
        });
      } catch (error) {
        if (signal.aborted) throw new TimeStampError(`the TSA at ${options.url} did not answer within ${timeoutMs} ms`, 'timeout');
        throw new TimeStampError(`the TSA at ${options.url} is unreachable: ${(error as Error).message}`, 'unreachable');
      }
      let bytes: Uint8Array;
      try {
        if (!response.ok) {
          await response.body?.cancel();
          throw new TimeStampError(`the TSA at ${options.url} answered HTTP ${response.status}`, 'http_status');
        }
        const type = response.headers.get('content-type') ?? '';
        if (!type.toLowerCase().startsWith('application/timestamp-reply')) {
          await response.body?.cancel();
          throw new TimeStampError(`the TSA at ${options.url} answered ${type || 'no content type'}, not application/timestamp-reply`, 'malformed');
        }
        bytes = await readBounded(response, maxResponseBytes);
      } catch (error) {
        if (error instanceof TimeStampError) throw error;
        if (signal.aborted) throw new TimeStampError(`the TSA at ${options.url} did not answer within ${timeoutMs} ms`, 'timeout');
        throw new TimeStampError(`reading the TSA's answer failed: ${(error as Error).message}`, 'unreachable');
      }
      return readTimeStampResponse(bytes, { imprint, nonce }).token;
    },
  };
}

export interface LocalTimeStampAuthorityOptions {
  /** The TSA's key and certificate chain (leaf first: the time-stamping certificate). */
  signer: Signer;
  policy?: string;
  /** Accuracy claimed, in whole seconds (1 to 127; default 1). */
  accuracySeconds?: number;
  /** The clock (tests). */
  now?: () => Date;
}

/** Largest request the local TSA reads (a SHA-512 request with every option is ~150 bytes). */
export const MAX_TIME_STAMP_REQUEST_BYTES = 1024;

export interface LocalTimeStampAuthority extends TimeStamper {
  certificateChainDer: Uint8Array[];
  /** A token over a SHA-256 imprint (with the requester's nonce, if any). */
  tokenFor(imprint: Uint8Array, nonce?: Uint8Array): Promise<Uint8Array>;
  /** Answers a DER TimeStampReq with a DER TimeStampResp (a rejection for a bad request). */
  respond(request: Uint8Array): Promise<Uint8Array>;
}

function rejection(failure: 'badAlg' | 'badRequest' | 'badDataFormat' | 'unacceptedPolicy' | 'unacceptedExtension', text: string): Uint8Array {
  const bits = { badAlg: 0, badRequest: 2, badDataFormat: 5, unacceptedPolicy: 15, unacceptedExtension: 16 }[failure];
  const bytes = new Uint8Array(Math.floor(bits / 8) + 1);
  bytes[Math.floor(bits / 8)] = 0x80 >> (bits % 8);
  const failInfo = new PKIFailureInfo(bytes, 7 - (bits % 8));
  return new Uint8Array(AsnConvert.serialize(new TimeStampResp({ status: new PKIStatusInfo({ status: PKIStatus.rejection, statusString: new PKIFreeText([text]), failInfo }) })));
}

/** The platform's own TSA: answers in-process (issuing) or over HTTP (the API's /tsa). */
export function createLocalTimeStampAuthority(options: LocalTimeStampAuthorityOptions): LocalTimeStampAuthority {
  const leaf = options.signer.certificateChainDer[0];
  if (!leaf) throw new Error('the TSA signer has no certificate');
  const certificate = new X509Certificate(leaf);
  if (!certificate.toLegacyObject().ext_key_usage?.includes(TIME_STAMPING_EKU)) throw new Error('the TSA certificate lacks the timeStamping extended key usage');
  // The token carries the TSA certificate only (its chain goes to the PDF's DSS).
  const tokenSigner: Signer = { certificateChainDer: [leaf], sign: (data) => options.signer.sign(data) };
  const policy = options.policy ?? DEVELOPMENT_TSA_POLICY;
  const now = options.now ?? (() => new Date());
  const notAfter = new Date(certificate.validTo).getTime();

  // The TSTInfo in DER, written directly: two per diploma at issuing, and the library's encoder
  // costs more than the TSA's signature (0.39 ms against 0.24 ms on the loaded test machine).
  // Parsed back with @peculiar/asn1-tsp by verifyTimeStampToken and by OpenSSL in the tests.
  const policyDer = oid(policy);
  const imprintAlgorithm = sequence(oid(OID.sha256));
  const accuracyDer = sequence(smallInteger(options.accuracySeconds ?? 1));
  const tstInfo = (imprint: Uint8Array, nonce: Uint8Array | undefined, time: Date) =>
    sequence(
      smallInteger(1),
      policyDer,
      sequence(imprintAlgorithm, tlv(0x04, imprint)),
      unsignedInteger(randomBytes(16)),
      // Whole seconds: a GeneralizedTime without a fraction, as every reader takes it.
      tlv(0x18, Buffer.from(`${time.toISOString().slice(0, 19).replace(/[-T:]/g, '')}Z`, 'latin1')),
      accuracyDer,
      ...(nonce ? [unsignedInteger(nonce)] : []),
    );
  // TSTInfo size: fixed but for the nonce (at most 8 bytes from our client; 32 allowed).
  const maxTokenLength = maxEncapsulatedCmsLength(tokenSigner, OID.tstInfo, tstInfo(new Uint8Array(32), new Uint8Array(33).fill(0x7f), new Date()).length);

  const tokenFor = async (imprint: Uint8Array, nonce?: Uint8Array) => {
    if (imprint.length !== 32) throw new Error('time-stamp imprint must be a SHA-256 digest (32 bytes)');
    const time = now();
    if (time.getTime() > notAfter) throw new TimeStampError('the local TSA certificate has expired: renew it', 'rejected');
    return createEncapsulatedCms(tokenSigner, OID.tstInfo, tstInfo(imprint, nonce, time));
  };

  return {
    certificateChainDer: options.signer.certificateChainDer,
    maxTokenLength,
    tokenFor,
    timestamp: (imprint) => tokenFor(imprint),
    async respond(requestDer) {
      if (requestDer.length > MAX_TIME_STAMP_REQUEST_BYTES) return rejection('badDataFormat', `request larger than ${MAX_TIME_STAMP_REQUEST_BYTES} bytes`);
      let request: TimeStampReq;
      try {
        request = AsnConvert.parse(requestDer, TimeStampReq);
      } catch {
        return rejection('badDataFormat', 'not a DER TimeStampReq');
      }
      if (request.version !== 1) return rejection('badRequest', 'unsupported request version');
      if (request.messageImprint.hashAlgorithm.algorithm !== OID.sha256) return rejection('badAlg', 'only SHA-256 imprints are accepted');
      const imprint = new Uint8Array(request.messageImprint.hashedMessage.buffer);
      if (imprint.length !== 32) return rejection('badDataFormat', 'a SHA-256 imprint has 32 bytes');
      if (request.reqPolicy && request.reqPolicy !== policy) return rejection('unacceptedPolicy', `this TSA's policy is ${policy}`);
      if (request.extensions?.length) return rejection('unacceptedExtension', 'no request extension is supported');
      const nonce = request.nonce ? new Uint8Array(request.nonce) : undefined;
      if (nonce && nonce.length > 32) return rejection('badRequest', 'nonce longer than 32 bytes');
      let token: Uint8Array;
      try {
        token = await tokenFor(imprint, nonce);
      } catch (error) {
        const response = new TimeStampResp({
          status: new PKIStatusInfo({ status: PKIStatus.rejection, statusString: new PKIFreeText([(error as Error).message]) }),
        });
        return new Uint8Array(AsnConvert.serialize(response));
      }
      // certReq false would ask for a token without certificates; ours always carries the TSA's.
      const granted = new Uint8Array(AsnConvert.serialize(new PKIStatusInfo({ status: PKIStatus.granted })));
      // TimeStampResp ::= SEQUENCE { status, timeStampToken }: the token's DER as it was signed.
      return sequence(granted, token);
    },
  };
}
