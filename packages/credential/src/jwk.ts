/**
 * Published keys as JWKs: thumbprints, short key ids and the search of a key set by kid. SHA-256
 * only (no elliptic-curve code), so a reader that checks signatures with WebCrypto does not load
 * @noble/curves (ADR 0096); keys.ts re-exports all of it.
 */
import { sha256 } from '#sha256';
import { bytesToUtf8, equalBytes, utf8ToBytes } from './bytes.ts';

export interface EcPublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid?: string;
  alg?: string;
  use?: string;
}

/** A published key set (`/.well-known/jwks.json`); keys other than EC P-256 are ignored. */
export interface Jwks {
  keys: readonly unknown[];
}

/** Bytes of the key id we put in headers: the first 8 bytes of the RFC 7638 thumbprint. */
export const SHORT_KID_BYTES = 8;

/** RFC 7638 JWK thumbprint (SHA-256) of an EC P-256 key. */
export function jwkThumbprint(jwk: EcPublicJwk): Uint8Array {
  const canonical = `{"crv":"${jwk.crv}","kty":"${jwk.kty}","x":"${jwk.x}","y":"${jwk.y}"}`;
  return sha256(utf8ToBytes(canonical));
}

/** The short key id (8 bytes) used in QR payloads and root signatures. */
export function shortKeyId(jwk: EcPublicJwk): Uint8Array {
  return jwkThumbprint(jwk).slice(0, SHORT_KID_BYTES);
}

export function kidBytes(kid: Uint8Array | string): Uint8Array {
  return typeof kid === 'string' ? utf8ToBytes(kid) : kid;
}

export function isEcP256Jwk(value: unknown): value is EcPublicJwk {
  if (typeof value !== 'object' || value === null) return false;
  const k = value as Record<string, unknown>;
  return k.kty === 'EC' && k.crv === 'P-256' && typeof k.x === 'string' && typeof k.y === 'string';
}

/**
 * Thumbprints of the keys looked up, per key object, with the text they were computed from: a
 * published key set is made once and searched at every verification (twice: the root's key, the
 * QR's), so its thumbprints are hashed once. A key object changed since is hashed again.
 */
const thumbprints = new WeakMap<object, { canonical: string; thumbprint: Uint8Array }>();

function knownThumbprint(jwk: EcPublicJwk): Uint8Array {
  const canonical = `{"crv":"${jwk.crv}","kty":"${jwk.kty}","x":"${jwk.x}","y":"${jwk.y}"}`;
  const known = thumbprints.get(jwk);
  if (known?.canonical === canonical) return known.thumbprint;
  const thumbprint = sha256(utf8ToBytes(canonical));
  thumbprints.set(jwk, { canonical, thumbprint });
  return thumbprint;
}

/**
 * Finds the key a header's kid names: a JWK whose thumbprint starts with the kid bytes (8 to 32
 * bytes: our short id or the full thumbprint), or whose `kid` string is those bytes in UTF-8.
 */
export function findJwk(jwks: Jwks, kid: Uint8Array): EcPublicJwk | undefined {
  if (!jwks || !Array.isArray(jwks.keys)) return undefined;
  // The kid as text, read only when a key has a `kid` to compare it with (most short ids are not
  // UTF-8, and the failed decoding throws).
  let kidText: string | null | undefined;
  const text = () => {
    if (kidText === undefined) {
      try {
        kidText = bytesToUtf8(kid);
      } catch {
        kidText = null;
      }
    }
    return kidText;
  };
  for (const key of jwks.keys) {
    if (!isEcP256Jwk(key)) continue;
    if (kid.length >= SHORT_KID_BYTES && kid.length <= 32) {
      if (equalBytes(knownThumbprint(key).subarray(0, kid.length), kid)) return key;
    }
    if (typeof key.kid === 'string' && key.kid === text()) return key;
  }
  return undefined;
}
