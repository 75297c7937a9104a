/**
 * Retired keys (ADR 0138). A key the issuer retired stays published (`retired_at`, ISO 8601, in its
 * JWK, from the key set or the trust list) so that what it signed before keeps verifying; anything
 * it signed after that time is refused. When something was signed is taken from a trusted source
 * only, never from a claim of the document (/M, a signing-time attribute):
 *  - a PDF signature: its RFC 3161 signature timestamp or a document timestamp over it, if the
 *    token verifies and its TSA is trusted (tsaAnchors); otherwise only the caller's record of the
 *    file it issued (the API's store), dated by its batch's anchoring (ADR 0148): the anchoring
 *    time alone never dates a PDF, which a thief of the key could render afresh;
 *  - the batch root's and the QR payload's signatures: the batch's anchoring time.
 * A retired key whose signing time cannot be established is "could not check", never passed.
 */
import type { X509Certificate } from 'node:crypto';
import { findJwk, fromBase64url, type Jwks } from '@sceau/credential';
import { LRUCache } from 'lru-cache';
import { certificatesFromBase64 } from './timestamp-token.ts';

export interface SigningTime {
  /** Seconds since the epoch (block timestamps are whole seconds). */
  at: Date;
  /**
   * timestamp: the signature's own time-stamp; document-timestamp: a document time-stamp over it;
   * anchoring: the batch's anchoring (root, QR); record: the issuer's record of this very file,
   * dated by its batch's anchoring (ADR 0148).
   */
  source: 'timestamp' | 'document-timestamp' | 'anchoring' | 'record';
}

export interface RetiredKey {
  kid: string;
  retiredAt: Date;
  /** Set when the issuer declared the key compromised from this time (ADR 0136, 0148). */
  compromisedAt?: Date;
}

const MAX_RETIRED_AT = 40;

/** A key's retirement time, if it carries a valid `retired_at`. */
export function retirementOf(jwk: unknown): Date | null {
  const value = (jwk as { retired_at?: unknown } | null)?.retired_at;
  if (typeof value !== 'string' || value.length > MAX_RETIRED_AT) return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time) : null;
}

/** A key's declared compromise time, if it carries a valid `compromised_at`. */
export function compromiseOf(jwk: unknown): Date | null {
  const value = (jwk as { compromised_at?: unknown } | null)?.compromised_at;
  if (typeof value !== 'string' || value.length > MAX_RETIRED_AT) return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time) : null;
}

/** A retired key from its JWK (null when it carries no `retired_at`). */
export function retiredKeyFromJwk(kid: string, jwk: unknown): RetiredKey | null {
  const retiredAt = retirementOf(jwk);
  if (!retiredAt) return null;
  const compromisedAt = compromiseOf(jwk);
  return { kid, retiredAt, ...(compromisedAt ? { compromisedAt } : {}) };
}

/** The retirement of the key a kid (base64url, as in a QR payload or a root signature) names, if retired. */
export function retiredKeyOf(jwks: Jwks, kid: string | undefined): RetiredKey | null {
  if (!kid) return null;
  let jwk: unknown;
  try {
    jwk = findJwk(jwks, fromBase64url(kid));
  } catch {
    return null;
  }
  return retiredKeyFromJwk(kid, jwk);
}

/** The details a check carries about a retired key and when it signed. */
export function retiredDetails(key: RetiredKey, signed: SigningTime | null): Record<string, unknown> {
  return {
    kid: key.kid,
    retiredAt: key.retiredAt.toISOString(),
    ...(key.compromisedAt ? { compromisedAt: key.compromisedAt.toISOString() } : {}),
    ...(signed ? { signedAt: signed.at.toISOString(), signedAtSource: signed.source } : {}),
  };
}

/**
 * Signing times are read to the second at best (a time-stamp's genTime, a block's time, `iat`):
 * the moment stands somewhere in [at, at + 1 s). Within a second of the retirement nothing says on
 * which side it fell.
 */
export const SIGNING_TIME_PRECISION_MS = 1000;

/**
 * 'after' when signed after the retirement, 'before' when surely before it, 'unknown' without a
 * trusted time or within the time's precision of the retirement (never taken as before: a thief
 * with the key signing in the second after a rotation would pass).
 */
export function signedWhen(key: RetiredKey, signed: SigningTime | null): 'before' | 'after' | 'unknown' {
  if (!signed) return 'unknown';
  const at = signed.at.getTime();
  const retired = key.retiredAt.getTime();
  if (at > retired) return 'after';
  return at + SIGNING_TIME_PRECISION_MS <= retired ? 'before' : 'unknown';
}

/** Whether a signature made after the key's retirement falls in its declared compromise (a distinct reason, ADR 0148). */
export function signedWhileCompromised(key: RetiredKey, signed: SigningTime | null): boolean {
  return !!signed && !!key.compromisedAt && signed.at.getTime() >= key.compromisedAt.getTime();
}

/** The anchoring time of a batch, from the `anchored` check's details (block timestamp, seconds). */
export function anchoringTime(timestamp: unknown): SigningTime | null {
  return typeof timestamp === 'number' && Number.isFinite(timestamp) && timestamp > 0 ? { at: new Date(timestamp * 1000), source: 'anchoring' } : null;
}

/**
 * The authorities whose time-stamps are trusted: the issuer's own certification authorities (the
 * certificates after the leaf in each published key's x5c: a TSA the ministry's CA certified),
 * the TSAs a trust list names for the issuer, and those the caller configures.
 */
export function tsaAnchorsOf(jwks: Jwks | null, extra: readonly (string | Uint8Array)[] = []): X509Certificate[] {
  const base64: string[] = [];
  for (const key of jwks?.keys ?? []) {
    const x5c = (key as { x5c?: unknown }).x5c;
    if (Array.isArray(x5c)) for (const c of x5c.slice(1, 6)) if (typeof c === 'string') base64.push(c);
  }
  for (const c of extra) base64.push(typeof c === 'string' ? c : Buffer.from(c).toString('base64'));
  // Every verification of a key set has the same anchors: parsed once.
  const key = base64.join(',');
  const known = anchorSets.get(key);
  if (known) return known;
  const seen = new Set<string>();
  const anchors = certificatesFromBase64(base64).filter((c) => {
    const id = c.fingerprint256;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  anchorSets.set(key, anchors);
  return anchors;
}

const anchorSets = new LRUCache<string, X509Certificate[]>({ max: 32 });
