import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, errors, type JWK, jwtVerify } from 'jose';
import { carriesPrivateKey } from '@sceau/sd-jwt/public-jwk';
import { OAuthError } from './oauth-error.ts';

/** The `typ` of a DPoP proof (RFC 9449 section 4.2). */
export const DPOP_TYPE = 'dpop+jwt';
/** Asymmetric signatures only (RFC 9449 section 4.2): P-256 (HAIP's), P-384, P-521 and Ed25519. */
export const DPOP_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'EdDSA'] as const;
/** Longest DPoP header read: a compact JWT with an EC public key is well under 1 KB. */
export const DPOP_MAX_LENGTH = 4096;
/** Longest `jti` read (a UUID or 16 to 32 random bytes in practice). */
export const DPOP_JTI_MAX_LENGTH = 256;
/** A proof is accepted when made at most this long ago… */
export const DPOP_MAX_AGE_SECONDS = 300;
/** …and not later than this ahead of our clock (a phone's clock drifts). */
export const DPOP_CLOCK_SKEW_SECONDS = 60;
/** The `WWW-Authenticate` challenge's list of the algorithms (RFC 9449 section 7.1). */
export const DPOP_ALGS_PARAM = `algs="${DPOP_ALGORITHMS.join(' ')}"`;

export interface DpopProof {
  /** The JWK SHA-256 thumbprint (RFC 7638) of the proof's key: what a token is bound to. */
  jkt: string;
  /** The proof's identifier, to be seen once (the caller's replay store). */
  jti: string;
  /** Until when the proof would be accepted: the replay store keeps its `jti` that long. */
  acceptedUntil: Date;
}

export interface DpopExpectation {
  /** The request's method (`htm`). */
  method: string;
  /** The endpoint's public URL (`htu`, compared without query and fragment). */
  url: string;
  /** At a resource endpoint, the access token whose hash the proof must carry (`ath`). */
  accessToken?: string;
  now: Date;
}

/** An endpoint address as compared (RFC 9449 section 4.3, point 9): scheme, host, port and path, no query or fragment. */
function comparable(url: string): string | null {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return null;
  }
}

/** `ath`: the base64url SHA-256 of the access token (RFC 9449 section 4.2). */
export const accessTokenHash = (accessToken: string) => createHash('sha256').update(accessToken, 'ascii').digest('base64url');

/**
 * Checks the `DPoP` request header (RFC 9449 section 4.3): one header, a JWT of `typ` `dpop+jwt`
 * signed by an asymmetric algorithm we accept with the public `jwk` in its header, `htm` and `htu`
 * this request's, `iat` within the window, a `jti`, and at a resource endpoint the `ath` of the
 * token presented. Whether the `jti` was seen before, and whether the key is the token's, are the
 * caller's checks. Every failure is `invalid_dpop_proof`: 400 at the token endpoint, 401 with a
 * DPoP challenge at a resource endpoint.
 */
export async function verifyDpopProof(header: string | string[] | undefined, expected: DpopExpectation): Promise<DpopProof> {
  const resource = expected.accessToken !== undefined;
  const invalid = (description: string) =>
    resource
      ? new OAuthError('invalid_dpop_proof', description, 401, { 'www-authenticate': `DPoP error="invalid_dpop_proof", ${DPOP_ALGS_PARAM}` })
      : new OAuthError('invalid_dpop_proof', description);
  if (Array.isArray(header)) throw invalid('Send exactly one DPoP header');
  if (typeof header !== 'string' || header.length === 0) throw invalid('A DPoP proof is required');
  if (header.length > DPOP_MAX_LENGTH) throw invalid(`The DPoP proof is longer than ${DPOP_MAX_LENGTH} characters`);
  let protectedHeader: ReturnType<typeof decodeProtectedHeader>;
  try {
    protectedHeader = decodeProtectedHeader(header);
  } catch {
    throw invalid('The DPoP proof is not a JWT');
  }
  if (protectedHeader.typ !== DPOP_TYPE) throw invalid(`The DPoP proof's typ must be ${DPOP_TYPE}`);
  if (!protectedHeader.alg || !(DPOP_ALGORITHMS as readonly string[]).includes(protectedHeader.alg))
    throw invalid(`The DPoP proof's alg must be one of ${DPOP_ALGORITHMS.join(', ')}`);
  const jwk = protectedHeader.jwk;
  if (!jwk || typeof jwk !== 'object') throw invalid('The DPoP proof must carry its public key in the jwk header');
  if (carriesPrivateKey(jwk)) throw invalid('The DPoP proof carries a private or symmetric key');
  let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
  try {
    ({ payload } = await jwtVerify(header, EmbeddedJWK, {
      typ: DPOP_TYPE,
      algorithms: [...DPOP_ALGORITHMS],
      currentDate: expected.now,
      clockTolerance: DPOP_CLOCK_SKEW_SECONDS,
    }));
  } catch (error) {
    if (error instanceof errors.JOSEError) throw invalid(`The DPoP proof does not verify (${error.code})`);
    throw error;
  }
  const { jti, htm, htu, iat, ath } = payload as Record<string, unknown>;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > DPOP_JTI_MAX_LENGTH) throw invalid(`The DPoP proof needs a jti of at most ${DPOP_JTI_MAX_LENGTH} characters`);
  if (htm !== expected.method) throw invalid(`The DPoP proof's htm must be ${expected.method}`);
  const expectedUrl = comparable(expected.url);
  if (typeof htu !== 'string' || htu.length > 2048 || comparable(htu) !== expectedUrl) throw invalid(`The DPoP proof's htu must be ${expectedUrl}`);
  if (typeof iat !== 'number') throw invalid('The DPoP proof must have an iat');
  const age = expected.now.getTime() / 1000 - iat;
  if (age > DPOP_MAX_AGE_SECONDS) throw invalid(`The DPoP proof's iat is more than ${DPOP_MAX_AGE_SECONDS} seconds old`);
  if (age < -DPOP_CLOCK_SKEW_SECONDS) throw invalid("The DPoP proof's iat is in the future");
  if (resource && ath !== accessTokenHash(expected.accessToken!)) throw invalid("The DPoP proof's ath must be the hash of the access token");
  const jkt = await calculateJwkThumbprint(jwk as JWK, 'sha256');
  return { jkt, jti, acceptedUntil: new Date((iat + DPOP_MAX_AGE_SECONDS + DPOP_CLOCK_SKEW_SECONDS) * 1000) };
}
