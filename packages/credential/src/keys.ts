/**
 * ES256 keys: a software signer (@noble/curves, works in any browser context, secure or not) and
 * signature verification against a published JWKS; the JWK helpers (thumbprints, short key ids,
 * finding a key by kid) are in jwk.ts and re-exported here.
 */
import { p256 } from '@noble/curves/nist.js';
import { equalBytes, fromBase64url, toBase64url } from './bytes.ts';
import { shortKeyId, type EcPublicJwk } from './jwk.ts';

export * from './jwk.ts';

export interface EcPrivateJwk extends EcPublicJwk {
  d: string;
}

/**
 * Whatever holds the ministry's private key: this package's software signer, node:crypto
 * (`dsaEncoding: 'ieee-p1363'`), later an HSM. `sign` receives the bytes to sign (it hashes them
 * with SHA-256 itself) and returns the raw signature r ‖ s, 64 bytes.
 */
export interface Es256Signer {
  /** Key id written in the COSE header: bytes as given, a string as its UTF-8 bytes. */
  kid: Uint8Array | string;
  sign(data: Uint8Array): Promise<Uint8Array>;
}

/** The public half of a JWK, with `kid` set to base64url(short key id) unless it has one. */
export function toPublicJwk(jwk: EcPublicJwk): EcPublicJwk {
  const { kty, crv, x, y } = jwk;
  const pub: EcPublicJwk = { kty, crv, x, y };
  return { ...pub, kid: jwk.kid ?? toBase64url(shortKeyId(pub)), alg: 'ES256', use: 'sig' };
}

/** A new P-256 key pair as a private JWK (development keys and tests). */
export function generateEs256Jwk(): EcPrivateJwk {
  const secretKey = p256.utils.randomSecretKey();
  return jwkFromKeys(secretKey, p256.getPublicKey(secretKey, false));
}

function jwkFromKeys(secretKey: Uint8Array, uncompressedPublicKey: Uint8Array): EcPrivateJwk {
  return {
    kty: 'EC',
    crv: 'P-256',
    x: toBase64url(uncompressedPublicKey.slice(1, 33)),
    y: toBase64url(uncompressedPublicKey.slice(33, 65)),
    d: toBase64url(secretKey),
  };
}

/** Uncompressed SEC1 point (0x04 ‖ x ‖ y) from a JWK; throws on a malformed key. */
export function publicKeyBytes(jwk: EcPublicJwk): Uint8Array {
  const x = fromBase64url(jwk.x);
  const y = fromBase64url(jwk.y);
  if (x.length !== 32 || y.length !== 32) throw new Error('P-256 coordinates must be 32 bytes');
  const point = new Uint8Array(65);
  point[0] = 0x04;
  point.set(x, 1);
  point.set(y, 33);
  p256.Point.fromBytes(point).assertValidity();
  return point;
}

/** Software ES256 signer from a private JWK; kid defaults to the short key id. */
export function createSoftwareSigner(privateJwk: EcPrivateJwk, kid?: Uint8Array | string): Es256Signer {
  const secretKey = fromBase64url(privateJwk.d);
  if (secretKey.length !== 32) throw new Error('P-256 private key must be 32 bytes');
  const derived = p256.getPublicKey(secretKey, false);
  if (!equalBytes(derived, publicKeyBytes(privateJwk))) throw new Error('private JWK: d does not match x, y');
  return {
    kid: kid ?? shortKeyId(privateJwk),
    async sign(data: Uint8Array): Promise<Uint8Array> {
      return p256.sign(data, secretKey, { prehash: true, format: 'compact' });
    },
  };
}

/** ECDSA P-256 / SHA-256 check of a raw r ‖ s signature; any malformed input is simply "false". */
export function verifyEs256(jwk: EcPublicJwk, data: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  try {
    // Node and HSMs may produce high-S signatures, which are valid ECDSA: accept both.
    return p256.verify(signature, data, publicKeyBytes(jwk), { prehash: true, lowS: false, format: 'compact' });
  } catch {
    return false;
  }
}
