/**
 * COSE_Sign1 (RFC 9052) with ES256, the subset the EU Digital COVID Certificate uses: protected
 * header { 1 (alg): -7, 4 (kid): bstr }, empty unprotected header, attached payload, tag 18.
 */
import { encodeCbor, Tagged } from './cbor.ts';
import { COSE_SIGN1_TAG, coseProtectedHeader, coseSigStructure, parseCoseSign1 } from './cose-structure.ts';
import { findJwk, kidBytes, verifyEs256, type Es256Signer, type Jwks } from './keys.ts';

export { coseProtectedHeader, coseSigStructure };

export type CoseStatus = 'valid' | 'unknown-key' | 'bad-signature' | 'malformed';

export type CoseVerification =
  | { status: 'valid'; kid: Uint8Array; payload: Uint8Array }
  | { status: 'unknown-key' | 'bad-signature'; kid: Uint8Array; payload: Uint8Array }
  | { status: 'malformed'; error: string };

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
