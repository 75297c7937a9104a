/**
 * Whom the verifier believes about time (ADR 0138). @sceau/pdf checks a time-stamp token
 * (verifyTimeStampToken: SignedData over a TSTInfo, message digest, the TSA's signature with the
 * certificate the token carries, signing-certificate-v2, extended key usage timeStamping, genTime
 * within that certificate's validity, the imprint); verifyPdfSignature does so for a signature's
 * own time-stamp, over its signature value. Which TSA to believe is decided here: its certificate
 * must chain, each link's signature checked, to an anchor the caller trusts (the issuer's own CAs,
 * the trust list's TSAs, the API's configured ones). A token from any other TSA dates nothing.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { verifyTimeStampToken, type TimeStampInfo } from '@sceau/pdf/tsp';
import { LRUCache } from 'lru-cache';

const MAX_CHAIN = 6;
/** A token larger than this is not read (a real one is a few KB: one TSA certificate or chain). */
export const MAX_TOKEN_BYTES = 64 * 1024;

/** Whether the certificate chains, each link's signature checked, to one of the anchors. */
export function chainsToAnchor(leaf: X509Certificate, intermediates: readonly X509Certificate[], anchors: readonly X509Certificate[]): boolean {
  const isAnchor = (c: X509Certificate) => anchors.some((a) => a.raw.equals(c.raw));
  let current = leaf;
  for (let depth = 0; depth < MAX_CHAIN; depth++) {
    if (isAnchor(current)) return true;
    const issuer = [...anchors, ...intermediates].find((candidate) => {
      try {
        return !candidate.raw.equals(current.raw) && current.checkIssued(candidate) && current.verify(candidate.publicKey);
      } catch {
        return false;
      }
    });
    if (!issuer) return false;
    if (isAnchor(issuer)) return true;
    current = issuer;
  }
  return false;
}

const trustAnswers = new LRUCache<string, { trusted: boolean }>({ max: 256 });

/**
 * Whether a verified token's TSA is one the caller trusts. Remembered per TSA certificate, the
 * certificates the token carries and the anchors: every token of a TSA carries the same ones.
 */
export function trustedTsa(info: TimeStampInfo, anchors: readonly X509Certificate[]): boolean {
  const key =
    [info.tsaCertificateDer, ...info.certificatesDer].map((der) => createHash('sha256').update(der).digest('base64')).join(',') + anchors.map((a) => a.fingerprint256).join(',');
  const known = trustAnswers.get(key);
  if (known) return known.trusted;
  let trusted = false;
  try {
    const leaf = new X509Certificate(info.tsaCertificateDer);
    const others = info.certificatesDer.map((der) => new X509Certificate(der));
    trusted = chainsToAnchor(leaf, others, anchors);
  } catch {
    trusted = false;
  }
  trustAnswers.set(key, { trusted });
  return trusted;
}

export interface TimestampCheck {
  /** Well formed, imprint matching, TSA signature valid. */
  ok: boolean;
  /** ok, and the TSA chains to a trusted anchor. */
  trusted: boolean;
  genTime?: Date;
  tsaSubject?: string;
  problem?: string;
}

/** Checks a document time-stamp token over the SHA-256 of the bytes it must time. */
export function checkTimestampToken(token: Uint8Array, sha256: Uint8Array, anchors: readonly X509Certificate[]): TimestampCheck {
  if (token.length > MAX_TOKEN_BYTES) return { ok: false, trusted: false, problem: `time-stamp token larger than ${MAX_TOKEN_BYTES} bytes` };
  let info: TimeStampInfo;
  try {
    info = verifyTimeStampToken(token, { imprint: sha256 });
  } catch (error) {
    return { ok: false, trusted: false, problem: (error as Error).message };
  }
  const tsaSubject = subjectOf(info.tsaCertificateDer);
  const trusted = trustedTsa(info, anchors);
  return { ok: true, trusted, genTime: info.genTime, ...(tsaSubject ? { tsaSubject } : {}), ...(trusted ? {} : { problem: 'the TSA is not trusted' }) };
}

const subjects = new LRUCache<string, { subject: string | undefined }>({ max: 256 });
function subjectOf(der: Uint8Array): string | undefined {
  const key = createHash('sha256').update(der).digest('base64');
  let known = subjects.get(key);
  if (!known) {
    try {
      known = { subject: new X509Certificate(der).subject.replaceAll('\n', ', ') };
    } catch {
      known = { subject: undefined };
    }
    subjects.set(key, known);
  }
  return known.subject;
}

/** SHA-256 of some byte ranges, in order. */
export function sha256Of(...parts: Uint8Array[]): Uint8Array {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/** Certificates from base64 DER (a JWK's x5c, a trust list's TSA entries); unreadable ones are skipped. */
export function certificatesFromBase64(list: readonly string[]): X509Certificate[] {
  const out: X509Certificate[] = [];
  for (const item of list) {
    try {
      out.push(new X509Certificate(Buffer.from(item, 'base64')));
    } catch {
      // not a certificate: ignored
    }
  }
  return out;
}
