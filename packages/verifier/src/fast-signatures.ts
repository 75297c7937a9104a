/**
 * The two ES256 checks of a verification, made cheaper without changing a single answer (ADR 0101):
 *
 * - the batch root's signature is the same for every diploma of a batch (thousands): its answer
 *   from @sceau/credential is remembered per root, signature and key set;
 * - a QR payload's COSE signature is first checked with node:crypto (OpenSSL, ~50× faster than the
 *   pure-JS curve @sceau/credential uses so it also runs in browsers). Only a payload that this
 *   check finds well formed and validly signed is answered here; anything else (a bad signature,
 *   an unknown key, a malformed payload) is handed to @sceau/credential's verifyQrPayload, which
 *   gives its usual answer. A valid ECDSA signature is valid for both implementations.
 */
import { createPublicKey, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import {
  decodeQrClaims,
  findJwk,
  toBase64url,
  verifyIssuerSignature,
  verifyQrPayload,
  type EcPublicJwk,
  type IssuerSignature,
  type Jwks,
  type QrVerification,
  type SignatureStatus,
} from '@sceau/credential';
import { fromBase45 } from '@sceau/credential/base45';
import { decodeCborStrict, Tagged } from '@sceau/credential/cbor';
import { coseSigStructure } from '@sceau/credential/cose';
import { zlibDecompress } from '@sceau/credential/zlib';
import { LRUCache } from 'lru-cache';

const QR_PREFIX = 'SC1:';
// The limits of @sceau/credential's verifyQrPayload (qr.ts): a payload beyond them goes to it.
const MAX_QR_TEXT = 4296;
const MAX_INFLATED_BYTES = 4096;

/** A stable name for a key set (its keys' ids and coordinates), to key memos by. */
function keySetId(jwks: Jwks): string {
  let id = '';
  for (const key of jwks.keys) {
    const k = key as Partial<EcPublicJwk>;
    id += `${k.kid ?? ''}.${k.crv ?? ''}.${k.x ?? ''}.${k.y ?? ''};`;
  }
  return id;
}

const rootAnswers = new LRUCache<string, SignatureStatus>({ max: 10_000 });

/** verifyIssuerSignature, remembered per root, signature and key set (a batch shares one root). */
export function checkRootSignature(merkleRoot: string, signature: IssuerSignature | undefined, jwks: Jwks): SignatureStatus {
  if (!signature) return verifyIssuerSignature(merkleRoot, signature, jwks);
  const key = `${merkleRoot}|${signature.alg}|${signature.kid}|${signature.value}|${keySetId(jwks)}`;
  const known = rootAnswers.get(key);
  if (known !== undefined) return known;
  const status = verifyIssuerSignature(merkleRoot, signature, jwks);
  rootAnswers.set(key, status);
  return status;
}

const publicKeys = new LRUCache<string, KeyObject>({ max: 64 });
function nodeKey(jwk: EcPublicJwk): KeyObject | null {
  const id = `${jwk.x}.${jwk.y}`;
  let key = publicKeys.get(id);
  if (!key) {
    try {
      key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, format: 'jwk' });
    } catch {
      return null;
    }
    publicKeys.set(id, key);
  }
  return key;
}

/** The valid answer, if node:crypto finds the payload well formed and validly signed; else null. */
function validByNode(text: string, jwks: Jwks): Extract<QrVerification, { status: 'valid' }> | null {
  if (typeof text !== 'string') return null;
  const input = text.replace(/[\r\n]+$/, '');
  if (input.length > MAX_QR_TEXT || !input.startsWith(QR_PREFIX)) return null;
  try {
    const bytes = fromBase45(input.slice(QR_PREFIX.length));
    const cose = bytes[0] === 0x78 ? zlibDecompress(bytes, MAX_INFLATED_BYTES) : bytes;
    // COSE_Sign1 as @sceau/credential reads it: tag 18, [protected, {}, payload, 64-byte signature].
    let decoded = decodeCborStrict(cose, [18]);
    if (decoded instanceof Tagged) decoded = decoded.value;
    if (!Array.isArray(decoded) || decoded.length !== 4) return null;
    const [protectedHeader, unprotected, payload, signature] = decoded as unknown[];
    if (!(protectedHeader instanceof Uint8Array) || !(unprotected instanceof Map) || !(payload instanceof Uint8Array)) return null;
    if (!(signature instanceof Uint8Array) || signature.length !== 64) return null;
    const header = decodeCborStrict(protectedHeader);
    if (!(header instanceof Map) || header.get(1) !== -7) return null;
    const kid = header.get(4);
    if (!(kid instanceof Uint8Array) || kid.length === 0) return null;
    const jwk = findJwk(jwks, kid);
    const key = jwk ? nodeKey(jwk) : null;
    if (!key) return null;
    const ok = cryptoVerify('sha256', coseSigStructure(protectedHeader, payload), { key, dsaEncoding: 'ieee-p1363' }, signature);
    if (!ok) return null;
    return { status: 'valid', kid: toBase64url(kid), fields: decodeQrClaims(payload) };
  } catch {
    return null;
  }
}

/** verifyQrPayload's answer, computed with node:crypto when the payload is valid. */
export function checkQrPayload(text: string, jwks: Jwks): QrVerification {
  return validByNode(text, jwks) ?? verifyQrPayload(text, jwks);
}
