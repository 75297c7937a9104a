import { decodeProtectedHeader, EmbeddedJWK, errors, type JWK, jwtVerify } from 'jose';
import { carriesPrivateKey } from '@sceau/sd-jwt/public-jwk';
import { OAuthError } from './oauth-error.ts';

/** The `typ` of an OpenID4VCI key proof (1.0, appendix F.1). */
export const KEY_PROOF_TYPE = 'openid4vci-proof+jwt';
/** The signatures a wallet may prove its key with: P-256 (ES256), and Ed25519 (EdDSA). */
export const KEY_PROOF_ALGORITHMS = ['ES256', 'EdDSA'] as const;
/** Longest proof read: a compact JWT with an embedded public key is well under 2 KB. */
export const KEY_PROOF_MAX_LENGTH = 8192;
/** A proof is fresh when it was made at most this long ago… */
export const KEY_PROOF_MAX_AGE_SECONDS = 300;
/** …and not later than this ahead of our clock (a phone's clock drifts). */
export const KEY_PROOF_CLOCK_SKEW_SECONDS = 60;

export interface KeyProof {
  /** The wallet's public key the credential is bound to (the proof's `jwk` header). */
  jwk: JWK;
  /** The `c_nonce` the proof signed, to be spent by the caller. */
  nonce: string;
}

const invalid = (description: string) => new OAuthError('invalid_proof', description);

/**
 * Checks a key proof JWT (OpenID4VCI 1.0, appendix F.1): `typ`, an algorithm we accept, a public
 * `jwk` in its header (no `kid` or `x5c` with it, no private member) whose signature verifies, `aud` = this issuer,
 * `iat` within the window, and a `nonce`. Whether the nonce is one we gave is the caller's check.
 */
export async function verifyKeyProof(proof: unknown, issuer: string, now: Date): Promise<KeyProof> {
  if (typeof proof !== 'string' || proof.length === 0) throw invalid('proofs.jwt must hold one compact JWT');
  if (proof.length > KEY_PROOF_MAX_LENGTH) throw invalid(`The key proof is longer than ${KEY_PROOF_MAX_LENGTH} characters`);
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    throw invalid('The key proof is not a JWT');
  }
  if (header.typ !== KEY_PROOF_TYPE) throw invalid(`The key proof's typ must be ${KEY_PROOF_TYPE}`);
  if (!header.alg || !(KEY_PROOF_ALGORITHMS as readonly string[]).includes(header.alg)) throw invalid(`The key proof's alg must be one of ${KEY_PROOF_ALGORITHMS.join(', ')}`);
  if (!header.jwk || typeof header.jwk !== 'object') throw invalid('The key proof must carry the public key in its jwk header');
  if (header.kid !== undefined || header.x5c !== undefined) throw invalid('The key proof must name its key by jwk only (no kid or x5c with it)');
  if (carriesPrivateKey(header.jwk)) throw invalid('The key proof carries a private key');
  let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
  try {
    ({ payload } = await jwtVerify(proof, EmbeddedJWK, {
      typ: KEY_PROOF_TYPE,
      algorithms: [...KEY_PROOF_ALGORITHMS],
      audience: issuer,
      currentDate: now,
      clockTolerance: KEY_PROOF_CLOCK_SKEW_SECONDS,
    }));
  } catch (error) {
    if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'aud') throw invalid(`The key proof's aud must be ${issuer}`);
    if (error instanceof errors.JOSEError) throw invalid(`The key proof does not verify (${error.code})`);
    throw error;
  }
  if (typeof payload.iat !== 'number') throw invalid('The key proof must have an iat');
  const age = now.getTime() / 1000 - payload.iat;
  if (age > KEY_PROOF_MAX_AGE_SECONDS) throw invalid(`The key proof's iat is more than ${KEY_PROOF_MAX_AGE_SECONDS} seconds old`);
  if (age < -KEY_PROOF_CLOCK_SKEW_SECONDS) throw invalid("The key proof's iat is in the future");
  if (typeof payload.nonce !== 'string' || payload.nonce.length === 0) throw new OAuthError('invalid_nonce', 'The key proof must sign a c_nonce from the nonce endpoint');
  const { kty, crv, x, y } = header.jwk;
  const jwk: JWK = { kty, crv, x, ...(y ? { y } : {}) };
  return { jwk, nonce: payload.nonce };
}
