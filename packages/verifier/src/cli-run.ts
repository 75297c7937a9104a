/**
 * The independent verifier: checks a diploma with public information only (the keys the issuer
 * publishes, a chain RPC endpoint, and for a bare QR the platform's public API), never the
 * platform's database. `npm run verify -- <file.pdf | file.json | file.sd-jwt | qr-text> [options]`.
 */
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Jwks } from '@sceau/credential';
import { connectRegistryPort } from './chain-port.ts';
import { CHECK_TITLES, CODE_TEXTS, REPORT_TEXTS, STATUS_TEXTS, VERDICT_TEXTS, type Lang } from './messages.ts';
import {
  emptyTrustList,
  formatTrustList,
  parseTrustList,
  pinnedIssuers,
  TRUST_LIST_MAX_BYTES,
  trustListEntry,
  TrustListError,
  upsertTrustListEntry,
  type PinnedIssuer,
  type TrustList,
} from './trust-list.ts';
import type { RegistryPort, RegistryRef, TrustedIssuer, VerificationContext, VerificationInput, VerificationResult } from './types.ts';
import { keysServedByIssuer, verify } from './verify.ts';
import { MAX_PORTABLE_BYTES, sniffPortable } from './portable.ts';
import { runPortable } from './portable-cli.ts';

/** The trust list shipped with the verifier: the national issuer(s) it pins by default (ADR 0133). */
export const SHIPPED_TRUST_LIST = fileURLToPath(new URL('../trust-list.json', import.meta.url));

export const USAGE = `Usage: npm run verify -- <file.pdf | file.json | file.sd-jwt | qr-text> [options]

Verifies a Sceau diploma with public information only: the pinned issuer's keys and the chain.

  <file.pdf>            a diploma PDF (embedded credential, PDF signature, QR codes)
  <file.json>           a credential document
  <qr-text>             the content of either QR code: "SC1:…" or a https://…/verify/{id} link
                        (a file holding that text works too)
  <file.sd-jwt|.txt>    the diploma's SD-JWT VC (compact form <jwt>~<disclosure>~…), as issued
                        or as its holder presents it (ADR 0145)
  <file.json>           or its W3C VC / Open Badges 3.0 credential (Data Integrity proof)
                        Both are checked against the trust list's issuers (their address and
                        keys); the revocation is read from the issuer's status list over HTTPS.

The issuer is pinned by a trust list: its id, every key it signed with, and its registry (chain
id and contract). By default the list shipped with the verifier (trust-list.json), plus, outside
production, the development platform's own (DATA_DIR/trust-list.json, written at its start).

Options:
  --trust-list FILE     pin the issuers of this trust list instead (default: $SCEAU_TRUST_LIST,
                        else the shipped list and the development one)
  --rpc URL             chain JSON-RPC endpoint (default: $CHAIN_RPC_URL, else the trust list's
                        rpc_url for the registry)
  --jwks FILE|URL       override: the issuer's keys, trusted as given, instead of the trust list
                        (the issuer is then the one the credential declares)
  --platform URL        the platform's public address, to fetch a diploma's credential for a
                        bare QR payload (default: $SCEAU_PUBLIC_URL, or the link's origin)
  --issuer ID           only accept this issuer (e.g. minepst.gouv.cd); one the trust list does
                        not hold is confirmed by its keys on its own domain over HTTPS
  --registry ID:ADDR    only accept this registry (chain id and contract address)
  --lang en|fr          language of the report (default en)
  --json                print the result as JSON
  -h, --help            this help

  npm run verify -- trust-list <platform URL> [--out FILE]
                        add or update the entry of the issuer that platform publishes
                        (/.well-known/sceau-issuer.json and its jwks) in a trust list
                        (default: the shipped trust-list.json)

Exit code: 0 authentic; 1 altered, revoked, unknown or not yet published; 2 could not be fully
checked, or a usage error.`;

export interface CliIo {
  argv: string[];
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The one HTTP client (keys, credential); replaceable in tests. */
  fetch?: typeof fetch;
  /** Chain access for a registry; default a read-only viem client on the RPC URL. */
  connectRegistry?: (ref: RegistryRef, rpcUrl: string) => RegistryPort;
}

const HTTP_TIMEOUT_MS = 10_000;
/** Keys, issuer documents and credentials are small; a larger answer is refused before parsing. */
const HTTP_MAX_BYTES = 1024 * 1024;

class UsageError extends Error {}

/** An HTTP GET of JSON, with a timeout and a size bound: a platform's answer is a stranger's. */
async function getJsonBounded(http: typeof fetch, url: string): Promise<{ status: number; body: unknown }> {
  const response = await http(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
  if (!response.ok) {
    await response.body?.cancel();
    return { status: response.status, body: null };
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > HTTP_MAX_BYTES) {
    await response.body?.cancel();
    throw new Error(`${url}: answer larger than ${HTTP_MAX_BYTES} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > HTTP_MAX_BYTES) throw new Error(`${url}: answer larger than ${HTTP_MAX_BYTES} bytes`);
      chunks.push(chunk);
    }
  }
  return { status: response.status, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
}

/** Where the trust lists come from, and the issuers they pin. */
export interface TrustSource {
  files: string[];
  issuers: PinnedIssuer[];
}

async function readTrustListFile(file: string): Promise<TrustList> {
  const info = await stat(file);
  if (info.size > TRUST_LIST_MAX_BYTES) throw new TrustListError(`${file}: larger than ${TRUST_LIST_MAX_BYTES} bytes`);
  return parseTrustList(await readFile(file, 'utf8'), file);
}

/**
 * The pinned issuers: --trust-list, else $SCEAU_TRUST_LIST, else the shipped list and, outside
 * production, the development platform's list (its entries marked `development` only: a file in
 * the working directory never adds an unmarked issuer).
 */
export async function loadTrustSource(explicit: string | undefined, env: NodeJS.ProcessEnv): Promise<TrustSource> {
  const chosen = explicit ?? (env.SCEAU_TRUST_LIST || undefined);
  if (chosen) return { files: [chosen], issuers: pinnedIssuers(await readTrustListFile(chosen)) };
  const shipped = pinnedIssuers(await readTrustListFile(SHIPPED_TRUST_LIST));
  const devFile = path.resolve(env.DATA_DIR || 'data', 'trust-list.json');
  const hasDev =
    env.NODE_ENV !== 'production' &&
    (await stat(devFile).then(
      (s) => s.isFile(),
      () => false,
    ));
  if (!hasDev) return { files: [SHIPPED_TRUST_LIST], issuers: shipped };
  const development = pinnedIssuers(await readTrustListFile(devFile)).filter((p) => p.development);
  return { files: [SHIPPED_TRUST_LIST, devFile], issuers: [...shipped, ...development] };
}

export async function runCli(io: CliIo): Promise<number> {
  if (io.argv[0] === 'trust-list') return runTrustListCommand({ ...io, argv: io.argv.slice(1) });
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(io.argv);
  } catch (error) {
    io.stderr(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  const lang: Lang = options.lang === 'fr' ? 'fr' : 'en';
  let input: VerificationInput;
  let label: string;
  let portable: string | null;
  try {
    ({ input, label, portable } = await readInput(options.target));
  } catch (error) {
    io.stderr(`${(error as Error).message}\n`);
    return 2;
  }

  let trust: TrustSource;
  try {
    trust = await loadTrustSource(options['trust-list'], io.env);
  } catch (error) {
    io.stderr(`${(error as Error).message}\n`);
    return 2;
  }
  // --issuer and --registry narrow the pinned issuers; --jwks, or an issuer the list does not
  // hold, is the user's own choice of whom to trust (the issuer the credential declares).
  const pinned = trust.issuers.filter(
    (p) =>
      (options.issuer === undefined || p.id === options.issuer) &&
      (options.registry === undefined || (p.registry.chainId === options.registry.chainId && p.registry.address === options.registry.address)),
  );
  const declared = options.jwks !== undefined || ((options.issuer !== undefined || options.registry !== undefined) && pinned.length === 0);

  const http = io.fetch ?? fetch;
  if (portable !== null) {
    // An SD-JWT VC or a W3C VC: the trust list's issuers, or the keys given for --platform.
    let given: { url: string; jwks: Jwks } | null = null;
    try {
      if (options.jwks !== undefined) {
        if (!options.platform) throw new UsageError('--jwks with an SD-JWT VC or a W3C VC: also give --platform, the address those keys are for');
        given = { url: options.platform.replace(/\/+$/, ''), jwks: await loadPortableKeys(http, options.jwks) };
      }
      return await runPortable({ text: portable, label, lang, json: !!options.json, pinned, declared: given, files: trust.files, http, stdout: io.stdout });
    } catch (error) {
      io.stderr(`${(error as Error).message}\n`);
      return 2;
    }
  }
  const getJson = (url: string) => getJsonBounded(http, url);
  const linkOrigin = 'qr' in input && /^https?:\/\//i.test(input.qr.trim()) ? new URL(input.qr.trim()).origin : undefined;
  const platform = (options.platform ?? io.env.SCEAU_PUBLIC_URL ?? linkOrigin)?.replace(/\/+$/, '');
  const rpcUrl = options.rpc ?? (io.env.CHAIN_RPC_URL || undefined);

  const jwksCache = new Map<string, Promise<Jwks>>();
  const loadJwks = (source: string) => {
    if (!jwksCache.has(source)) {
      jwksCache.set(
        source,
        (async () => {
          if (/^https?:\/\//i.test(source)) {
            const { status, body } = await getJson(source);
            if (status !== 200) throw new Error(`${source}: HTTP ${status}`);
            return body as Jwks;
          }
          return JSON.parse(await readFile(source, 'utf8')) as Jwks;
        })(),
      );
    }
    return jwksCache.get(source)!;
  };

  // The chain endpoint: --rpc, CHAIN_RPC_URL, or the one the issuer publishes for verifiers in
  // /.well-known/sceau-issuer.json beside its keys (used only if it names the same registry).
  const issuerDocuments = new Map<string, Promise<string | undefined>>();
  const publishedRpc = (jwksUrl: string, ref: RegistryRef) => {
    const origin = new URL(jwksUrl).origin;
    if (!issuerDocuments.has(origin)) {
      issuerDocuments.set(
        origin,
        getJson(`${origin}/.well-known/sceau-issuer.json`).then(
          ({ body }) => {
            const registry = (body as { registry?: { chain_id?: unknown; address?: unknown; rpc_url?: unknown } } | null)?.registry;
            const same = registry?.chain_id === ref.chainId && typeof registry.address === 'string' && registry.address.toLowerCase() === ref.address.toLowerCase();
            return same && typeof registry.rpc_url === 'string' ? registry.rpc_url : undefined;
          },
          () => undefined,
        ),
      );
    }
    return issuerDocuments.get(origin)!;
  };
  const ports = new Map<string, Promise<RegistryPort>>();
  const connect = io.connectRegistry ?? ((ref: RegistryRef, url: string) => connectRegistryPort(ref, { rpcUrl: url }));
  const portFor = (ref: RegistryRef, issuer: { jwksUrl: string } | null) => {
    const key = `${ref.chainId}:${ref.address.toLowerCase()}`;
    if (!ports.has(key)) {
      ports.set(
        key,
        (async () => {
          const listed = pinned.find((p) => p.registry.chainId === ref.chainId && p.registry.address === ref.address.toLowerCase())?.rpcUrl;
          const url = rpcUrl || (declared ? (issuer && /^https?:/i.test(issuer.jwksUrl) ? await publishedRpc(issuer.jwksUrl, ref) : undefined) : listed);
          return url ? connect(ref, url) : unreachablePort(ref);
        })(),
      );
    }
    return ports.get(key)!;
  };
  const lazyPort = (ref: RegistryRef, issuer: { jwksUrl: string } | null): RegistryPort => ({
    ...ref,
    isIssued: async (root) => (await portFor(ref, issuer)).isIssued(root),
    isRevoked: async (hash) => (await portFor(ref, issuer)).isRevoked(hash),
    findIssuance: async (root) => (await portFor(ref, issuer)).findIssuance(root),
    findRevocation: async (hash) => (await (await portFor(ref, issuer)).findRevocation?.(hash)) ?? null,
  });
  const issuer: TrustedIssuer = declared
    ? {
        basis: 'declared',
        keysPinned: options.jwks !== undefined,
        ...(options.issuer ? { id: options.issuer } : {}),
        ...(options.registry ? { registry: options.registry } : {}),
      }
    : { basis: 'trust-list', issuers: pinned };
  const context: VerificationContext = {
    issuer,
    async jwks(issuer) {
      // Under a trust list the engine takes the pinned keys; nothing is fetched.
      if (!declared) throw new Error("the keys are the trust list's");
      if (options.jwks) return loadJwks(options.jwks);
      if (issuer) return loadJwks(issuer.jwksUrl);
      if (platform) return loadJwks(`${platform}/.well-known/jwks.json`);
      throw new Error('no keys: pass --jwks or --platform');
    },
    registry: lazyPort,
    ...(platform
      ? {
          async findCredential(id: string) {
            const { status, body } = await getJson(`${platform}/api/verify/${encodeURIComponent(id)}`);
            if (status === 404) return null;
            if (status !== 200) throw new Error(`HTTP ${status}`);
            return (body as { data?: { credential?: unknown } } | null)?.data?.credential ?? null;
          },
        }
      : {}),
  };

  const result = await verify(input, context);
  const basis: ReportTrust = declared ? { basis: 'declared', keysGiven: options.jwks !== undefined } : { basis: 'trust-list', files: trust.files, issuers: pinned };
  const trustJson =
    basis.basis === 'declared'
      ? basis
      : { basis: basis.basis, files: basis.files, issuers: basis.issuers.map(({ id, name, development }) => ({ id, name, ...(development ? { development } : {}) })) };
  io.stdout(options.json ? `${JSON.stringify({ ...result, trust: trustJson }, null, 2)}\n` : formatReport(result, label, lang, basis));
  if (result.verdict === 'authentic') return 0;
  return result.verdict === 'incomplete' ? 2 : 1;
}

function parseOptions(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      rpc: { type: 'string' },
      'trust-list': { type: 'string' },
      jwks: { type: 'string' },
      platform: { type: 'string' },
      issuer: { type: 'string' },
      registry: { type: 'string' },
      lang: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { help: true as const, target: '' };
  if (positionals.length !== 1) throw new UsageError('Give exactly one PDF, credential file or QR text.');
  if (values.lang !== undefined && values.lang !== 'en' && values.lang !== 'fr') throw new UsageError('--lang: en or fr');
  let registry: RegistryRef | undefined;
  if (values.registry !== undefined) {
    const match = /^(\d+):(0x[0-9a-fA-F]{40})$/.exec(values.registry);
    if (!match) throw new UsageError('--registry: <chain id>:<contract address>, e.g. 72328:0x5fbd…0aa3');
    registry = { chainId: Number(match[1]), address: match[2]!.toLowerCase() };
  }
  return { help: false as const, target: positionals[0]!, ...values, registry };
}

/** The keys given with --jwks for a portable form (a file, or a URL read bounded). */
async function loadPortableKeys(http: typeof fetch, source: string): Promise<Jwks> {
  if (/^https?:\/\//i.test(source)) {
    const { status, body } = await getJsonBounded(http, source);
    if (status !== 200) throw new Error(`${source}: HTTP ${status}`);
    return body as Jwks;
  }
  return JSON.parse(await readFile(source, 'utf8')) as Jwks;
}

async function readInput(target: string): Promise<{ input: VerificationInput; label: string; portable: string | null }> {
  const isFile = await stat(target).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!isFile) {
    if (/\.(pdf|json|sd-jwt)$/i.test(target)) throw new UsageError(`${target}: no such file`);
    return { input: { qr: target }, label: 'QR', portable: null };
  }
  const bytes = new Uint8Array(await readFile(target));
  if (bytes.length > 20 * 1024 * 1024) throw new UsageError(`${target}: larger than 20 MB`);
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (head.startsWith('%PDF-')) return { input: { pdf: bytes }, label: `PDF ${target}`, portable: null };
  const text = new TextDecoder().decode(bytes).trim();
  // An SD-JWT VC or a W3C VC (bounded before it is parsed), else the platform's own forms.
  const portableHead = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+~/.test(text.slice(0, 4096)) || (text.startsWith('{') && text.slice(0, 4096).includes('"@context"'));
  if (portableHead && text.length > MAX_PORTABLE_BYTES) throw new UsageError(`${target}: an SD-JWT or verifiable credential larger than ${MAX_PORTABLE_BYTES / 1024} KB`);
  if (sniffPortable(text)) return { input: { qr: '' }, label: target, portable: text };
  if (text.startsWith('{')) return { input: { credential: text }, label: `credential ${target}`, portable: null };
  return { input: { qr: text }, label: `QR ${target}`, portable: null };
}

function unreachablePort(ref: RegistryRef): RegistryPort {
  const fail = async (): Promise<never> => {
    throw Object.assign(new Error('no chain RPC URL: pass --rpc or set CHAIN_RPC_URL'), { kind: 'unreachable' });
  };
  return { ...ref, isIssued: fail, isRevoked: fail, findIssuance: fail };
}

const MARKS = { passed: '✔', failed: '✘', 'not-checked': '?' } as const;

/** Whom the report says it trusted. */
export type ReportTrust = { basis: 'trust-list'; files: string[]; issuers: PinnedIssuer[] } | { basis: 'declared'; keysGiven: boolean };

type Named = { id?: unknown; name?: unknown; chainId?: unknown; contract?: unknown; development?: unknown };

function describeIssuer(issuer: Named, lang: Lang): string {
  const registry = issuer.chainId !== undefined ? ` · ${REPORT_TEXTS.registry[lang]} ${issuer.chainId}:${issuer.contract}` : '';
  const development = issuer.development ? ` · ${REPORT_TEXTS.development[lang]}` : '';
  return `${issuer.name} (${issuer.id})${registry}${development}`;
}

/** The issuer lines: the one checked (name and id), or the one expected and the one found. */
function issuerLines(result: VerificationResult, trust: ReportTrust, lang: Lang): string[] {
  const identity = result.checks.find((c) => c.name === 'issuer_identity');
  const d = (identity?.details ?? {}) as Record<string, unknown>;
  const found = d.issuer !== undefined ? describeIssuer({ id: d.issuer, name: d.name, chainId: d.chainId, contract: d.contract }, lang) : null;
  if (trust.basis === 'declared') {
    const source = trust.keysGiven ? ` · ${REPORT_TEXTS.keysGiven[lang]}` : '';
    return found ? [`${REPORT_TEXTS.issuerDeclared[lang]}: ${found}${source}`] : [];
  }
  const lists = `${REPORT_TEXTS.trustList[lang]} ${trust.files.join(', ')}`;
  if (result.trustedIssuer) {
    const checked = { ...result.trustedIssuer, ...(identity?.status === 'passed' && d.chainId !== undefined ? { chainId: d.chainId, contract: d.contract } : {}) };
    return [`${REPORT_TEXTS.issuerChecked[lang]}: ${describeIssuer(checked, lang)} · ${lists}`];
  }
  if (trust.issuers.length === 0) return [`${REPORT_TEXTS.issuerChecked[lang]}: ${REPORT_TEXTS.noIssuerPinned[lang]} · ${lists}`];
  const expected = Array.isArray(d.expected)
    ? (d.expected as Named[])
    : trust.issuers.map((p) => ({ id: p.id, name: p.name, chainId: p.registry.chainId, contract: p.registry.address, development: p.development }));
  return [
    `${REPORT_TEXTS.issuerExpected[lang]}: ${expected.map((e) => describeIssuer(e, lang)).join('; ')} · ${lists}`,
    ...(found ? [`${REPORT_TEXTS.issuerFound[lang]}: ${found}`] : []),
  ];
}

export function formatReport(result: VerificationResult, label: string, lang: Lang, trust: ReportTrust): string {
  const t = (key: keyof typeof REPORT_TEXTS) => REPORT_TEXTS[key][lang];
  const lines: string[] = [`${t('title')} — ${label}`, ...issuerLines(result, trust, lang), ''];
  for (const check of result.checks) {
    lines.push(`  ${MARKS[check.status]} ${CHECK_TITLES[check.name][lang]}: ${STATUS_TEXTS[check.status][lang]}`);
    lines.push(`      ${CODE_TEXTS[check.code][lang]} [${check.code}]`);
    const d = check.details ?? {};
    if (check.name === 'anchored' && check.status === 'passed') {
      const when = typeof d.timestamp === 'number' ? new Date(d.timestamp * 1000).toISOString() : '';
      lines.push(`      chain ${d.chainId} · contract ${d.contract} · root ${d.root}`);
      lines.push(`      transaction ${d.txHash} · block ${d.blockNumber}${when ? ` · ${when}` : ''}`);
    } else if (check.name === 'not_revoked' && check.status === 'failed' && d.txHash) {
      lines.push(`      transaction ${d.txHash}${d.reason ? ` · ${t('reason')}: ${d.reason}` : ''}`);
    } else if (check.name === 'integrity' && Array.isArray(d.fields)) {
      lines.push(`      ${t('fields')}: ${(d.fields as string[]).join(', ')}`);
    } else if (typeof d.problem === 'string' && check.status !== 'passed') {
      lines.push(`      (${d.problem})`);
    }
    // A retired key: which, since when, and when it signed by a trusted source (ADR 0138).
    if (typeof d.retiredAt === 'string') {
      const sources = { timestamp: 'byTimestamp', 'document-timestamp': 'byDocumentTimestamp', record: 'byRecord' } as const;
      const source = t(sources[d.signedAtSource as keyof typeof sources] ?? 'byAnchoring');
      const compromised = typeof d.compromisedAt === 'string' ? ` · ${t('compromisedOn')} ${d.compromisedAt}` : '';
      lines.push(
        `      ${t('key')} ${d.kid} · ${t('retiredOn')} ${d.retiredAt}${compromised}${typeof d.signedAt === 'string' ? ` · ${t('signedOn')} ${d.signedAt} (${source})` : ''}`,
      );
    }
    const later = d.later as { count?: number; dss?: boolean; documentTimestamps?: { genTime?: string; tsa?: string; trusted?: boolean }[] } | undefined;
    if (check.name === 'pdf_signature' && later?.count) {
      const parts = [
        ...(later.dss ? [t('validationData')] : []),
        ...(later.documentTimestamps ?? []).map((s) => `${t('documentTimestamp')} ${s.genTime ?? '?'}${s.tsa ? ` (${s.tsa}${s.trusted ? '' : `, ${t('untrustedTsa')}`})` : ''}`),
      ];
      lines.push(`      ${t('laterRevisions')}: ${later.count}${parts.length ? ` · ${parts.join(' · ')}` : ''}`);
    }
  }
  const p = result.diploma;
  if (p) {
    lines.push('');
    const name = [p.last_name, p.middle_name, p.first_name].filter(Boolean).join(' ');
    const parts = [
      name,
      p.birth_date && `${t('born')} ${p.birth_date}`,
      p.option ?? p.option_code,
      p.school ?? p.school_code,
      p.session ?? p.session_year,
      p.percentage !== undefined ? `${p.percentage} %` : undefined,
      p.issue_date && `${t('issued')} ${p.issue_date}`,
    ].filter(Boolean);
    lines.push(`${t('diploma')} ${p.id}: ${parts.join(' · ')}`);
    if (p.issuer) lines.push(`${t('issuer')}: ${p.issuer.name} (${p.issuer.id})`);
  }
  lines.push('', `${t('verdict')}: ${VERDICT_TEXTS[result.verdict][lang].toUpperCase()}`, '');
  return lines.join('\n');
}

// -------------------------------------------------------------------------------------------
// trust-list: write a platform's issuer into a trust list
// -------------------------------------------------------------------------------------------

export const TRUST_LIST_USAGE = `Usage: npm run verify -- trust-list <platform URL> [--out FILE]

Reads the issuer a running platform publishes (<URL>/.well-known/sceau-issuer.json and the key set
at its jwks_uri) and adds it to a trust list, or replaces its entry for the same registry.
  --out FILE    the trust list to write (default: the shipped trust-list.json)`;

async function runTrustListCommand(io: CliIo): Promise<number> {
  let values: { out?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: io.argv, allowPositionals: true, options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
    if (values.help) {
      io.stdout(`${TRUST_LIST_USAGE}\n`);
      return 0;
    }
    if (positionals.length !== 1 || !/^https?:\/\//i.test(positionals[0]!)) throw new UsageError("Give the platform's address, e.g. https://minepst.gouv.cd");
  } catch (error) {
    io.stderr(`${(error as Error).message}\n\n${TRUST_LIST_USAGE}\n`);
    return 2;
  }
  const http = io.fetch ?? fetch;
  const out = values.out ?? SHIPPED_TRUST_LIST;
  const documentUrl = `${positionals[0]!.replace(/\/+$/, '')}/.well-known/sceau-issuer.json`;
  try {
    const document = await getJsonBounded(http, documentUrl);
    if (document.status !== 200) throw new Error(`${documentUrl}: HTTP ${document.status}`);
    const jwksUri = (document.body as { jwks_uri?: unknown } | null)?.jwks_uri;
    if (typeof jwksUri !== 'string' || !/^https?:\/\//i.test(jwksUri)) throw new TrustListError(`${documentUrl}: no jwks_uri`);
    const keys = await getJsonBounded(http, jwksUri);
    if (keys.status !== 200) throw new Error(`${jwksUri}: HTTP ${keys.status}`);
    const entry = trustListEntry(document.body, keys.body, { source: documentUrl });
    const current = await readTrustListFile(out).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return emptyTrustList();
      throw error;
    });
    await writeFile(`${out}.tmp`, formatTrustList(upsertTrustListEntry(current, entry)));
    await rename(`${out}.tmp`, out);
    const kids = entry.jwks.keys.map((k) => k.kid ?? '?').join(', ');
    io.stdout(`${out}: ${entry.name} (${entry.id}) · registry ${entry.registry.chain_id}:${entry.registry.address} · keys ${kids}\n`);
    if (!keysServedByIssuer(entry.jwks_uri ?? '', entry.id)) {
      io.stderr(`note: the keys are not served over HTTPS from ${entry.id}; compare their ids with the ministry's before shipping this list\n`);
    }
    return 0;
  } catch (error) {
    io.stderr(`${(error as Error).message}\n`);
    return 1;
  }
}
