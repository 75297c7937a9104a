import {
  createCertificateRevocationList,
  createDevelopmentPki,
  createDevelopmentTsa,
  createHttpTimeStamper,
  createKeySigner,
  createLocalTimeStampAuthority,
  type CaMaterial,
  type LocalTimeStampAuthority,
  type RevokedCertificate,
  type TimeStamper,
  type ValidationData,
  verifyTimeStampToken,
} from '@sceau/pdf';
import { chainsToAnchor } from '@sceau/verifier/timestamp-token';
import { X509Certificate, createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { MinistryKeys } from '../keys/ministry-keys.ts';
import { fetchTsaCrls } from './remote-tsa-crl.ts';

/**
 * PAdES B-LTA's trust services (ADR 0135): the time-stamping authority and the CA's revocation
 * data, and what the render threads need of them.
 *
 *  - The TSA: TSA_URL (any RFC 3161 TSA) or, by default, the platform's own with a development
 *    certificate under DATA_DIR/keys/tsa (issued by the development CA, or by a development TSA
 *    root of its own when the ministry's keys are configured), renewed before the re-time-stamping
 *    margin would reach it. Production refuses it (safe-defaults.ts).
 *  - The CRL: with the development CA, signed here (a week's validity, renewed daily and at once
 *    on a revocation), its number the issue time in seconds so that processes need no counter;
 *    with configured keys, MINISTRY_CRL_FILE as the ministry's CA publishes it. Served at
 *    /pki/ca.crl and written into every PDF's DSS.
 */

/** How a render thread time-stamps: the local TSA's key, or the remote TSA's address. */
export type TsaSetup =
  | { kind: 'local'; privateKeyPem: string; certificateChainDer: Uint8Array[] }
  | { kind: 'http'; url: string; timeoutMs: number; maxTokenBytes: number; authorization: string | null };

export interface LongTermSetup {
  /** Changes whenever the TSA or the validation data change (part of the render set-up's key). */
  id: string;
  tsa: TsaSetup;
  /** The DSS: the signing chain, the TSA chain, the CRLs. */
  validation: { certificates: Uint8Array[]; crls: Uint8Array[] };
}

const DAY_MS = 86_400_000;
const CRL_VALIDITY_MS = 7 * DAY_MS;
/** A CRL older than this is issued again (well before its nextUpdate). */
const CRL_REFRESH_MS = DAY_MS;
/** The set-up is read again from the files after this long (a revocation by another process). */
const SETUP_TTL_MS = 60_000;
/** TSA_TRUST_ANCHORS is a few certificates: a larger file is a mistake, not read. */
const MAX_ANCHORS_FILE_BYTES = 256 * 1024;
const MAX_ANCHORS = 10;

interface TsaFiles {
  key_file: string;
  chain_file: string;
}
interface RevocationFile {
  revoked: { serial: string; revoked_at: string; reason?: RevokedCertificate['reason'] }[];
}

function pemBlocks(pem: string): Uint8Array[] {
  return [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map((m) => new Uint8Array(Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64')));
}

/** The certificates of a TSA_TRUST_ANCHORS file (PEM), bounded; throws when it holds none. */
async function readAnchorsFile(file: string): Promise<Uint8Array[]> {
  const info = await stat(file);
  if (info.size > MAX_ANCHORS_FILE_BYTES) throw new Error(`TSA_TRUST_ANCHORS (${file}) is larger than ${MAX_ANCHORS_FILE_BYTES} bytes`);
  const certificates = pemBlocks(await readFile(file, 'utf8'));
  if (certificates.length === 0 || certificates.length > MAX_ANCHORS) throw new Error(`TSA_TRUST_ANCHORS (${file}) must hold 1 to ${MAX_ANCHORS} PEM certificates`);
  for (const der of certificates) new X509Certificate(der);
  return certificates;
}

function crlDer(bytes: Buffer): Uint8Array {
  const text = bytes.toString('latin1');
  const pem = /-----BEGIN X509 CRL-----([\s\S]*?)-----END X509 CRL-----/.exec(text);
  return new Uint8Array(pem ? Buffer.from(pem[1]!.replace(/\s+/g, ''), 'base64') : bytes);
}

async function writeAtomically(file: string, content: string | Uint8Array, mode = 0o644) {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, content, { mode });
  await rename(tmp, file);
  await chmod(file, mode);
}

export class TimestampingService {
  private readonly dir: string;
  private cached: { at: number; setup: LongTermSetup; tsa: LocalTimeStampAuthority | null; crl: Uint8Array | null } | null = null;
  private loading: Promise<NonNullable<TimestampingService['cached']>> | null = null;

  constructor(
    private readonly config: Pick<Config, 'publicUrl' | 'keys' | 'timestamping'>,
    private readonly keys: MinistryKeys,
    private readonly log: Pick<Logger, 'info' | 'warn'> = { info: () => {}, warn: () => {} },
    private readonly now: () => Date = () => new Date(),
  ) {
    this.dir = config.keys.dir;
  }

  /** The public address of the CA's CRL (the CRL distribution point of the development certificates). */
  get crlUrl(): string {
    return `${this.config.publicUrl.replace(/\/$/, '')}/pki/ca.crl`;
  }

  /** Whether the platform runs its own TSA (no TSA_URL). */
  get local(): boolean {
    return !this.config.timestamping.tsaUrl;
  }

  /** What issuing's render threads need (cached for a minute). */
  async setup(): Promise<LongTermSetup> {
    return (await this.current()).setup;
  }

  /** The TSA as a TimeStamper on this thread (the re-time-stamping job). */
  async timestamper(): Promise<TimeStamper> {
    const state = await this.current();
    return state.tsa ?? remoteTimestamper(state.setup.tsa);
  }

  /** The local TSA (null with TSA_URL): what /tsa answers with. */
  async localAuthority(): Promise<LocalTimeStampAuthority | null> {
    if (!this.local) return null;
    return (await this.current()).tsa;
  }

  /**
   * The CA's current CRL (DER), or null when there is none to publish. Read apart from the TSA:
   * the CRL is served even while a remote TSA does not answer.
   */
  async crl(): Promise<Uint8Array | null> {
    const ca = await this.developmentCa();
    if (ca) return this.developmentCrl(ca);
    return this.config.timestamping.crlFile ? crlDer(await readFile(this.config.timestamping.crlFile)) : null;
  }

  /** The CA certificate (the last of the ministry's chain). */
  caCertificateDer(): Uint8Array | null {
    const chain = this.keys.active.certificateChainDer;
    return chain.length > 1 ? chain[chain.length - 1]! : null;
  }

  /** The local TSA's certificate chain (leaf first), or null with TSA_URL. */
  async tsaCertificateChainDer(): Promise<Uint8Array[] | null> {
    if (!this.local) return null;
    const setup = await this.setup();
    return setup.tsa.kind === 'local' ? setup.tsa.certificateChainDer : null;
  }

  /**
   * The time-stamping authorities a verifier should trust to date this platform's signatures
   * (ADR 0148), DER: TSA_TRUST_ANCHORS's certificates with TSA_URL, else the root of the
   * platform's own TSA chain. The verifier's context and sceau-issuer.json's
   * `timestamp_authorities` (read by the independent verifier and the trust list) use them.
   */
  async trustedAuthoritiesDer(): Promise<Uint8Array[]> {
    this.anchors ??= this.readTrustedAuthorities().catch((error: unknown) => {
      this.anchors = null;
      throw error;
    });
    return this.anchors;
  }

  private anchors: Promise<Uint8Array[]> | null = null;

  private async readTrustedAuthorities(): Promise<Uint8Array[]> {
    const file = this.config.timestamping.trustAnchorsFile;
    if (file) return readAnchorsFile(file);
    if (!this.local) return [];
    const chain = await this.tsaCertificateChainDer();
    return chain?.length ? [chain[chain.length - 1]!] : [];
  }

  /**
   * Revokes a certificate of the development CA (by serial, hexadecimal) and issues the CRL again
   * at once. With configured keys the ministry's CA revokes, not the platform.
   */
  async revoke(serialHex: string, reason: RevokedCertificate['reason'] = 'keyCompromise', at: Date = this.now()): Promise<void> {
    const ca = await this.developmentCa();
    if (!ca) throw new Error("the ministry's keys are configured: revoke the certificate at the ministry's CA and publish its CRL (MINISTRY_CRL_FILE)");
    const serial = serialHex.toLowerCase().replace(/^0+(?=.)/, '');
    if (!/^[0-9a-f]{1,40}$/.test(serial)) throw new Error(`not a certificate serial number: ${serialHex}`);
    const file = path.join(this.dir, 'crl', 'revoked.json');
    const list: RevocationFile = existsSync(file) ? JSON.parse(await readFile(file, 'utf8')) : { revoked: [] };
    if (!list.revoked.some((r) => r.serial === serial)) list.revoked.push({ serial, revoked_at: at.toISOString(), reason });
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeAtomically(file, JSON.stringify(list, null, 2));
    await this.issueCrl(ca, list);
    this.cached = null;
  }

  private async current() {
    if (this.cached && this.now().getTime() - this.cached.at < SETUP_TTL_MS) return this.cached;
    this.loading ??= this.load().finally(() => {
      this.loading = null;
    });
    this.cached = await this.loading;
    return this.cached;
  }

  private async load() {
    const ca = await this.developmentCa();
    const crls: Uint8Array[] = [];
    let crl: Uint8Array | null = null;
    if (ca) {
      crl = await this.developmentCrl(ca);
      crls.push(crl);
    } else if (this.config.timestamping.crlFile) {
      crl = crlDer(await readFile(this.config.timestamping.crlFile));
      crls.push(crl);
    } else {
      this.log.warn({}, "no CRL for the ministry's CA (MINISTRY_CRL_FILE): the PDFs' DSS carries certificates only");
    }
    let tsaSetup: TsaSetup;
    let tsa: LocalTimeStampAuthority | null = null;
    let tsaChain: Uint8Array[] = [];
    if (this.config.timestamping.tsaUrl) {
      // One time-stamp asked at once: the TSA answers (or issuing waits for it), its tokens' size
      // sets the room reserved in each PDF (not TSA_MAX_TOKEN_BYTES of zeros twice per diploma),
      // and the certificates its tokens carry go into the DSS.
      const t = this.config.timestamping;
      const configured: TsaSetup = { kind: 'http', url: t.tsaUrl!, timeoutMs: t.timeoutMs, maxTokenBytes: t.maxTokenBytes, authorization: t.authorization };
      const probe = await remoteTimestamper(configured).timestamp(randomBytes(32));
      const info = verifyTimeStampToken(probe);
      if (t.trustAnchorsFile) {
        // Every diploma's time-stamps must date it for verifiers (ADR 0148): a TSA outside TSA_TRUST_ANCHORS issues nothing.
        const anchors = (await this.trustedAuthoritiesDer()).map((der) => new X509Certificate(der));
        const leaf = new X509Certificate(info.tsaCertificateDer);
        if (
          !chainsToAnchor(
            leaf,
            info.certificatesDer.map((der) => new X509Certificate(der)),
            anchors,
          )
        ) {
          throw new Error(`the TSA at ${t.tsaUrl} (${leaf.subject.replaceAll('\n', ', ')}) does not chain to a certificate of TSA_TRUST_ANCHORS (${t.trustAnchorsFile})`);
        }
      } else {
        this.log.warn({}, 'TSA_TRUST_ANCHORS is not set: verifiers will not trust the time-stamps of TSA_URL (ADR 0148)');
      }
      tsaSetup = { ...configured, maxTokenBytes: Math.min(t.maxTokenBytes, Math.ceil(probe.length * 1.25) + 512) };
      tsaChain = info.certificatesDer;
      // The remote TSA's own revocation data (its certificates' CRL distribution points), in the DSS beside the CA's.
      crls.push(...(await this.remoteTsaCrls(unique([info.tsaCertificateDer, ...info.certificatesDer]))));
    } else {
      const local = await this.localTsa(ca, crls);
      tsaSetup = { kind: 'local', privateKeyPem: local.privateKeyPem, certificateChainDer: local.chain };
      tsaChain = local.chain;
      tsa = createLocalTimeStampAuthority({ signer: createKeySigner({ privateKey: local.privateKeyPem, certificateChainDer: local.chain }) });
    }
    const certificates = unique([...this.keys.active.certificateChainDer, ...tsaChain]);
    const hash = createHash('sha256');
    for (const part of [...certificates, ...crls]) hash.update(part);
    if (tsaSetup.kind === 'http') hash.update(tsaSetup.url);
    const setup: LongTermSetup = { id: hash.digest('hex').slice(0, 16), tsa: tsaSetup, validation: { certificates, crls } };
    return { at: this.now().getTime(), setup, tsa, crl };
  }

  private remoteCrls: { key: string; until: number; crls: Uint8Array[] } | null = null;

  /**
   * The CRLs of TSA_URL's certificates (remote-tsa-crl.ts), fetched again after a day or at their
   * nextUpdate, whichever comes first; while a new fetch fails, those last fetched are kept (asked
   * again every ten minutes). A CRL that cannot be had is a warning: the DSS then has the
   * certificates only.
   */
  private async remoteTsaCrls(chain: Uint8Array[]): Promise<Uint8Array[]> {
    const now = this.now().getTime();
    const key = chain.map((der) => createHash('sha256').update(der).digest('hex')).join(',');
    const known = this.remoteCrls?.key === key ? this.remoteCrls : null;
    if (known && now < known.until) return known.crls;
    const anchors = this.config.timestamping.trustAnchorsFile ? await this.trustedAuthoritiesDer() : [];
    const { crls, problems } = await fetchTsaCrls(chain, anchors, { timeoutMs: this.config.timestamping.timeoutMs });
    for (const problem of problems) this.log.warn({}, `TSA_URL: ${problem}; the PDFs' DSS goes without it`);
    if (crls.length === 0 && known && known.crls.length > 0 && problems.length > 0) {
      this.remoteCrls = { ...known, until: now + SETUP_TTL_MS * 10 };
      return known.crls;
    }
    const until = Math.min(now + CRL_REFRESH_MS, ...crls.map((c) => c.nextUpdate?.getTime() ?? Number.POSITIVE_INFINITY));
    this.remoteCrls = { key, until: Math.max(until, now + SETUP_TTL_MS), crls: crls.map((c) => c.der) };
    return this.remoteCrls.crls;
  }

  /** The development CA's files (development mode), or null. */
  private async developmentCa(): Promise<CaMaterial | null> {
    const certificate = path.join(this.dir, 'development-ca.pem');
    const key = path.join(this.dir, 'development-ca-key.pem');
    if (this.keys.mode !== 'development' || !existsSync(certificate) || !existsSync(key)) return null;
    return { certificatePem: await readFile(certificate, 'utf8'), privateKeyPem: await readFile(key, 'utf8') };
  }

  private async developmentCrl(ca: CaMaterial): Promise<Uint8Array> {
    const file = path.join(this.dir, 'crl', 'ca.crl');
    // The file's time is the CRL's thisUpdate (written at once when issued).
    const written = existsSync(file) ? (await stat(file)).mtime.getTime() : null;
    const age = written === null ? Number.POSITIVE_INFINITY : this.now().getTime() - written;
    if (age >= 0 && age < CRL_REFRESH_MS) return new Uint8Array(await readFile(file));
    const listFile = path.join(this.dir, 'crl', 'revoked.json');
    const list: RevocationFile = existsSync(listFile) ? JSON.parse(await readFile(listFile, 'utf8')) : { revoked: [] };
    return this.issueCrl(ca, list);
  }

  private async issueCrl(ca: CaMaterial, list: RevocationFile): Promise<Uint8Array> {
    const now = this.now();
    const der = await createCertificateRevocationList({
      ca,
      revoked: list.revoked.map((r) => ({ serialHex: r.serial, revokedAt: new Date(r.revoked_at), ...(r.reason ? { reason: r.reason } : {}) })),
      thisUpdate: now,
      nextUpdate: new Date(now.getTime() + CRL_VALIDITY_MS),
      crlNumber: Math.floor(now.getTime() / 1000),
    });
    await mkdir(path.join(this.dir, 'crl'), { recursive: true, mode: 0o700 });
    await writeAtomically(path.join(this.dir, 'crl', 'ca.crl'), der);
    return der;
  }

  /**
   * The local TSA's key and chain, made on first use and made again when its certificate would
   * expire within twice the re-time-stamping margin (a fresh time-stamp must outlive the margin).
   */
  private async localTsa(ca: CaMaterial | null, crls: Uint8Array[]): Promise<{ privateKeyPem: string; chain: Uint8Array[] }> {
    const dir = path.join(this.dir, 'tsa');
    const currentFile = path.join(dir, 'current.json');
    const renewBefore = this.now().getTime() + 2 * this.config.timestamping.retimestampMarginDays * DAY_MS;
    if (existsSync(currentFile)) {
      const current = JSON.parse(await readFile(currentFile, 'utf8')) as TsaFiles;
      const chain = pemBlocks(await readFile(path.join(dir, current.chain_file), 'utf8'));
      const privateKeyPem = await readFile(path.join(dir, current.key_file), 'utf8');
      if (new Date(new X509Certificate(chain[0]!).validTo).getTime() > renewBefore) {
        await this.ownRootCrl(dir, chain, crls);
        return { privateKeyPem, chain };
      }
      this.log.info({}, 'the development TSA certificate is near its end: issuing a new one');
    }
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // Without the development CA (configured ministry keys), a development TSA root of its own.
    let issuer = ca;
    // The own root's CRL goes into the DSS only (it is not published).
    let crlUrl: string | undefined = this.crlUrl;
    if (!issuer) {
      const rootFile = path.join(dir, 'tsa-root.pem');
      const rootKey = path.join(dir, 'tsa-root-key.pem');
      if (!existsSync(rootFile)) {
        const root = await createDevelopmentPki({ organization: this.config.keys.organization, caYears: 20 });
        await writeAtomically(rootKey, root.caPrivateKeyPem, 0o600);
        await writeAtomically(rootFile, root.caCertificatePem);
      }
      issuer = { certificatePem: await readFile(rootFile, 'utf8'), privateKeyPem: await readFile(rootKey, 'utf8') };
      crlUrl = undefined;
    }
    const tsa = await createDevelopmentTsa({ ca: issuer, organization: this.config.keys.organization, ...(crlUrl ? { crlUrl } : {}) });
    const serial = new X509Certificate(tsa.certificateDer).serialNumber.toLowerCase();
    const files: TsaFiles = { key_file: `tsa-${serial}.key.pem`, chain_file: `tsa-${serial}.chain.pem` };
    await writeAtomically(path.join(dir, files.key_file), tsa.privateKeyPem, 0o600);
    await writeAtomically(path.join(dir, files.chain_file), tsa.certificateChainDer.map((der) => toPem(der)).join(''));
    await writeAtomically(currentFile, JSON.stringify(files, null, 2));
    this.log.warn({ dir }, 'created a DEVELOPMENT time-stamping authority: set TSA_URL to an RFC 3161 TSA for production');
    await this.ownRootCrl(dir, tsa.certificateChainDer, crls);
    return { privateKeyPem: tsa.privateKeyPem, chain: tsa.certificateChainDer };
  }

  /** The own TSA root's CRL (configured ministry keys), added to the DSS. */
  private async ownRootCrl(dir: string, chain: Uint8Array[], crls: Uint8Array[]) {
    const rootFile = path.join(dir, 'tsa-root.pem');
    if (!existsSync(rootFile)) return;
    const rootPem = await readFile(rootFile, 'utf8');
    if (!pemBlocks(rootPem).some((der) => Buffer.from(der).equals(Buffer.from(chain[chain.length - 1]!)))) return;
    const now = this.now();
    crls.push(
      await createCertificateRevocationList({
        ca: { certificatePem: rootPem, privateKeyPem: await readFile(path.join(dir, 'tsa-root-key.pem'), 'utf8') },
        revoked: [],
        thisUpdate: now,
        nextUpdate: new Date(now.getTime() + CRL_VALIDITY_MS),
        crlNumber: Math.floor(now.getTime() / 1000),
      }),
    );
  }
}

/** A TimeStamper from a render set-up's TSA (what a render thread builds). */
export function timestamperFor(tsa: TsaSetup): TimeStamper {
  if (tsa.kind === 'local') return createLocalTimeStampAuthority({ signer: createKeySigner({ privateKey: tsa.privateKeyPem, certificateChainDer: tsa.certificateChainDer }) });
  return remoteTimestamper(tsa);
}

function remoteTimestamper(tsa: TsaSetup): TimeStamper {
  if (tsa.kind !== 'http') throw new Error('not a remote TSA');
  return createHttpTimeStamper({
    url: tsa.url,
    timeoutMs: tsa.timeoutMs,
    maxTokenLength: tsa.maxTokenBytes,
    ...(tsa.authorization ? { authorization: tsa.authorization } : {}),
  });
}

/** The DSS contents of a set-up, as @sceau/pdf takes them. */
export function validationData(setup: LongTermSetup): ValidationData {
  return { certificates: setup.validation.certificates, crls: setup.validation.crls };
}

function unique(items: Uint8Array[]): Uint8Array[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = Buffer.from(item).toString('base64');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function toPem(der: Uint8Array): string {
  return `-----BEGIN CERTIFICATE-----\n${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
}
