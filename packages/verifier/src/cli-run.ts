/**
 * The independent verifier: checks a diploma with public information only (the keys the issuer
 * publishes, a chain RPC endpoint, and for a bare QR the platform's public API), never the
 * platform's database. `npm run verify -- <file.pdf | file.json | qr-text> [options]`.
 */
import { readFile, stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Jwks } from '@sceau/credential';
import { connectRegistryPort } from './chain-port.ts';
import { CHECK_TITLES, CODE_TEXTS, STATUS_TEXTS, VERDICT_TEXTS, type Lang } from './messages.ts';
import type { RegistryPort, RegistryRef, TrustedIssuer, VerificationContext, VerificationInput, VerificationResult } from './types.ts';
import { verify } from './verify.ts';

export const USAGE = `Usage: npm run verify -- <file.pdf | file.json | qr-text> [options]

Verifies a Sceau diploma with public information only: the issuer's published keys and the chain.

  <file.pdf>            a diploma PDF (embedded credential, PDF signature, QR codes)
  <file.json>           a credential document
  <qr-text>             the content of either QR code: "SC1:…" or a https://…/verify/{id} link
                        (a file holding that text works too)

Options:
  --rpc URL             chain JSON-RPC endpoint (default: $CHAIN_RPC_URL, else the rpc_url the
                        issuer publishes in /.well-known/sceau-issuer.json beside its keys)
  --jwks FILE|URL       the issuer's keys, trusted as given (default: the credential's
                        issuer.jwks_url, trusted if it is on the issuer's own domain over HTTPS)
  --platform URL        the platform's public address, to fetch a diploma's credential and keys
                        for a bare QR payload (default: $SCEAU_PUBLIC_URL, or the link's origin)
  --issuer ID           only accept this issuer (e.g. minepst.gouv.cd)
  --registry ID:ADDR    only accept this registry (chain id and contract address)
  --lang en|fr          language of the report (default en)
  --json                print the result as JSON
  -h, --help            this help

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

class UsageError extends Error {}

export async function runCli(io: CliIo): Promise<number> {
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
  try {
    ({ input, label } = await readInput(options.target));
  } catch (error) {
    io.stderr(`${(error as Error).message}\n`);
    return 2;
  }

  const http = io.fetch ?? fetch;
  const getJson = async (url: string): Promise<{ status: number; body: unknown }> => {
    const response = await http(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
    const body = response.ok ? await response.json() : null;
    return { status: response.status, body };
  };
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
          const url = rpcUrl || (issuer && /^https?:/i.test(issuer.jwksUrl) ? await publishedRpc(issuer.jwksUrl, ref) : undefined);
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
  const context: VerificationContext = {
    issuer: {
      basis: 'declared',
      keysPinned: options.jwks !== undefined,
      ...(options.issuer ? { id: options.issuer } : {}),
      ...(options.registry ? { registry: options.registry } : {}),
    } as TrustedIssuer,
    async jwks(issuer) {
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
  io.stdout(options.json ? `${JSON.stringify(result, null, 2)}\n` : formatReport(result, label, lang));
  if (result.verdict === 'authentic') return 0;
  return result.verdict === 'incomplete' ? 2 : 1;
}

function parseOptions(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      rpc: { type: 'string' },
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

async function readInput(target: string): Promise<{ input: VerificationInput; label: string }> {
  const isFile = await stat(target).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!isFile) {
    if (/\.(pdf|json)$/i.test(target)) throw new UsageError(`${target}: no such file`);
    return { input: { qr: target }, label: 'QR' };
  }
  const bytes = new Uint8Array(await readFile(target));
  if (bytes.length > 20 * 1024 * 1024) throw new UsageError(`${target}: larger than 20 MB`);
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (head.startsWith('%PDF-')) return { input: { pdf: bytes }, label: `PDF ${target}` };
  const text = new TextDecoder().decode(bytes).trim();
  if (text.startsWith('{')) return { input: { credential: text }, label: `credential ${target}` };
  return { input: { qr: text }, label: `QR ${target}` };
}

function unreachablePort(ref: RegistryRef): RegistryPort {
  const fail = async (): Promise<never> => {
    throw Object.assign(new Error('no chain RPC URL: pass --rpc or set CHAIN_RPC_URL'), { kind: 'unreachable' });
  };
  return { ...ref, isIssued: fail, isRevoked: fail, findIssuance: fail };
}

const MARKS = { passed: '✔', failed: '✘', 'not-checked': '?' } as const;

export function formatReport(result: VerificationResult, label: string, lang: Lang): string {
  const lines: string[] = [lang === 'fr' ? `Vérification d'un diplôme Sceau — ${label}` : `Sceau diploma verification — ${label}`, ''];
  for (const check of result.checks) {
    lines.push(`  ${MARKS[check.status]} ${CHECK_TITLES[check.name][lang]}: ${STATUS_TEXTS[check.status][lang]}`);
    lines.push(`      ${CODE_TEXTS[check.code][lang]} [${check.code}]`);
    const d = check.details ?? {};
    if (check.name === 'anchored' && check.status === 'passed') {
      const when = typeof d.timestamp === 'number' ? new Date(d.timestamp * 1000).toISOString() : '';
      lines.push(`      chain ${d.chainId} · contract ${d.contract} · root ${d.root}`);
      lines.push(`      ${lang === 'fr' ? 'transaction' : 'transaction'} ${d.txHash} · block ${d.blockNumber}${when ? ` · ${when}` : ''}`);
    } else if (check.name === 'not_revoked' && check.status === 'failed' && d.txHash) {
      lines.push(`      transaction ${d.txHash}${d.reason ? ` · ${lang === 'fr' ? 'motif' : 'reason'}: ${d.reason}` : ''}`);
    } else if (check.name === 'integrity' && Array.isArray(d.fields)) {
      lines.push(`      ${lang === 'fr' ? 'champs' : 'fields'}: ${(d.fields as string[]).join(', ')}`);
    } else if (typeof d.problem === 'string' && check.status !== 'passed') {
      lines.push(`      (${d.problem})`);
    }
  }
  const p = result.diploma;
  if (p) {
    lines.push('');
    const name = [p.last_name, p.middle_name, p.first_name].filter(Boolean).join(' ');
    const parts = [
      name,
      p.birth_date && (lang === 'fr' ? `né(e) le ${p.birth_date}` : `born ${p.birth_date}`),
      p.option ?? p.option_code,
      p.school ?? p.school_code,
      p.session ?? p.session_year,
      p.percentage !== undefined ? `${p.percentage} %` : undefined,
      p.issue_date && (lang === 'fr' ? `délivré le ${p.issue_date}` : `issued ${p.issue_date}`),
    ].filter(Boolean);
    lines.push(`${lang === 'fr' ? 'Diplôme' : 'Diploma'} ${p.id}: ${parts.join(' · ')}`);
    if (p.issuer) lines.push(`${lang === 'fr' ? 'Émetteur' : 'Issuer'}: ${p.issuer.name} (${p.issuer.id})`);
  }
  lines.push('', `${lang === 'fr' ? 'Verdict' : 'Verdict'}: ${VERDICT_TEXTS[result.verdict][lang].toUpperCase()}`, '');
  return lines.join('\n');
}
