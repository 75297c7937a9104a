/**
 * Issuing and presenting a diploma's SD-JWT VC with the OpenWallet Foundation's `@sd-jwt` packages:
 * they salt, hash and encode the disclosures; the signature is made by whatever holds the key
 * (the ministry's PKCS#11 token or file key) through a signer returning raw r ‖ s.
 */
import { digest, generateSalt } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance, type SdJwtVcPayload } from '@sd-jwt/sd-jwt-vc';
import type { DisclosureFrame, PresentationFrame } from '@sd-jwt/types';
import { DISCLOSABLE_CLAIMS, SD_JWT_VC_TYP, type DisclosableClaim, type DiplomaClaims } from './claims.ts';
import { carriesPrivateKey } from './public-jwk.ts';

/** A public JWK as wallets give it (WebCrypto's, node:crypto's and jose's all fit). */
export interface PublicJwk {
  kty?: string;
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
  kid?: string;
  alg?: string;
  use?: string;
}

/** Signs the bytes given (hashing them with SHA-256 itself) and returns r ‖ s, 64 bytes. */
export interface RawEs256Signer {
  kid: string;
  sign(data: Uint8Array): Promise<Uint8Array>;
  /**
   * The signing certificate's chain, base64 DER, leaf first, without the trust anchor: written as
   * the `x5c` header, which wallets of the EU's high-assurance profile (HAIP) read the issuer from.
   */
  x5c?: readonly string[];
}

export interface StatusReference {
  /** Index of the credential in the token status list. */
  idx: number;
  /** The status list token's address (`application/statuslist+jwt`). */
  uri: string;
}

export interface IssueOptions {
  /** The issuer's public URL (no trailing slash): `iss`, and where `/.well-known/jwt-vc-issuer` is. */
  issuer: string;
  vct: string;
  claims: DiplomaClaims;
  signer: RawEs256Signer;
  /** The wallet's public key, for holder binding (`cnf.jwk`). */
  holderPublicJwk?: PublicJwk;
  status?: StatusReference;
  /** Seconds since the epoch; default now. */
  iat?: number;
}

export const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

const utf8 = new TextEncoder();

/** The `@sd-jwt` signer of a raw ES256 signer (it is given `header.payload` and returns base64url of r ‖ s). */
export function jwtSigner(signer: RawEs256Signer) {
  return async (data: string) => {
    const signature = await signer.sign(utf8.encode(data));
    if (signature.length !== 64) throw new Error('ES256 signer: expected a 64-byte r ‖ s signature');
    return base64url(signature);
  };
}

/**
 * Only the public members of a holder's JWK. A JWK carrying private key material is refused, not
 * cleaned (public-jwk.ts): a credential is never bound to a key its holder has given away.
 */
export function publicJwkOf(jwk: PublicJwk): PublicJwk {
  if (carriesPrivateKey(jwk)) throw new Error('holder key: the JWK carries private key material (a public key only)');
  if (jwk.kty === 'EC') {
    if (typeof jwk.crv !== 'string' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string') throw new Error('holder key: an EC JWK needs crv, x and y');
    return { kty: 'EC', crv: jwk.crv, x: jwk.x, y: jwk.y };
  }
  if (jwk.kty === 'OKP') {
    if (typeof jwk.crv !== 'string' || typeof jwk.x !== 'string') throw new Error('holder key: an OKP JWK needs crv and x');
    return { kty: 'OKP', crv: jwk.crv, x: jwk.x };
  }
  if (jwk.kty === 'RSA') {
    if (typeof jwk.n !== 'string' || typeof jwk.e !== 'string') throw new Error('holder key: an RSA JWK needs n and e');
    return { kty: 'RSA', n: jwk.n, e: jwk.e };
  }
  throw new Error('holder key: an EC, OKP or RSA public JWK');
}

/** Issues the SD-JWT VC (compact form, `<jwt>~<disclosure>~…~`). */
export async function issueDiplomaSdJwt(options: IssueOptions): Promise<string> {
  const instance = new SDJwtVcInstance({
    signer: jwtSigner(options.signer),
    signAlg: 'ES256',
    hasher: digest,
    hashAlg: 'sha-256',
    saltGenerator: generateSalt,
  });
  const payload: SdJwtVcPayload & Record<string, unknown> = {
    iss: options.issuer.replace(/\/$/, ''),
    vct: options.vct,
    iat: options.iat ?? Math.floor(Date.now() / 1000),
    ...options.claims,
    ...(options.holderPublicJwk ? { cnf: { jwk: publicJwkOf(options.holderPublicJwk) } } : {}),
    ...(options.status ? { status: { status_list: { idx: options.status.idx, uri: options.status.uri } } } : {}),
  };
  const present = DISCLOSABLE_CLAIMS.filter((claim) => options.claims[claim] !== undefined);
  const frame = { _sd: present } as unknown as DisclosureFrame<typeof payload>;
  const x5c = options.signer.x5c?.length ? { x5c: [...options.signer.x5c] } : {};
  return instance.issue(payload, frame, { header: { typ: SD_JWT_VC_TYP, kid: options.signer.kid, ...x5c } });
}

export interface KeyBindingOptions {
  /** The holder's key (the one in `cnf.jwk`). */
  signer: { sign(data: Uint8Array): Promise<Uint8Array> };
  /** Who the presentation is for, and its challenge. */
  aud: string;
  nonce: string;
  /** Seconds since the epoch; default now. */
  iat?: number;
}

/**
 * A presentation that keeps only the chosen personal claims (the plain ones always show), with a
 * key-binding JWT when a holder key is given. Claims not in the credential are ignored.
 */
export async function presentDiplomaSdJwt(compact: string, disclose: readonly DisclosableClaim[], keyBinding?: KeyBindingOptions): Promise<string> {
  const instance = new SDJwtVcInstance({
    hasher: digest,
    hashAlg: 'sha-256',
    ...(keyBinding ? { kbSigner: jwtSigner({ kid: '', sign: (data) => keyBinding.signer.sign(data) }), kbSignAlg: 'ES256' } : {}),
  });
  const frame = Object.fromEntries(disclose.map((claim) => [claim, true])) as PresentationFrame<Record<string, unknown>>;
  // Without the trailing key-binding part: a presentation is made from the credential, not from another presentation.
  const base = compact.endsWith('~') ? compact : compact.slice(0, compact.lastIndexOf('~') + 1);
  return instance.present(
    base,
    frame,
    keyBinding ? { kb: { payload: { iat: keyBinding.iat ?? Math.floor(Date.now() / 1000), aud: keyBinding.aud, nonce: keyBinding.nonce } } } : undefined,
  );
}
