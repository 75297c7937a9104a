/**
 * The portable forms of a diploma (ADR 0145): its SD-JWT VC (compact `<jwt>~<disclosure>~…`) and
 * its W3C VC / Open Badges 3.0 JSON with a Data Integrity proof. Both are verified against the
 * issuers the caller pins (the platform: itself; the CLI: its trust list), never against keys or
 * a DID the document names, and report the same verdicts and named checks as a PDF. A check that
 * could not be made (a status list unreachable) is `not-checked`, never `passed`.
 * Node only (the SD-JWT and JSON-LD libraries): import it as '@sceau/verifier/portable'.
 */
import { looksLikeSdJwt, verifyDiplomaSdJwt, type PublishedJwk, type SdJwtCheck, type VerifiedSdJwt } from '@sceau/sd-jwt';
import { buildDidDocument, createDocumentLoader, didWebFor, verifyOpenBadgeCredential, type VcCheck, type VcVerification } from '@sceau/vc';
import type { CheckStatus, PublicDiploma, Verdict } from './types.ts';

/** What a stranger sends as a portable form is refused past this size, before it is parsed. */
export const MAX_PORTABLE_BYTES = 256 * 1024;

export type PortableForm = 'sd-jwt' | 'vc';

/** An issuer the caller trusts: its public address (`iss` of its SD-JWT VCs, its `did:web`), and every key it signed with. */
export interface PortableIssuer {
  /** The platform's public address, e.g. https://diplomes.minepst.gouv.cd (no trailing slash). */
  url: string;
  id: string;
  name: string;
  jwks: { keys: readonly PublishedJwk[] };
}

export interface PortableContext {
  issuers: readonly PortableIssuer[];
  /** The token status list (`statuslist+jwt`) at this address; throws when it cannot be read. */
  fetchTokenStatusList(uri: string): Promise<string>;
  /** The BitstringStatusListCredential at this address; null or a throw when it cannot be read. */
  fetchStatusListCredential(url: string): Promise<object | null>;
  now?: Date;
}

export interface PortableCheck {
  name: 'integrity' | 'issuer_signature' | 'issuer_identity' | 'not_revoked' | 'credential_type' | 'validity_period' | 'key_binding';
  status: CheckStatus;
  code: string;
  details?: Record<string, unknown>;
}

export interface PortableResult {
  form: PortableForm;
  verdict: Verdict;
  checks: PortableCheck[];
  diploma?: PublicDiploma;
  /** The pinned issuer it was checked against, when one matched. */
  issuer?: { id: string; name: string };
}

/** The form of a text, by its content: an SD-JWT, a W3C VC JSON, or neither (null). */
export function sniffPortable(text: string): PortableForm | null {
  const trimmed = text.trim();
  if (looksLikeSdJwt(trimmed)) return 'sd-jwt';
  if (!trimmed.startsWith('{') || trimmed.length > MAX_PORTABLE_BYTES) return null;
  try {
    const value = JSON.parse(trimmed) as Record<string, unknown>;
    const types = Array.isArray(value.type) ? value.type : [value.type];
    return '@context' in value && types.includes('VerifiableCredential') ? 'vc' : null;
  } catch {
    return null;
  }
}

const origin = (url: string) => url.replace(/\/+$/, '');

/**
 * Informs without weighing on the verdict: an SD-JWT VC issued to a holder key shown without its
 * key binding. What it says is verified; that the person showing it holds the key is not (anyone
 * with the file can show it), which a public check does not ask. The result says so.
 */
const informational = (check: PortableCheck) => check.code === 'key_binding_not_presented';

/** The verdict from the checks, by the PDF's rules (packages/verifier/src/verdict.ts). */
function verdictOf(checks: readonly PortableCheck[]): Verdict {
  const forgery = checks.some((c) => c.status === 'failed' && c.name !== 'not_revoked');
  if (forgery) return 'altered';
  if (checks.some((c) => c.name === 'not_revoked' && c.status === 'failed')) return 'revoked';
  return checks.every((c) => c.status === 'passed' || informational(c)) ? 'authentic' : 'incomplete';
}

/** Verifies an SD-JWT VC or a W3C VC text; null when it is neither. */
export async function verifyPortable(text: string, context: PortableContext): Promise<PortableResult | null> {
  if (text.length > MAX_PORTABLE_BYTES) return tooLarge(text.trim().startsWith('{') ? 'vc' : 'sd-jwt');
  const form = sniffPortable(text);
  if (form === 'sd-jwt') return verifySdJwtForm(text.trim(), context);
  if (form === 'vc') return verifyVcForm(JSON.parse(text.trim()), context);
  return null;
}

function tooLarge(form: PortableForm): PortableResult {
  const checks: PortableCheck[] = [{ name: 'integrity', status: 'failed', code: 'portable_too_large', details: { max_bytes: MAX_PORTABLE_BYTES } }];
  return { form, verdict: 'altered', checks };
}

// ---------------------------------------------------------------- SD-JWT VC

const SD_JWT_CHECK: Record<SdJwtCheck['name'], PortableCheck['name']> = {
  format: 'integrity',
  disclosures: 'integrity',
  issuer: 'issuer_identity',
  signature: 'issuer_signature',
  type: 'credential_type',
  expiry: 'validity_period',
  key_binding: 'key_binding',
  status: 'not_revoked',
};

const SD_JWT_CODE: Partial<Record<SdJwtCheck['code'], string>> = {
  malformed: 'sd_jwt_malformed',
  too_large: 'portable_too_large',
  revoked: 'diploma_revoked',
  suspended: 'diploma_suspended',
  well_formed: 'disclosures_match',
  issuer_matches: 'issuer_address_matches',
  not_expired: 'within_validity',
};

const STATUS: Record<SdJwtCheck['status'], CheckStatus> = { passed: 'passed', failed: 'failed', unchecked: 'not-checked' };

function issuerOfSdJwt(compact: string): string | null {
  try {
    const payload = JSON.parse(Buffer.from(compact.split('.')[1] ?? '', 'base64url').toString('utf8')) as { iss?: unknown };
    return typeof payload.iss === 'string' ? payload.iss : null;
  } catch {
    return null;
  }
}

async function verifySdJwtForm(compact: string, context: PortableContext): Promise<PortableResult> {
  const iss = issuerOfSdJwt(compact);
  const pinned = context.issuers.find((issuer) => origin(issuer.url) === iss) ?? null;
  if (context.issuers.length === 0) {
    return { form: 'sd-jwt', verdict: 'incomplete', checks: [{ name: 'issuer_identity', status: 'not-checked', code: 'no_trusted_issuer' }] };
  }
  // A look-alike issuer is checked against the first pinned one, and fails there.
  const expected = pinned ?? context.issuers[0]!;
  const verified = await verifyDiplomaSdJwt(compact, {
    jwks: expected.jwks,
    issuer: origin(expected.url),
    vcts: [`${origin(expected.url)}/vct/diploma`],
    fetchStatusList: (uri) => context.fetchTokenStatusList(uri),
    // A status list is the issuer's current word, signed afresh by its active key: a retired key's
    // signature on one proves nothing (its `iat` is the signer's claim, ADR 0148).
    statusJwks: { keys: expected.jwks.keys.filter((key) => !key.retired_at) },
    ...(context.now ? { now: Math.floor(context.now.getTime() / 1000) } : {}),
  });
  const checks = mergeIntegrity(verified.checks).map(
    (check): PortableCheck => ({
      name: SD_JWT_CHECK[check.name],
      status: STATUS[check.status],
      code: SD_JWT_CODE[check.code] ?? check.code,
      ...(check.detail ? { details: { detail: check.detail } } : {}),
    }),
  );
  // A key-binding JWT (the part after the last `~`) that nothing checked: the credential names no
  // holder key (no `cnf`). A presentation carrying an unverifiable part is refused, not read past.
  if (!compact.endsWith('~') && !checks.some((c) => c.name === 'key_binding')) {
    checks.push({ name: 'key_binding', status: 'failed', code: 'key_binding_invalid', details: { detail: 'a key-binding JWT for a credential that names no holder key (cnf)' } });
  }
  const ordered = orderChecks(undatedRetiredKey(checks, pinned, headerKid(compact)));
  const verdict = verdictOf(ordered);
  return {
    form: 'sd-jwt',
    verdict,
    checks: ordered,
    ...(pinned ? { issuer: { id: pinned.id, name: pinned.name } } : {}),
    ...(verdict !== 'altered' && verified.claims && pinned ? { diploma: diplomaOfClaims(verified, pinned) } : {}),
  };
}

/**
 * ADR 0148 on the portable forms: when a retired key signed comes from a trusted source only, never
 * from what the signer wrote. An SD-JWT's `iat` and a Data Integrity proof's `created` are the
 * signer's own claims (a thief of the retired key backdates them), so a signature by a retired key
 * that the checks passed (claimed before its retirement) has no trusted time: could not check
 * (`signing_time_unknown`), never authentic. One the claims place after the retirement stays failed.
 */
function undatedRetiredKey(checks: PortableCheck[], issuer: PortableIssuer | null, kid: string | null): PortableCheck[] {
  const key = issuer && kid ? issuer.jwks.keys.find((k) => k.kid === kid) : undefined;
  if (!key?.retired_at) return checks;
  return checks.map(
    (check): PortableCheck =>
      check.name === 'issuer_signature' && check.status === 'passed'
        ? {
            name: 'issuer_signature',
            status: 'not-checked',
            code: 'signing_time_unknown',
            details: { kid, retiredAt: key.retired_at, detail: 'the signing time is the signer’s own claim' },
          }
        : check,
  );
}

/** The `kid` of a compact JWT's protected header, or null. */
function headerKid(compact: string): string | null {
  try {
    const header = JSON.parse(Buffer.from(compact.split('.')[0] ?? '', 'base64url').toString('utf8')) as { kid?: unknown };
    return typeof header.kid === 'string' ? header.kid : null;
  } catch {
    return null;
  }
}

/** The key id a VC's proof names in the issuer's DID (`did#kid`); with several proofs, the first that does. */
function proofKid(credential: unknown, did: string): string | null {
  const proof = (credential as { proof?: unknown } | null)?.proof;
  for (const item of Array.isArray(proof) ? proof : [proof]) {
    const method = (item as { verificationMethod?: unknown } | null)?.verificationMethod;
    if (typeof method === 'string' && method.startsWith(`${did}#`)) return method.slice(did.length + 1);
  }
  return null;
}

/** `format` and `disclosures` are one check for a reader (integrity): the format's failure, else the disclosures'. */
function mergeIntegrity(checks: SdJwtCheck[]): SdJwtCheck[] {
  const format = checks.find((c) => c.name === 'format');
  const disclosures = checks.find((c) => c.name === 'disclosures');
  const rest = checks.filter((c) => c.name !== 'format' && c.name !== 'disclosures');
  const integrity = format && format.status !== 'passed' ? format : (disclosures ?? format);
  return integrity ? [integrity, ...rest] : rest;
}

const ORDER: PortableCheck['name'][] = ['integrity', 'issuer_signature', 'issuer_identity', 'credential_type', 'validity_period', 'key_binding', 'not_revoked'];
const orderChecks = (checks: PortableCheck[]) => [...checks].sort((a, b) => ORDER.indexOf(a.name) - ORDER.indexOf(b.name));

/** The SD-JWT VC's personal claims, by the credential record's field names. */
const RECORD_NAMES: Record<string, string> = {
  family_name: 'last_name',
  middle_name: 'middle_name',
  given_name: 'first_name',
  birthdate: 'birth_date',
  place_of_birth: 'birth_place',
  gender: 'gender',
  option: 'option',
  option_code: 'option_code',
  school: 'school',
  school_code: 'school_code',
  centre: 'centre',
  centre_code: 'centre_code',
  province: 'educ_province',
  province_code: 'educ_province_code',
  percentage: 'percentage',
};

function diplomaOfClaims(verified: VerifiedSdJwt, issuer: PortableIssuer): PublicDiploma {
  const claims = verified.claims ?? {};
  const text = (name: string) => (typeof claims[name] === 'string' ? (claims[name] as string) : undefined);
  const number = (name: string) => (typeof claims[name] === 'number' ? (claims[name] as number) : undefined);
  const shown: PublicDiploma = {
    id: text('diploma_id') ?? '',
    serial: text('serial'),
    last_name: text('family_name'),
    middle_name: text('middle_name'),
    first_name: text('given_name'),
    birth_date: text('birthdate'),
    option: text('option'),
    option_code: text('option_code'),
    school: text('school'),
    school_code: text('school_code'),
    centre: text('centre'),
    centre_code: text('centre_code'),
    session: text('session'),
    session_year: number('session_year'),
    percentage: number('percentage'),
    issue_date: text('issue_date'),
    issuer: { id: issuer.id, name: issuer.name },
  };
  const hidden = Object.entries(RECORD_NAMES)
    .filter(([claim]) => claims[claim] === undefined && claim !== 'middle_name')
    .map(([, field]) => field);
  const diploma = Object.fromEntries(Object.entries(shown).filter(([, value]) => value !== undefined)) as unknown as PublicDiploma;
  return hidden.length > 0 ? { ...diploma, hidden_fields: hidden } : diploma;
}

// ---------------------------------------------------------------- W3C VC / Open Badges 3.0

const VC_CHECK: Record<keyof VcVerification['checks'], PortableCheck['name']> = {
  proof: 'issuer_signature',
  issuer: 'issuer_identity',
  status: 'not_revoked',
  expiry: 'validity_period',
};

function vcCheck(name: keyof VcVerification['checks'], check: VcCheck): PortableCheck {
  const portable = VC_CHECK[name];
  const details = check.detail ? { details: { detail: check.detail } } : {};
  if (check.status === 'ok') {
    const code = { proof: 'signature_valid', issuer: 'issuer_address_matches', status: 'not_revoked', expiry: 'within_validity' }[name];
    return { name: portable, status: 'passed', code };
  }
  const status: CheckStatus = check.status === 'failed' ? 'failed' : 'not-checked';
  const reason = check.reason ?? '';
  const code =
    name === 'proof'
      ? reason === 'malformed'
        ? 'malformed_credential'
        : status === 'failed'
          ? 'bad_signature'
          : 'skipped_after_failure'
      : name === 'issuer'
        ? reason === 'key-retired'
          ? 'key_retired'
          : status === 'failed'
            ? 'issuer_mismatch'
            : 'skipped_after_failure'
        : name === 'status'
          ? reason === 'revoked'
            ? 'diploma_revoked'
            : status === 'failed'
              ? 'status_list_invalid'
              : 'status_list_unreachable'
          : reason === 'not-yet-valid'
            ? 'not_yet_valid'
            : status === 'failed'
              ? 'expired'
              : 'skipped_after_failure';
  return { name: portable, status, code, ...details };
}

async function verifyVcForm(credential: unknown, context: PortableContext): Promise<PortableResult> {
  if (context.issuers.length === 0) {
    return { form: 'vc', verdict: 'incomplete', checks: [{ name: 'issuer_identity', status: 'not-checked', code: 'no_trusted_issuer' }] };
  }
  // The DID documents are built from the pinned keys: a credential never makes us fetch its issuer's.
  const didDocuments = await Promise.all(
    context.issuers.map((issuer) =>
      buildDidDocument(
        didWebFor(issuer.url),
        issuer.jwks.keys
          .filter((key) => key.kty === 'EC' && key.crv === 'P-256' && typeof key.x === 'string' && typeof key.y === 'string' && typeof key.kid === 'string')
          .map((key) => ({ kid: key.kid!, publicJwk: { kty: 'EC' as const, crv: 'P-256' as const, x: key.x!, y: key.y! }, retiredAt: key.retired_at ?? null })),
      ),
    ),
  );
  const origins = context.issuers.map((issuer) => `${origin(issuer.url)}/`);
  const documentLoader = createDocumentLoader({
    didDocuments,
    // Only a status list on a pinned issuer's own address is read.
    resolve: async (url) => {
      if (!origins.some((prefix) => url.startsWith(prefix))) return null;
      const list = await context.fetchStatusListCredential(url);
      // A status list is the issuer's current word, signed afresh by its active key: one a retired
      // key signed proves nothing (its proof's `created` is the signer's claim, ADR 0148). Unread.
      const byRetiredKey = context.issuers.some((issuer) => {
        const kid = proofKid(list, didWebFor(issuer.url));
        return kid !== null && issuer.jwks.keys.some((key) => key.kid === kid && key.retired_at);
      });
      return byRetiredKey ? null : list;
    },
  });
  const verified = await verifyOpenBadgeCredential(credential, {
    documentLoader,
    trust: { issuers: didDocuments.map((d) => d.id) },
    ...(context.now ? { now: context.now } : {}),
  });
  const pinned = context.issuers.find((issuer) => didWebFor(issuer.url) === verified.issuer) ?? null;
  const checks = orderChecks(
    undatedRetiredKey(
      (Object.keys(verified.checks) as (keyof VcVerification['checks'])[]).map((name) => vcCheck(name, verified.checks[name])),
      pinned,
      pinned ? proofKid(credential, didWebFor(pinned.url)) : null,
    ),
  );
  const verdict = verdictOf(checks);
  return {
    form: 'vc',
    verdict,
    checks,
    ...(pinned ? { issuer: { id: pinned.id, name: pinned.name } } : {}),
    ...(verdict !== 'altered' && pinned ? { diploma: diplomaOfVc(credential as Record<string, unknown>, pinned) } : {}),
  };
}

function diplomaOfVc(credential: Record<string, unknown>, issuer: PortableIssuer): PublicDiploma {
  const subject = (credential.credentialSubject ?? {}) as Record<string, unknown>;
  const achievement = (subject.achievement ?? {}) as Record<string, unknown>;
  const result = Array.isArray(subject.result) ? (subject.result[0] as Record<string, unknown> | undefined) : undefined;
  const id = typeof credential.id === 'string' ? (/\/verify\/([A-Za-z0-9_-]{22})\/?$/.exec(credential.id)?.[1] ?? '') : '';
  const percentage = typeof result?.value === 'string' ? Number(result.value) : Number.NaN;
  const awarded = typeof subject.awardedDate === 'string' ? subject.awardedDate.slice(0, 10) : undefined;
  return {
    id,
    ...(typeof subject.name === 'string' ? { last_name: subject.name } : {}),
    ...(typeof achievement.fieldOfStudy === 'string' ? { option: achievement.fieldOfStudy } : {}),
    ...(Number.isFinite(percentage) ? { percentage } : {}),
    ...(awarded ? { issue_date: awarded } : {}),
    issuer: { id: issuer.id, name: issuer.name },
  };
}
