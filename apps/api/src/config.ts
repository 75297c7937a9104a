import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/**
 * The one way to read configuration: environment variables, validated once at start.
 * Every variable and its default is listed in the README and `.env.example`.
 */
const flag = z.enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', '']).transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Embedded database, files, keys and local chain live here. */
  DATA_DIR: z.string().default('data'),
  /** An external PostgreSQL; when unset the platform runs its own embedded server under DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  /** Demo accounts and schools; on unless NODE_ENV=production. */
  DEMO_DATA: flag.optional(),
  PUBLIC_URL: z.string().url().optional(),
  OAUTH_CLIENT_ID: z.string().min(1).default('sceau-web'),
  OAUTH_CLIENT_SECRET: z.string().min(1).default('sceau-web-dev-secret'),
  /** Lifetime of an access token, in minutes (default: 12 hours). */
  TOKEN_TTL_MINUTES: z.coerce.number().int().min(1).default(720),
  /** The national exam's short name: `/mon-{product}`, `/generations/find-{product}`. */
  PRODUCT: z
    .string()
    .regex(/^[a-z0-9]+$/)
    .default('exetat'),
  CONTACT_EMAIL: z.string().email().default('contact@sceau.example'),
  /**
   * The candidate check (ADR 0090): the base URL whose `/v2/verify-candidate` the web form calls
   * (default: this platform's own `/api`), the api-token the form sends, and the tokens this
   * platform's own endpoint accepts (comma-separated; default: the form's).
   */
  CANDIDATE_CHECK_URL: z.string().url().optional(),
  CANDIDATE_CHECK_TOKEN: z.string().min(1).default('sceau-web-candidate-check'),
  CANDIDATE_CHECK_ACCEPTED_TOKENS: z.string().optional(),
  /** Candidates not recognised per address within the window before the check answers 429. */
  CANDIDATE_CHECK_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
  CANDIDATE_CHECK_WINDOW_MINUTES: z.coerce.number().int().min(1).default(60),
  GOOGLE_CLIENT_ID: z.string().optional(),
  /** Failed sign-ins allowed per login name (and 4x that per address) within the window. */
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_FAILURE_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  /** One-time codes: lifetime, attempts allowed per code, wait before another is sent. */
  OTP_TTL_MINUTES: z.coerce.number().int().min(1).max(60).default(10),
  OTP_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  OTP_RESEND_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** Self-service codes (registration, recovery) sent to one contact within 24 hours, then 429. */
  OTP_DAILY_MAX: z.coerce.number().int().min(1).max(1000).default(10),
  /** Mail: an SMTP relay (smtp://user:pass@host:587, smtps://…); unset writes every message to the outbox. */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Sceau <no-reply@sceau.example>'),
  /** SMS: an HTTP gateway (see ADR 0007); unset writes every message to the outbox. */
  SMS_GATEWAY_URL: z.string().url().optional(),
  SMS_GATEWAY_TOKEN: z.string().optional(),
  SMS_SENDER: z.string().default('SCEAU'),
  /** Where Google publishes its sign-in keys (tests point it at a local key set). */
  GOOGLE_JWKS_URL: z.string().url().default('https://www.googleapis.com/oauth2/v3/certs'),
  /** The chain the registry lives on: unset runs a local Anvil under DATA_DIR/chain (ADR 0021). */
  CHAIN_RPC_URL: z.string().url().optional(),
  CHAIN_ID: z.coerce.number().int().positive().optional(),
  /** The ministry account's key on an external chain (hex). The local chain keeps its own. */
  CHAIN_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/)
    .optional(),
  REGISTRY_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/)
    .optional(),
  CHAIN_PORT: z.coerce.number().int().min(1).max(65535).default(8545),
  CHAIN_CONFIRMATIONS: z.coerce.number().int().min(1).max(64).default(1),
  /** A transaction's page on a block explorer, `{tx}` replaced by its hash (shown to verifiers). */
  CHAIN_EXPLORER_TX_URL: z.string().optional(),
  /** The RPC address published for independent verifiers (default: CHAIN_RPC_URL). */
  CHAIN_PUBLIC_RPC_URL: z.string().url().optional(),
  /**
   * How old this process's view of the chain's revocations may be for an answer to say "not revoked"
   * (ADR 0137): past it, an answer is checked again, and "could not check" while the chain is down.
   */
  REVOCATION_MAX_STALENESS_SECONDS: z.coerce.number().int().min(5).max(86_400).default(120),
  /**
   * The key of the seals recorded at issuance over each checked credential (ADR 0154): at least 32
   * bytes, in base64. Unset: a key generated once in DATA_DIR/keys/verification-seal.key.
   */
  VERIFICATION_SEAL_KEY: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9+/]+={0,2}$|^[A-Za-z0-9_-]+$/, 'base64 (e.g. `openssl rand -base64 32`)')
    .refine((v) => Buffer.from(v, v.includes('-') || v.includes('_') ? 'base64url' : 'base64').length >= 32, 'at least 32 bytes once decoded from base64')
    .optional(),
  /** The issuer's identity, published at /.well-known/ and written into every credential. */
  ISSUER_ID: z.string().default('minepst.gouv.cd'),
  ISSUER_NAME: z.string().min(1).default("Ministère de l'Éducation nationale et Nouvelle Citoyenneté"),
  /**
   * How the site, the PDF and the verifier name and reach the issuer (ADR 0129). ISSUER_NAME is
   * the French name (signed into credentials); the others have demo defaults.
   */
  ISSUER_NAME_EN: z.string().min(1).default('Ministry of National Education and New Citizenship'),
  ISSUER_SHORT_NAME: z.string().min(1).default('EDU-NC'),
  /** The emblem's image: a URL or a path the site serves (e.g. /emblem.svg); empty: none shown. */
  ISSUER_EMBLEM_URL: z.string().default(''),
  ISSUER_ADDRESS: z.string().default('Kinshasa, Gombe'),
  ISSUER_PHONE: z.string().default(''),
  ISSUER_WEBSITE: z.union([z.literal(''), z.string().url()]).default(''),
  /** The footer's links; each empty is not shown. */
  LINK_ANDROID_APP: z.union([z.literal(''), z.string().url()]).default(''),
  LINK_IOS_APP: z.union([z.literal(''), z.string().url()]).default(''),
  LINK_FACEBOOK: z.union([z.literal(''), z.string().url()]).default(''),
  LINK_X: z.union([z.literal(''), z.string().url()]).default(''),
  LINK_LINKEDIN: z.union([z.literal(''), z.string().url()]).default(''),
  LINK_YOUTUBE: z.union([z.literal(''), z.string().url()]).default(''),
  /** The country of phone numbers written without a dial code (`0812345678`): CD (+243), FR, US, BE or CA. */
  PHONE_DEFAULT_COUNTRY: z.enum(['CD', 'FR', 'US', 'BE', 'CA']).default('CD'),
  /** The ministry's signing key and certificate chain (PEM); unset: a development CA under DATA_DIR/keys. */
  MINISTRY_KEY_FILE: z.string().optional(),
  MINISTRY_CERTIFICATE_FILE: z.string().optional(),
  /** Certificates (PEM files, comma-separated) of earlier ministry keys, still published. */
  MINISTRY_RETIRED_CERTIFICATE_FILES: z.string().optional(),
  /**
   * The ministry's key in a hardware module (ADR 0136): the token's PKCS#11 library; the token by
   * label or slot id; the user PIN (or a file holding it); the key by label and/or id (hex). The
   * certificate chain comes from MINISTRY_CERTIFICATE_FILE, or from the token when that is unset.
   */
  KEYS_PKCS11_MODULE: z.string().min(1).optional(),
  KEYS_PKCS11_TOKEN_LABEL: z.string().min(1).max(32).optional(),
  KEYS_PKCS11_SLOT: z.coerce.number().int().min(0).optional(),
  KEYS_PKCS11_PIN: z.string().min(1).max(256).optional(),
  KEYS_PKCS11_PIN_FILE: z.string().min(1).optional(),
  KEYS_PKCS11_KEY_LABEL: z.string().min(1).max(256).optional(),
  KEYS_PKCS11_KEY_ID: z
    .string()
    .regex(/^(?:[0-9a-fA-F]{2}){1,64}$/, 'the key id in hexadecimal, e.g. 01')
    .optional(),
  KEYS_PKCS11_SESSIONS: z.coerce.number().int().min(1).max(16).default(2),
  /** Production signs with a file key (MINISTRY_KEY_FILE) only when this says so: the key should be in a token. */
  KEYS_ALLOW_FILE_KEY: flag.default(false),
  /**
   * PAdES B-LTA (ADR 0135): the RFC 3161 time-stamping authority's URL; unset, the platform's own
   * (a development TSA certificate under DATA_DIR/keys/tsa, also served at /tsa), refused in production.
   */
  TSA_URL: z.union([z.literal(''), z.string().url()]).optional(),
  /** The Authorization header the TSA wants, if any (e.g. `Basic …`). */
  TSA_AUTHORIZATION: z.string().min(1).optional(),
  TSA_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * The certificates (PEM file) that TSA_URL's time-stamps chain to: its root, or its own
   * certificate. The verifier dates a retired key's signatures by them, and sceau-issuer.json
   * publishes them as `timestamp_authorities` for the independent verifier (ADR 0148).
   */
  TSA_TRUST_ANCHORS: z.string().optional(),
  /** Room reserved in each PDF for one token of TSA_URL's TSA, in bytes. */
  TSA_MAX_TOKEN_BYTES: z.coerce.number().int().min(1024).max(65_536).default(12_288),
  /** With configured ministry keys: their CA's current CRL (DER or PEM file), published at /pki/ca.crl and put in each PDF's DSS. */
  MINISTRY_CRL_FILE: z.string().optional(),
  /** Re-time-stamp a diploma this many days before its last time-stamp's TSA certificate expires; at most RETIMESTAMP_PER_RUN a run. */
  RETIMESTAMP_MARGIN_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
  RETIMESTAMP_PER_RUN: z.coerce.number().int().min(1).max(100_000).default(500),
  /** Whether this process also runs background jobs (generation, anchoring). Off for API-only processes. */
  WORKERS: flag.default(true),
  /**
   * Database time limits (ADR 0112): a statement the server runs longer than this is cancelled; a
   * query the server does not answer at all (hung or lost) fails after DB_QUERY_TIMEOUT_MS; a
   * connection not made (or no pool slot free) within DB_CONNECT_TIMEOUT_MS fails. Each gives 503.
   */
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  DB_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).default(35_000),
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** Restarts in a row of the embedded PostgreSQL or the local Anvil before the platform exits (non-zero). */
  SUPERVISOR_MAX_RESTARTS: z.coerce.number().int().min(0).max(100).default(5),
  /** Drafts of list checks never started are deleted, with their files, after this many hours. */
  IMPORT_DRAFT_TTL_HOURS: z.coerce.number().positive().default(24),
  /** Hours a resumable upload (tus, ADR 0150) is kept unfinished or unused before the sweep removes it. */
  UPLOAD_EXPIRY_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 14)
    .default(24),
  /** Behind reverse proxies: their addresses or CIDRs, whose X-Forwarded-For is believed (see trustProxySetting). */
  TRUST_PROXY: z.string().default('false').transform(trustProxySetting),
  /** Prometheus metrics on a port of their own (ADR 0122); unset or 0: not served. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** Where the metrics port listens: loopback unless the operators open it to their network. */
  METRICS_HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Where the built web app is; empty to serve the API only. */
  WEB_DIST: z.string().optional(),
  /** Where files go (ADR 0108): `local` (DATA_DIR/files) or `s3`, an S3-compatible bucket (S3_*). */
  FILE_STORAGE: z.enum(['local', 's3']).default('local'),
  /** The S3 API's address (MinIO, Ceph, a cloud's); unset: AWS S3 in S3_REGION. */
  S3_ENDPOINT: z.string().url().optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens')
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** Both or neither; neither: the AWS SDK's own sources (AWS_* variables, instance or pod role). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** `bucket` in the path instead of the host name; default: on with S3_ENDPOINT, off for AWS. */
  S3_FORCE_PATH_STYLE: flag.optional(),
  /** Put every key under this folder of the bucket (e.g. `sceau/`), to share a bucket. */
  S3_PREFIX: z
    .string()
    .regex(/^$|^[a-z0-9][a-z0-9_.-]*(\/[a-z0-9][a-z0-9_.-]*)*\/?$/i, 'folder names of letters, digits, _ . - separated by /')
    .refine((v) => !v.includes('..'), 'no ..')
    .default(''),
});

/** proxy-addr's names for address ranges (Fastify's trustProxy accepts them). */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: `false`/empty (the client is whoever connects), or the comma-separated addresses and
 * CIDRs of the reverse proxies whose X-Forwarded-For is believed. `true` would let any client
 * choose its own address (and so escape every per-address limit); a hop count cannot tell a proxy
 * from a client that connects directly (Fastify 5 ignores it): both refused at start (ADR 0113).
 */
function trustProxySetting(value: string, ctx: z.RefinementCtx): false | string[] {
  const v = value.trim().toLowerCase();
  if (['', 'false', 'no', 'off', '0'].includes(v)) return false;
  const instead = 'give the addresses or CIDRs of the proxies in front of the platform, e.g. TRUST_PROXY=10.0.0.5,10.1.0.0/16 (or loopback for a proxy on the same machine)';
  if (['true', 'yes', 'on'].includes(v)) {
    ctx.addIssue({ code: 'custom', message: `"${value}" would trust any client's X-Forwarded-For; ${instead}` });
    return z.NEVER;
  }
  if (/^\d+$/.test(v)) {
    ctx.addIssue({ code: 'custom', message: `a hop count (${value}) cannot tell a proxy from a client that connects directly; ${instead}` });
    return z.NEVER;
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const wrong = entries.filter((entry) => {
    if (PROXY_RANGE_NAMES.has(entry)) return false;
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    if (!family || extra !== undefined) return true;
    return bits !== undefined && (!/^\d+$/.test(bits) || Number(bits) > (family === 4 ? 32 : 128));
  });
  if (wrong.length) {
    ctx.addIssue({ code: 'custom', message: `not a hop count nor proxy addresses or CIDRs: ${wrong.join(', ')}` });
    return z.NEVER;
  }
  return entries;
}

/** The S3 settings when FILE_STORAGE=s3 (checked together: a bucket, both keys or neither). */
function s3Settings(e: z.infer<typeof envSchema>) {
  if (e.FILE_STORAGE !== 's3') return { problems: [], s3: null };
  const problems: string[] = [];
  if (!e.S3_BUCKET) problems.push('  S3_BUCKET: required when FILE_STORAGE=s3');
  if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY) problems.push('  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both, or neither (the AWS SDK then finds credentials itself)');
  const prefix = e.S3_PREFIX && !e.S3_PREFIX.endsWith('/') ? `${e.S3_PREFIX}/` : e.S3_PREFIX;
  return {
    problems,
    s3: {
      endpoint: e.S3_ENDPOINT ?? null,
      bucket: e.S3_BUCKET ?? '',
      region: e.S3_REGION,
      credentials: e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : null,
      forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
      prefix,
    },
  };
}

/** The PKCS#11 settings, checked together (ADR 0136): a token, a key, a PIN, and no key file beside them. */
function pkcs11Problems(e: z.infer<typeof envSchema>): string[] {
  const set = [e.KEYS_PKCS11_TOKEN_LABEL, e.KEYS_PKCS11_SLOT, e.KEYS_PKCS11_PIN, e.KEYS_PKCS11_PIN_FILE, e.KEYS_PKCS11_KEY_LABEL, e.KEYS_PKCS11_KEY_ID].some(
    (v) => v !== undefined,
  );
  if (!e.KEYS_PKCS11_MODULE) return set ? ["  KEYS_PKCS11_MODULE: required with the other KEYS_PKCS11_* settings (the path of the token's PKCS#11 library)"] : [];
  const problems: string[] = [];
  if (e.MINISTRY_KEY_FILE) problems.push('  MINISTRY_KEY_FILE: not with KEYS_PKCS11_MODULE (the key is in the token; keep MINISTRY_CERTIFICATE_FILE for its chain)');
  if (e.KEYS_PKCS11_TOKEN_LABEL === undefined && e.KEYS_PKCS11_SLOT === undefined) problems.push('  KEYS_PKCS11_TOKEN_LABEL or KEYS_PKCS11_SLOT: name the token');
  if (!e.KEYS_PKCS11_PIN === !e.KEYS_PKCS11_PIN_FILE) problems.push('  KEYS_PKCS11_PIN or KEYS_PKCS11_PIN_FILE: one of the two');
  if (!e.KEYS_PKCS11_KEY_LABEL && !e.KEYS_PKCS11_KEY_ID) problems.push('  KEYS_PKCS11_KEY_LABEL or KEYS_PKCS11_KEY_ID: name the key');
  return problems;
}

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const storage = s3Settings(e);
  const problems = [...storage.problems, ...pkcs11Problems(e)];
  if (problems.length) throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    demoData: e.DEMO_DATA ?? e.NODE_ENV !== 'production',
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    oauth: { clientId: e.OAUTH_CLIENT_ID, clientSecret: e.OAUTH_CLIENT_SECRET },
    tokenTtlMinutes: e.TOKEN_TTL_MINUTES,
    product: e.PRODUCT,
    contactEmail: e.CONTACT_EMAIL,
    candidateCheck: {
      url: e.CANDIDATE_CHECK_URL?.replace(/\/$/, '') ?? null,
      token: e.CANDIDATE_CHECK_TOKEN,
      acceptedTokens: (e.CANDIDATE_CHECK_ACCEPTED_TOKENS ?? e.CANDIDATE_CHECK_TOKEN)
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
      maxFailures: e.CANDIDATE_CHECK_MAX_FAILURES,
      windowMinutes: e.CANDIDATE_CHECK_WINDOW_MINUTES,
    },
    googleClientId: e.GOOGLE_CLIENT_ID || null,
    login: { maxFailures: e.LOGIN_MAX_FAILURES, windowMinutes: e.LOGIN_FAILURE_WINDOW_MINUTES },
    otp: { ttlMinutes: e.OTP_TTL_MINUTES, maxAttempts: e.OTP_MAX_ATTEMPTS, resendSeconds: e.OTP_RESEND_SECONDS, dailyMax: e.OTP_DAILY_MAX },
    mail: { smtpUrl: e.SMTP_URL ?? null, from: e.MAIL_FROM },
    sms: { gatewayUrl: e.SMS_GATEWAY_URL ?? null, token: e.SMS_GATEWAY_TOKEN ?? null, sender: e.SMS_SENDER },
    google: { clientId: e.GOOGLE_CLIENT_ID || null, jwksUrl: e.GOOGLE_JWKS_URL },
    chain: {
      rpcUrl: e.CHAIN_RPC_URL ?? null,
      chainId: e.CHAIN_ID ?? null,
      privateKey: (e.CHAIN_PRIVATE_KEY as `0x${string}` | undefined) ?? null,
      registryAddress: (e.REGISTRY_ADDRESS as `0x${string}` | undefined) ?? null,
      port: e.CHAIN_PORT,
      confirmations: e.CHAIN_CONFIRMATIONS,
      explorerTxUrl: e.CHAIN_EXPLORER_TX_URL ?? null,
      publicRpcUrl: e.CHAIN_PUBLIC_RPC_URL ?? e.CHAIN_RPC_URL ?? null,
      revocationMaxStalenessSeconds: e.REVOCATION_MAX_STALENESS_SECONDS,
    },
    /** The seal over each credential checked at issuance (ADR 0154): its key, or the file of the generated one. */
    verificationSeal: {
      key: e.VERIFICATION_SEAL_KEY
        ? Buffer.from(e.VERIFICATION_SEAL_KEY, e.VERIFICATION_SEAL_KEY.includes('-') || e.VERIFICATION_SEAL_KEY.includes('_') ? 'base64url' : 'base64')
        : null,
      file: path.join(dataDir, 'keys', 'verification-seal.key'),
    },
    issuer: {
      id: e.ISSUER_ID,
      /** French, signed into every credential: a diploma keeps the name it was signed with. */
      name: e.ISSUER_NAME,
      nameEn: e.ISSUER_NAME_EN,
      shortName: e.ISSUER_SHORT_NAME,
      emblemUrl: e.ISSUER_EMBLEM_URL || null,
      address: e.ISSUER_ADDRESS || null,
      email: e.CONTACT_EMAIL,
      phone: e.ISSUER_PHONE || null,
      website: e.ISSUER_WEBSITE || null,
    },
    /** The footer's links, null when not set (then not shown). */
    links: {
      androidApp: e.LINK_ANDROID_APP || null,
      iosApp: e.LINK_IOS_APP || null,
      facebook: e.LINK_FACEBOOK || null,
      x: e.LINK_X || null,
      linkedin: e.LINK_LINKEDIN || null,
      youtube: e.LINK_YOUTUBE || null,
    },
    phoneCountry: e.PHONE_DEFAULT_COUNTRY,
    keys: {
      dir: path.join(dataDir, 'keys'),
      keyFile: e.MINISTRY_KEY_FILE ?? null,
      certificateFile: e.MINISTRY_CERTIFICATE_FILE ?? null,
      retiredCertificateFiles: (e.MINISTRY_RETIRED_CERTIFICATE_FILES ?? '')
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean),
      organization: e.ISSUER_NAME,
      /** The development CA's CRL address (ADR 0135), for the CRL distribution point of the certificates it issues. */
      crlUrl: `${(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '')}/pki/ca.crl`,
      pkcs11: e.KEYS_PKCS11_MODULE
        ? {
            module: e.KEYS_PKCS11_MODULE,
            tokenLabel: e.KEYS_PKCS11_TOKEN_LABEL ?? null,
            slot: e.KEYS_PKCS11_SLOT ?? null,
            pin: e.KEYS_PKCS11_PIN ?? null,
            pinFile: e.KEYS_PKCS11_PIN_FILE ?? null,
            keyLabel: e.KEYS_PKCS11_KEY_LABEL ?? null,
            keyId: e.KEYS_PKCS11_KEY_ID ?? null,
            sessions: e.KEYS_PKCS11_SESSIONS,
          }
        : null,
      allowFileKey: e.KEYS_ALLOW_FILE_KEY,
    },
    /** PAdES B-LTA (ADR 0135): the TSA (null: the platform's own), the CA's CRL, re-time-stamping. */
    timestamping: {
      tsaUrl: e.TSA_URL || null,
      authorization: e.TSA_AUTHORIZATION ?? null,
      timeoutMs: e.TSA_TIMEOUT_MS,
      maxTokenBytes: e.TSA_MAX_TOKEN_BYTES,
      trustAnchorsFile: e.TSA_TRUST_ANCHORS || null,
      crlFile: e.MINISTRY_CRL_FILE ?? null,
      retimestampMarginDays: e.RETIMESTAMP_MARGIN_DAYS,
      retimestampPerRun: e.RETIMESTAMP_PER_RUN,
    },
    outboxDir: path.join(dataDir, 'outbox'),
    filesDir: path.join(dataDir, 'files'),
    /** `s3` null: files under filesDir. */
    fileStorage: { kind: e.FILE_STORAGE, s3: storage.s3 },
    workers: e.WORKERS,
    database: { statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS, queryTimeoutMs: e.DB_QUERY_TIMEOUT_MS, connectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS },
    supervisor: { maxRestarts: e.SUPERVISOR_MAX_RESTARTS },
    importDraftTtlHours: e.IMPORT_DRAFT_TTL_HOURS,
    /** Resumable uploads (ADR 0150): their folder (always local: a client resumes against the same store) and expiry. */
    uploads: { directory: path.join(dataDir, 'uploads'), expiryHours: e.UPLOAD_EXPIRY_HOURS },
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    metrics: { port: e.METRICS_PORT || null, host: e.METRICS_HOST },
    webDist: e.WEB_DIST === undefined ? path.resolve(import.meta.dirname, '../../web/dist') : e.WEB_DIST || null,
  };
}
