/**
 * COSE_Sign1 (RFC 9052) with ES256, its structure only: the protected header, the Sig_structure
 * (the bytes signed) and the parse of a message. No elliptic-curve code: cose.ts signs and checks
 * with @noble/curves, a browser reader may check the same bytes with WebCrypto (ADR 0096).
 */
import { decodeCborStrict, encodeCbor, Tagged } from './cbor.ts';

export const COSE_SIGN1_TAG = 18;
const HEADER_ALG = 1;
const HEADER_KID = 4;
const ALG_ES256 = -7;

/** Sig_structure = ["Signature1", protected, external_aad = h'', payload]: the bytes signed. */
export function coseSigStructure(protectedHeader: Uint8Array, payload: Uint8Array): Uint8Array {
  return encodeCbor(['Signature1', protectedHeader, new Uint8Array(0), payload]);
}

/** The protected header { 1: -7, 4: kid } as its CBOR bytes. */
export function coseProtectedHeader(kid: Uint8Array): Uint8Array {
  if (kid.length === 0) throw new Error('signer kid is empty');
  return encodeCbor(
    new Map<number, unknown>([
      [HEADER_ALG, ALG_ES256],
      [HEADER_KID, kid],
    ]),
  );
}

/** The parts of a COSE_Sign1 ES256 message; throws on anything else. */
export function parseCoseSign1(message: Uint8Array) {
  let decoded = decodeCborStrict(message, [COSE_SIGN1_TAG]);
  if (decoded instanceof Tagged) decoded = decoded.value;
  if (!Array.isArray(decoded) || decoded.length !== 4) throw new Error('COSE_Sign1: expected an array of 4');
  const [protectedHeader, unprotected, payload, signature] = decoded as unknown[];
  if (!(protectedHeader instanceof Uint8Array)) throw new Error('COSE_Sign1: protected header must be a byte string');
  if (!(unprotected instanceof Map)) throw new Error('COSE_Sign1: unprotected header must be a map');
  if (!(payload instanceof Uint8Array)) throw new Error('COSE_Sign1: payload must be a byte string');
  if (!(signature instanceof Uint8Array) || signature.length !== 64) {
    throw new Error('COSE_Sign1: signature must be 64 bytes');
  }
  const header = decodeCborStrict(protectedHeader);
  if (!(header instanceof Map)) throw new Error('COSE_Sign1: protected header is not a map');
  if (header.get(HEADER_ALG) !== ALG_ES256) throw new Error('COSE_Sign1: algorithm must be ES256 (-7)');
  const kid = header.get(HEADER_KID);
  if (!(kid instanceof Uint8Array) || kid.length === 0) throw new Error('COSE_Sign1: protected header has no kid');
  return { protectedHeader, kid, payload, signature };
}
