import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';

export interface GoogleIdentity {
  sub: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  givenName: string | null;
  familyName: string | null;
}

const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];

/**
 * Verifies a Google ID token: signature against Google's published keys (fetched and cached by
 * jose), issuer, audience (our client id) and expiry. The identity comes only from the verified token.
 */
export class GoogleIdentityVerifier {
  private readonly keys: JWTVerifyGetKey;
  constructor(
    private readonly clientId: string,
    jwksUrl: string,
  ) {
    this.keys = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 10_000, cooldownDuration: 30_000 });
  }

  /** The token's identity, or null when the token is not a valid Google ID token for us. */
  async verify(idToken: string): Promise<GoogleIdentity | null> {
    try {
      const { payload } = await jwtVerify(idToken, this.keys, {
        issuer: GOOGLE_ISSUERS,
        audience: this.clientId,
        algorithms: ['RS256'],
        clockTolerance: 30,
      });
      if (typeof payload.sub !== 'string' || payload.sub === '') return null;
      const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
      return {
        sub: payload.sub,
        email: str(payload.email)?.toLowerCase() ?? null,
        emailVerified: payload.email_verified === true || payload.email_verified === 'true',
        name: str(payload.name),
        givenName: str(payload.given_name),
        familyName: str(payload.family_name),
      };
    } catch (error) {
      // A bad token is the caller's problem; Google's keys out of reach is ours (the caller answers 500).
      if (error instanceof errors.JOSEError && !(error instanceof errors.JWKSTimeout)) return null;
      throw error;
    }
  }
}
