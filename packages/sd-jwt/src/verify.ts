/**
 * Verifying a diploma's SD-JWT VC (issued or presented): the issuer's signature against a JWKS the
 * caller trusts, its `iss` and `vct`, expiry, that every disclosure is one the issuer signed,
 * the key binding, and the status through the issuer's token status list. Each check says
 * `passed`, `failed` or `unchecked` (could not be made: never reported as passed).
 */
import { SDJwtInstance } from '@sd-jwt/core';
import { digest, ES256 } from '@sd-jwt/crypto-nodejs';
import { createPublicKey, verify as cryptoVerify, type JsonWebKey } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { SD_JWT_VC_TYP } from './claims.ts';
import { base64url, type PublicJwk } from './issue.ts';
import { carriesPrivateKey } from './public-jwk.ts';

/** An SD-JWT larger than this is refused before it is parsed. */
export const MAX_SD_JWT_BYTES = 256 * 1024;
/** More disclosures than this is not one of ours (a diploma has 15 personal claims). */
export const MAX_DISCLOSURES = 64;
/** A status list token larger than this is not read. */
export const MAX_STATUS_LIST_BYTES = 1024 * 1024;
/** Its list, inflated, larger than this is not read either (a small token can inflate to gigabytes). */
export const MAX_STATUS_LIST_INFLATED_BYTES = 16 * 1024 * 1024;

export type SdJwtCheckName = 'format' | 'issuer' | 'signature' | 'type' | 'expiry' | 'disclosures' | 'key_binding' | 'status';
export type SdJwtCheckStatus = 'passed' | 'failed' | 'unchecked';

export type SdJwtCheckCode =
  | 'well_formed'
  | 'malformed'
  | 'too_large'
  | 'issuer_matches'
  | 'issuer_mismatch'
  | 'signature_valid'
  | 'bad_signature'
  | 'unknown_key'
  | 'key_retired'
  | 'type_matches'
  | 'type_mismatch'
  | 'not_expired'
  | 'expired'
  | 'not_yet_valid'
  | 'disclosures_match'
  | 'disclosure_mismatch'
  | 'key_binding_valid'
  | 'key_binding_invalid'
  | 'key_binding_missing'
  | 'key_binding_audience'
  | 'key_binding_wrong_key'
  | 'key_binding_nonce'
  | 'key_binding_sd_hash'
  | 'key_binding_not_presented'
  | 'not_revoked'
  | 'revoked'
  | 'suspended'
  | 'status_list_unreachable'
  | 'status_list_invalid'
  | 'no_status'
  | 'skipped_after_failure';

export interface SdJwtCheck {
  name: SdJwtCheckName;
  status: SdJwtCheckStatus;
  code: SdJwtCheckCode;
  detail?: string;
}

export interface VerifiedSdJwt {
  /** `valid`: every check passed (status included); `revoked`; `invalid`: a check failed; `incomplete`: none failed, one could not be made. */
  verdict: 'valid' | 'revoked' | 'invalid' | 'incomplete';
  checks: SdJwtCheck[];
  /** The claims disclosed (plain and chosen ones), `_sd` and `cnf` removed; null when unreadable. */
  claims: Record<string, unknown> | null;
  /** The signed payload's header facts. */
  issuer: string | null;
  vct: string | null;
  kid: string | null;
  iat: number | null;
  /** How many personal claims the holder did not disclose. */
  hiddenCount: number;
}

export interface PublishedJwk extends PublicJwk {
  kid?: string;
  /** ISO 8601: nothing this key signed after that time is valid (the platform's retired keys). */
  retired_at?: string;
}

export interface VerifyOptions {
  /** The keys trusted for this issuer (retired ones included). */
  jwks: { keys: readonly PublishedJwk[] };
  /** The expected `iss` (the pinned issuer); any other is refused. */
  issuer: string;
  /** The accepted `vct` values; absent: any string. */
  vcts?: readonly string[];
  /** Reads a status list token (`application/statuslist+jwt`); absent: the status is `unchecked`. */
  fetchStatusList?: (uri: string) => Promise<string>;
  /** The keys the status list token must be signed with; default `jwks`. */
  statusJwks?: { keys: readonly PublishedJwk[] };
  /** Required key binding with this nonce (a verifier that sent a challenge). */
  keyBindingNonce?: string;
  /** With a required key binding: the verifier it must have been made for (its `aud`); another is refused. */
  keyBindingAudience?: string;
  /** Seconds since the epoch; default now. */
  now?: number;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function decodeSegment(segment: string): unknown {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) throw new Error('not base64url');
  return JSON.parse(decoder.decode(Buffer.from(segment, 'base64url')));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A diploma's payload is shallow (cnf.jwk, status.status_list); a deeper one is not read further. */
export const MAX_PAYLOAD_DEPTH = 8;

/** How deeply a JSON value nests, measured without recursion (a stranger's payload may nest deeply). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (depth > MAX_PAYLOAD_DEPTH) break;
    if (Array.isArray(item)) for (const child of item) stack.push([child, depth + 1]);
    else if (isObject(item)) for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Every digest the payload commits to: `_sd` arrays and `{ "...": digest }` array elements, at any depth. */
function committedDigests(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) {
      if (isObject(item) && typeof item['...'] === 'string' && Object.keys(item).length === 1) into.add(item['...']);
      else committedDigests(item, into);
    }
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (key === '_sd' && Array.isArray(item))
        for (const d of item)
          if (typeof d === 'string') into.add(d);
          else committedDigests(item, into);
    }
  }
  return into;
}

/** The key a JWT's header names in a JWKS, with a verifier of its ES256 signature. */
async function keyFor(jwks: { keys: readonly PublishedJwk[] }, kid: unknown): Promise<PublishedJwk | null> {
  if (typeof kid !== 'string') return jwks.keys.length === 1 && jwks.keys[0]?.kid === undefined ? jwks.keys[0]! : null;
  return jwks.keys.find((key) => key.kid === kid) ?? null;
}

async function es256Verifier(jwk: PublishedJwk) {
  const { kty, crv, x, y } = jwk;
  return ES256.getVerifier({ kty, crv, x, y });
}

function stripInternal(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripInternal);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== '_sd' && key !== '_sd_alg')
      .map(([key, item]) => [key, stripInternal(item)]),
  );
}

/**
 * A check that informs without weighing on the verdict: a credential bound to a holder key shown
 * without its key binding (fine for a public check of what it says; it proves no possession).
 */
export const isInformational = (check: Pick<SdJwtCheck, 'code'>) => check.code === 'key_binding_not_presented';

function verdictOf(checks: SdJwtCheck[]): VerifiedSdJwt['verdict'] {
  const status = checks.find((check) => check.name === 'status');
  if (checks.some((check) => check.status === 'failed' && check.name !== 'status')) return 'invalid';
  if (status?.status === 'failed') return 'revoked';
  return checks.some((check) => check.status === 'unchecked' && !isInformational(check)) ? 'incomplete' : 'valid';
}

/** True for text that looks like a compact SD-JWT (`<jwt>~[<disclosure>~]*[<kb-jwt>]`). */
export function looksLikeSdJwt(text: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+~[A-Za-z0-9_.~-]*$/.test(text.trim());
}

export async function verifyDiplomaSdJwt(input: string, options: VerifyOptions): Promise<VerifiedSdJwt> {
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const checks: SdJwtCheck[] = [];
  const empty = { claims: null, issuer: null, vct: null, kid: null, iat: null, hiddenCount: 0 };
  const refuse = (code: SdJwtCheckCode, detail?: string): VerifiedSdJwt => ({
    verdict: 'invalid',
    checks: [{ name: 'format', status: 'failed', code, ...(detail ? { detail } : {}) }],
    ...empty,
  });

  if (input.length > MAX_SD_JWT_BYTES) return refuse('too_large');
  const compact = input.trim();
  if (!looksLikeSdJwt(compact)) return refuse('malformed');
  const parts = compact.split('~');
  const jwt = parts[0]!;
  const kbJwt = parts.at(-1) ?? '';
  const disclosures = parts.slice(1, -1);
  if (disclosures.length > MAX_DISCLOSURES) return refuse('malformed', `more than ${MAX_DISCLOSURES} disclosures`);
  let header: Record<string, unknown>;
  let payload: Record<string, unknown>;
  try {
    const [h, p] = jwt.split('.');
    const decodedHeader = decodeSegment(h!);
    const decodedPayload = decodeSegment(p!);
    if (!isObject(decodedHeader) || !isObject(decodedPayload)) throw new Error('a JSON object');
    header = decodedHeader;
    payload = decodedPayload;
  } catch (error) {
    return refuse('malformed', (error as Error).message);
  }
  if (depthOf(payload) > MAX_PAYLOAD_DEPTH) return refuse('malformed', `nested deeper than ${MAX_PAYLOAD_DEPTH}`);
  if (header.typ !== SD_JWT_VC_TYP && header.typ !== 'vc+sd-jwt') return refuse('malformed', `typ ${String(header.typ)}`);
  if (header.alg !== 'ES256') return refuse('malformed', `alg ${String(header.alg)}`);
  if (payload._sd_alg !== undefined && payload._sd_alg !== 'sha-256') return refuse('malformed', `_sd_alg ${String(payload._sd_alg)}`);
  checks.push({ name: 'format', status: 'passed', code: 'well_formed' });

  const facts = {
    issuer: typeof payload.iss === 'string' ? payload.iss : null,
    vct: typeof payload.vct === 'string' ? payload.vct : null,
    kid: typeof header.kid === 'string' ? header.kid : null,
    iat: typeof payload.iat === 'number' ? payload.iat : null,
  };

  // The issuer: only the pinned one (a look-alike issuer's own keys prove nothing).
  const expectedIssuer = options.issuer.replace(/\/$/, '');
  const issuerOk = facts.issuer === expectedIssuer;
  checks.push(
    issuerOk ? { name: 'issuer', status: 'passed', code: 'issuer_matches' } : { name: 'issuer', status: 'failed', code: 'issuer_mismatch', detail: facts.issuer ?? 'no iss' },
  );

  // The signature (and, through the library, the disclosures it decodes and the key binding).
  const key = issuerOk ? await keyFor(options.jwks, header.kid) : null;
  let signatureOk = false;
  let claims: Record<string, unknown> | null = null;
  let kbChecked: SdJwtCheck | null = null;
  if (!issuerOk) {
    checks.push({ name: 'signature', status: 'unchecked', code: 'skipped_after_failure' });
  } else if (!key) {
    checks.push({ name: 'signature', status: 'failed', code: 'unknown_key', detail: facts.kid ?? 'no kid' });
  } else {
    const cnfJwk = isObject(payload.cnf) && isObject(payload.cnf.jwk) ? (payload.cnf.jwk as PublicJwk) : null;
    // The issuer's signature is verified on the SD-JWT alone (without the key-binding JWT): a
    // holder signature that fails is the key binding's failure, never reported as the issuer's.
    const sdJwtPart = `${parts.slice(0, -1).join('~')}~`;
    const instance = new SDJwtInstance({ hasher: digest, verifier: await es256Verifier(key) });
    // Expiry is its own check below: the signature is verified at a time the token was valid.
    const signatureTime = typeof payload.exp === 'number' && payload.exp < now ? payload.exp : now;
    try {
      const verified = await instance.verify(sdJwtPart, { currentDate: signatureTime });
      signatureOk = true;
      claims = stripInternal(verified.payload) as Record<string, unknown>;
      if (kbJwt) kbChecked = await keyBindingCheck(kbJwt, sdJwtPart, cnfJwk, options, now);
      else if (cnfJwk && options.keyBindingNonce === undefined) {
        // Issued to a holder key, shown without its key binding: what it says is verified, not
        // who shows it (anyone holding the file can). Said, without changing the verdict.
        kbChecked = { name: 'key_binding', status: 'unchecked', code: 'key_binding_not_presented' };
      }
    } catch (error) {
      const message = (error as Error).message;
      if (/not yet valid/i.test(message)) {
        checks.push({ name: 'expiry', status: 'failed', code: 'not_yet_valid' });
        checks.push({ name: 'signature', status: 'unchecked', code: 'skipped_after_failure' });
      } else {
        checks.push({ name: 'signature', status: 'failed', code: 'bad_signature', detail: message });
      }
    }
    if (signatureOk) {
      const retiredAt = key.retired_at ? Date.parse(key.retired_at) / 1000 : null;
      if (retiredAt !== null && (facts.iat === null || facts.iat > retiredAt)) {
        signatureOk = false;
        checks.push({ name: 'signature', status: 'failed', code: 'key_retired', detail: key.retired_at });
      } else {
        checks.push({ name: 'signature', status: 'passed', code: 'signature_valid' });
      }
    }
  }

  // Every disclosure must be one the issuer committed to, once.
  const committed = committedDigests(payload);
  const seen = new Set<string>();
  let disclosuresOk = true;
  for (const disclosure of disclosures) {
    const hash = base64url(digest(disclosure, 'sha-256'));
    if (!committed.has(hash) || seen.has(hash)) disclosuresOk = false;
    seen.add(hash);
  }
  checks.push(disclosuresOk ? { name: 'disclosures', status: 'passed', code: 'disclosures_match' } : { name: 'disclosures', status: 'failed', code: 'disclosure_mismatch' });

  // Type and expiry.
  const typeOk = facts.vct !== null && (!options.vcts || options.vcts.includes(facts.vct));
  checks.push(typeOk ? { name: 'type', status: 'passed', code: 'type_matches' } : { name: 'type', status: 'failed', code: 'type_mismatch', detail: facts.vct ?? 'no vct' });
  if (!checks.some((check) => check.name === 'expiry')) {
    const expired = typeof payload.exp === 'number' && payload.exp < now;
    checks.push(expired ? { name: 'expiry', status: 'failed', code: 'expired' } : { name: 'expiry', status: 'passed', code: 'not_expired' });
  }

  // Key binding: required when the verifier gave a nonce; checked when present.
  if (kbChecked) checks.push(kbChecked);
  else if (options.keyBindingNonce !== undefined) checks.push({ name: 'key_binding', status: 'failed', code: 'key_binding_missing' });

  // Status: only for a credential whose signature held (a forged one's status list says nothing).
  checks.push(signatureOk ? await statusCheck(payload, options, now) : { name: 'status', status: 'unchecked', code: 'skipped_after_failure' });

  const hiddenCount = Math.max(0, committed.size - disclosures.length);
  return { verdict: verdictOf(checks), checks, claims: signatureOk && disclosuresOk ? claims : null, ...facts, hiddenCount };
}

/** A key-binding JWT's `iat` may be this far ahead of the verifier's clock (seconds). */
export const KEY_BINDING_CLOCK_SKEW_S = 300;

/** `alg` of a key-binding JWT → how node:crypto verifies it (the holder's key may be EC, OKP or RSA). */
const KB_ALGS: Record<string, { hash: string | null; p1363: boolean }> = {
  ES256: { hash: 'sha256', p1363: true },
  ES384: { hash: 'sha384', p1363: true },
  ES512: { hash: 'sha512', p1363: true },
  EdDSA: { hash: null, p1363: false },
  Ed25519: { hash: null, p1363: false },
  RS256: { hash: 'sha256', p1363: false },
};

/**
 * The key binding (SD-JWT §7.3): a `kb+jwt` signed by the key the credential was issued to
 * (`cnf.jwk`), over this very presentation (`sd_hash`), for this verifier (`nonce`, `aud` when it
 * asks). Each failure has its own code: the holder's signature is never the issuer's.
 */
async function keyBindingCheck(kbJwt: string, sdJwtPart: string, cnfJwk: PublicJwk | null, options: VerifyOptions, now: number): Promise<SdJwtCheck> {
  const invalid = (code: SdJwtCheckCode, detail: string): SdJwtCheck => ({ name: 'key_binding', status: 'failed', code, detail });
  if (!cnfJwk) return invalid('key_binding_invalid', 'a key-binding JWT for a credential that names no holder key (cnf)');
  // A holder key published with its private half binds to nobody: anyone who reads the credential can sign for it.
  if (carriesPrivateKey(cnfJwk)) return invalid('key_binding_invalid', 'the holder key the credential names (cnf.jwk) carries private key material');
  const [h, p, s, extra] = kbJwt.split('.');
  let header: unknown;
  let payload: unknown;
  try {
    if (extra !== undefined || !s) throw new Error('not a compact JWT');
    header = decodeSegment(h ?? '');
    payload = decodeSegment(p ?? '');
  } catch (error) {
    return invalid('key_binding_invalid', (error as Error).message);
  }
  if (!isObject(header) || !isObject(payload)) return invalid('key_binding_invalid', 'not a JSON object');
  if (header.typ !== 'kb+jwt') return invalid('key_binding_invalid', `typ ${String(header.typ)}`);
  const alg = typeof header.alg === 'string' ? KB_ALGS[header.alg] : undefined;
  if (!alg) return invalid('key_binding_invalid', `alg ${String(header.alg)}`);
  let signatureOk = false;
  try {
    const key = createPublicKey({ key: cnfJwk as JsonWebKey, format: 'jwk' });
    signatureOk = cryptoVerify(alg.hash, Buffer.from(`${h}.${p}`), { key, ...(alg.p1363 ? { dsaEncoding: 'ieee-p1363' as const } : {}) }, Buffer.from(s!, 'base64url'));
  } catch {
    signatureOk = false;
  }
  if (!signatureOk) return invalid('key_binding_wrong_key', 'not signed by the key the credential was issued to (cnf)');
  if (payload.sd_hash !== base64url(digest(sdJwtPart, 'sha-256'))) return invalid('key_binding_sd_hash', 'made for another presentation (sd_hash)');
  if (typeof payload.iat !== 'number' || payload.iat > now + KEY_BINDING_CLOCK_SKEW_S) return invalid('key_binding_invalid', 'iat missing or in the future');
  if (options.keyBindingNonce !== undefined && payload.nonce !== options.keyBindingNonce) return invalid('key_binding_nonce', 'made for another challenge (nonce)');
  const audiences = typeof payload.aud === 'string' ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud.filter((a): a is string => typeof a === 'string') : [];
  if (options.keyBindingAudience !== undefined && !audiences.includes(options.keyBindingAudience)) return invalid('key_binding_audience', audiences.join(', ') || 'no aud');
  return { name: 'key_binding', status: 'passed', code: 'key_binding_valid' };
}

async function statusCheck(payload: Record<string, unknown>, options: VerifyOptions, now: number): Promise<SdJwtCheck> {
  const reference = isObject(payload.status) && isObject(payload.status.status_list) ? payload.status.status_list : null;
  if (!reference) return { name: 'status', status: 'unchecked', code: 'no_status' };
  const { idx, uri } = reference;
  if (typeof idx !== 'number' || !Number.isSafeInteger(idx) || idx < 0 || typeof uri !== 'string') return { name: 'status', status: 'unchecked', code: 'status_list_invalid' };
  if (!options.fetchStatusList) return { name: 'status', status: 'unchecked', code: 'status_list_unreachable', detail: uri };
  let token: string;
  try {
    token = (await options.fetchStatusList(uri)).trim();
  } catch (error) {
    return { name: 'status', status: 'unchecked', code: 'status_list_unreachable', detail: `${uri}: ${(error as Error).message}` };
  }
  if (token.length > MAX_STATUS_LIST_BYTES) return { name: 'status', status: 'unchecked', code: 'status_list_invalid', detail: 'too large' };
  try {
    const [h, p, s] = token.split('.');
    const header = decodeSegment(h ?? '');
    const body = decodeSegment(p ?? '');
    if (!isObject(header) || !isObject(body) || !s) throw new Error('not a JWT');
    if (header.typ !== 'statuslist+jwt') throw new Error(`typ ${String(header.typ)}`);
    if (header.alg !== 'ES256') throw new Error(`alg ${String(header.alg)}`);
    if (body.sub !== uri) throw new Error('sub is not the status list address');
    if (typeof body.exp === 'number' && body.exp < now) throw new Error('expired');
    const key = await keyFor(options.statusJwks ?? options.jwks, header.kid);
    if (!key) throw new Error('unknown key');
    if (!(await (await es256Verifier(key))(`${h}.${p}`, s))) throw new Error('bad signature');
    const list = isObject(body.status_list) ? body.status_list : null;
    if (!list || typeof list.lst !== 'string') throw new Error('no status_list');
    inflateSync(Buffer.from(list.lst, 'base64url'), { maxOutputLength: MAX_STATUS_LIST_INFLATED_BYTES });
    const status = getListFromStatusListJWT(token).getStatus(idx);
    if (status === 0) return { name: 'status', status: 'passed', code: 'not_revoked' };
    return { name: 'status', status: 'failed', code: status === 2 ? 'suspended' : 'revoked' };
  } catch (error) {
    return { name: 'status', status: 'unchecked', code: 'status_list_invalid', detail: (error as Error).message };
  }
}
