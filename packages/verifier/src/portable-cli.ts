/**
 * The independent verifier's side of the portable forms (ADR 0145): an SD-JWT VC file or a W3C VC
 * JSON file, checked against the issuers of the trust list (their address and every key they
 * signed with; nothing the document names is trusted) or, with --jwks and --platform, the keys the
 * user gives. The revocation is read from the issuer's own status list over HTTPS, bounded; when
 * it cannot be read the report says so ("could not check"), never "passed".
 */
import en from '@sceau/i18n/locales/en/verification.json';
import fr from '@sceau/i18n/locales/fr/verification.json';
import type { PublishedJwk } from '@sceau/sd-jwt';
import { STATUS_TEXTS, REPORT_TEXTS, type Lang } from './messages.ts';
import { verifyPortable, type PortableContext, type PortableIssuer, type PortableResult } from './portable.ts';
import type { PinnedIssuer } from './trust-list.ts';

const HTTP_TIMEOUT_MS = 10_000;
/** A status list is small (a token: a few KB; a bitstring credential: tens of KB). */
const STATUS_LIST_MAX_BYTES = 1024 * 1024;

const CATALOGUE = { en, fr } as const;
const MARKS = { passed: '✔', failed: '✘', 'not-checked': '?' } as const;

async function getTextBounded(http: typeof fetch, url: string, accept: string): Promise<string> {
  const response = await http(url, { headers: { accept }, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`${url}: HTTP ${response.status}`);
  }
  if (Number(response.headers.get('content-length') ?? 0) > STATUS_LIST_MAX_BYTES) {
    await response.body?.cancel();
    throw new Error(`${url}: larger than ${STATUS_LIST_MAX_BYTES} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > STATUS_LIST_MAX_BYTES) throw new Error(`${url}: larger than ${STATUS_LIST_MAX_BYTES} bytes`);
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A pinned issuer's public address: its `jwks_uri` without `/.well-known/jwks.json`. */
export function issuerAddress(jwksUri: string | undefined): string | null {
  if (!jwksUri || !/^https?:\/\//i.test(jwksUri)) return null;
  const url = new URL(jwksUri);
  const path = url.pathname.replace(/\/\.well-known\/jwks\.json$/, '').replace(/\/+$/, '');
  return `${url.origin}${path}`;
}

export interface PortableRun {
  text: string;
  label: string;
  lang: Lang;
  json: boolean;
  /** The trust list's issuers (after --issuer / --registry). */
  pinned: readonly PinnedIssuer[];
  /** --jwks with --platform: the user's own choice of keys for that address. */
  declared: { url: string; jwks: { keys: readonly unknown[] } } | null;
  files: string[];
  http: typeof fetch;
  stdout: (text: string) => void;
}

/** Verifies a portable form and prints its report; the exit code as for a PDF (0 authentic, 2 incomplete, 1 otherwise). */
export async function runPortable(run: PortableRun): Promise<number> {
  const issuers: PortableIssuer[] = run.declared
    ? [{ url: run.declared.url, id: new URL(run.declared.url).host, name: run.declared.url, jwks: run.declared.jwks as { keys: readonly PublishedJwk[] } }]
    : run.pinned.flatMap((p) => {
        const url = issuerAddress(p.jwksUri);
        return url ? [{ url, id: p.id, name: p.name, jwks: p.jwks as { keys: readonly PublishedJwk[] } }] : [];
      });
  const origins = issuers.map((issuer) => `${issuer.url}/`);
  const own = (url: string) => origins.some((prefix) => url.startsWith(prefix));
  const context: PortableContext = {
    issuers,
    // Only a status list at a trusted issuer's own address is fetched.
    fetchTokenStatusList: async (uri) => {
      if (!own(uri)) throw new Error(`${uri} is not at a trusted issuer's address`);
      return getTextBounded(run.http, uri, 'application/statuslist+jwt');
    },
    fetchStatusListCredential: async (url) => (own(url) ? (JSON.parse(await getTextBounded(run.http, url, 'application/vc+ld+json, application/json')) as object) : null),
  };
  const result = await verifyPortable(run.text, context);
  if (!result) throw new Error('not an SD-JWT VC nor a W3C verifiable credential');
  const trust = run.declared ? { basis: 'declared', keysGiven: true } : { basis: 'trust-list', files: run.files, issuers: issuers.map(({ id, name, url }) => ({ id, name, url })) };
  run.stdout(run.json ? `${JSON.stringify({ ...result, trust }, null, 2)}\n` : formatPortableReport(result, run, issuers));
  if (result.verdict === 'authentic') return 0;
  return result.verdict === 'incomplete' ? 2 : 1;
}

function formatPortableReport(result: PortableResult, run: PortableRun, issuers: PortableIssuer[]): string {
  const { lang } = run;
  const texts = CATALOGUE[lang];
  const text = (group: 'check' | 'code' | 'verdict', key: string) => (texts[group] as Record<string, string>)[key] ?? key;
  const form = result.form === 'sd-jwt' ? 'SD-JWT VC' : lang === 'fr' ? 'justificatif vérifiable W3C' : 'W3C verifiable credential';
  const lines = [`${REPORT_TEXTS.title[lang]} — ${form} ${run.label}`];
  const list = run.declared ? REPORT_TEXTS.keysGiven[lang] : `${REPORT_TEXTS.trustList[lang]} ${run.files.join(', ')}`;
  if (result.issuer) lines.push(`${REPORT_TEXTS.issuerChecked[lang]}: ${result.issuer.name} (${result.issuer.id}) · ${list}`);
  else if (issuers.length === 0) lines.push(`${REPORT_TEXTS.issuerChecked[lang]}: ${REPORT_TEXTS.noIssuerPinned[lang]} · ${list}`);
  else lines.push(`${REPORT_TEXTS.issuerExpected[lang]}: ${issuers.map((i) => `${i.name} (${i.url})`).join('; ')} · ${list}`);
  lines.push('');
  for (const check of result.checks) {
    lines.push(`  ${MARKS[check.status]} ${text('check', check.name)}: ${STATUS_TEXTS[check.status][lang]}`);
    lines.push(`      ${text('code', check.code)} [${check.code}]`);
    const detail = check.details?.detail;
    if (typeof detail === 'string' && check.status !== 'passed') lines.push(`      (${detail})`);
  }
  const p = result.diploma;
  if (p) {
    lines.push('');
    const name = [p.last_name, p.middle_name, p.first_name].filter(Boolean).join(' ');
    const parts = [
      name,
      p.birth_date && `${REPORT_TEXTS.born[lang]} ${p.birth_date}`,
      p.option,
      p.school,
      p.session ?? p.session_year,
      p.percentage !== undefined ? `${p.percentage} %` : undefined,
    ].filter(Boolean);
    lines.push(`${REPORT_TEXTS.diploma[lang]} ${p.id}: ${parts.join(' · ')}`);
    if (p.hidden_fields?.length) lines.push(`  ${lang === 'fr' ? 'non dévoilés' : 'not disclosed'}: ${p.hidden_fields.join(', ')}`);
  }
  lines.push('', `${REPORT_TEXTS.verdict[lang]}: ${text('verdict', result.verdict).toUpperCase()}`, '');
  return lines.join('\n');
}
