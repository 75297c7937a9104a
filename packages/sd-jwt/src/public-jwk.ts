/**
 * The one rule for a key a stranger gives us as a JWK (a wallet's DPoP or key proof, a holder key
 * in `cnf.jwk`): it must be public. A JWK with any private member is refused, never cleaned: a
 * wallet that sends its private key has given it away, and whatever is bound to that key proves
 * nothing about who holds it. ADR 0146, amendment of 2026-11-27.
 */

/**
 * The private members of a JWK (RFC 7518 section 6, RFC 8037 section 2): `d` (EC, OKP and RSA),
 * `p`, `q`, `dp`, `dq`, `qi` and `oth` (RSA), and `k`, the whole of a symmetric (`oct`) key, which
 * is never a holder's key.
 */
export const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

/** True when the JWK carries private key material: any of PRIVATE_JWK_MEMBERS, whatever its value. */
export function carriesPrivateKey(jwk: object): boolean {
  return PRIVATE_JWK_MEMBERS.some((member) => member in jwk);
}
