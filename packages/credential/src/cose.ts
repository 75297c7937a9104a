/**
 * COSE_Sign1 (RFC 9052) with ES256, the subset the EU Digital COVID Certificate uses: protected
 * header { 1 (alg): -7, 4 (kid): bstr }, empty unprotected header, attached payload, tag 18.
 */
import { decodeCborStrict, encodeCbor, Tagged } from './cbor.ts';
import { findJwk, kidBytes, verifyEs256, type Es256Signer, type Jwks } from './keys.ts';

const COSE_SIGN1_TAG = 18;
const HEADER_ALG = 1;
const HEADER_KID = 4;
const ALG_ES256 = -7;

export type CoseStatus = 'valid' | 'unknown-key' | 'bad-signature' | 'malformed';

export type CoseVerification =
  | { status: 'valid'; kid: Uint8Array; payload: Uint8Array }
  | { status: 'unknown-key' | 'bad-signature'; kid: Uint8Array; payload: Uint8Array }
  | { status: 'malformed'; error: string };

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

export async function signCoseSign1(payload: Uint8Array, signer: Es256Signer): Promise<Uint8Array> {
  const protectedHeader = coseProtectedHeader(kidBytes(signer.kid));
  const signature = await signer.sign(coseSigStructure(protectedHeader, payload));
  if (!(signature instanceof Uint8Array) || signature.length !== 64) {
    throw new Error('ES256 signer must return the raw 64-byte r ‖ s signature');
  }
  return encodeCbor(new Tagged(COSE_SIGN1_TAG, [protectedHeader, new Map(), payload, signature]));
}

/** Parses and checks a COSE_Sign1 message against a JWKS (key chosen by kid). Never throws. */
export function verifyCoseSign1(message: Uint8Array, jwks: Jwks): CoseVerification {
  let parts: { protectedHeader: Uint8Array; kid: Uint8Array; payload: Uint8Array; signature: Uint8Array };
  try {
    parts = parseCoseSign1(message);
  } catch (error) {
    return { status: 'malformed', error: (error as Error).message };
  }
  const { protectedHeader, kid, payload, signature } = parts;
  const jwk = findJwk(jwks, kid);
  if (!jwk) return { status: 'unknown-key', kid, payload };
  const ok = verifyEs256(jwk, coseSigStructure(protectedHeader, payload), signature);
  return { status: ok ? 'valid' : 'bad-signature', kid, payload };
}

function parseCoseSign1(message: Uint8Array) {
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
