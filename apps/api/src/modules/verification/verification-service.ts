import {
  CREDENTIAL_ATTACHMENT,
  cachedRegistry,
  createPdfParsePool,
  createRevocationIndex,
  createVerificationCache,
  registryPort,
  revocationLog,
  verify,
  type CachedRegistry,
  type PdfParsePool,
  type RegistryPort,
  type RevocationIndex,
  type RevocationIndexStatus,
  type VerificationCache,
  type VerificationContext,
  type VerificationResult,
} from '@sceau/verifier';
import { ChainError } from '@sceau/chain';
import { DIPLOMA_ID_PATTERN, type GenerationStatus, isPublished } from '@sceau/contracts';
import { publicCredential, type CredentialDocument, type HashedField } from '@sceau/credential';
import { eq } from 'drizzle-orm';
import type pg from 'pg';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { diplomas } from '../../db/schema.ts';
import { countSealMismatch, trackChain, untrackChain } from '../../prometheus/metrics.ts';
import type { OpenChain } from '../chain/open-chain.ts';
import type { MinistryKeys } from '../keys/ministry-keys.ts';
import type { FileStorage } from '../../lib/storage.ts';
import type { TimestampingService } from '../timestamping/timestamping-service.ts';
import { batchedReader, type BatchedReader } from './batched-reads.ts';
import { readSeal, SealKeyring } from './verification-seal.ts';

type Hex = `0x${string}`;

export type VerificationInput = { pdf: Uint8Array } | { credential: unknown } | { qr: string } | { diplomaId: string };

/** A diploma as the database has it: its full credential and whether its batch is published. */
interface DiplomaRow {
  /** The credential's JSON text (`credential::text`), what the seal covers. */
  credential: string;
  /** The seal recorded when it was checked at issuance, and its public credential's text (ADR 0154). */
  seal: Buffer | null;
  public_credential: string | null;
  status: string;
  type: string;
}

/** A diploma read for a verification: its row, its credential parsed, and whether its seal holds. */
interface ReadDiploma {
  row: DiplomaRow;
  credential: unknown;
  /** The row is as it was checked and sealed at issuance, under this process's seal key. */
  sealed: boolean;
}

/** How many ids a process remembers having warned of a seal that does not match (one warning per id). */
const MAX_WARNED_SEALS = 10_000;

const published = (row: DiplomaRow) => isPublished(row.status as GenerationStatus);

/**
 * A diploma's credential, batch status and kind, by id: one indexed read, prepared once (a named
 * statement), for every id asked in the same turn of the event loop (ADR 0130, 0153).
 */
const DIPLOMAS_BY_ID = {
  name: 'verification_diplomas_by_id',
  text: `select d.id, d.credential::text as credential, d.seal, d.public_credential, g.status, g.type from diplomas d join generations g on g.id = d.generation_id where d.id = any($1::varchar[])`,
  keyColumn: 'id',
};

/** A verification by id and what the page and independent verifiers receive with it. */
export interface VerificationById {
  result: VerificationResult;
  /**
   * The public credential of a published diploma, else null: every field not in `PUBLIC_FIELDS`
   * hidden (ADR 0134), so it verifies (targetHash, proof, root, signature) without giving away the
   * other fields' values or salts. The full one is its holder's (the PDF, `GET /holder/diplomas/{id}/credential`).
   */
  credential: CredentialDocument | null;
  /** The kind of diploma (its batch's type: `diplome_etat`, …) of a published diploma, else null. */
  kind?: string | null;
  /** `credential` as JSON text (`null` when there is none): what the API's answer carries, written once. */
  credentialJson?: string;
}

/** This process's view of the chain, for readiness (ADR 0137). */
export interface ChainView {
  /** Whether the revocation watcher's last poll reached the chain (null: no poll ended yet, or not watching). */
  reachable: boolean | null;
  /** The chain's newest block the watcher saw, null before it saw one. */
  lastBlock: number | null;
  /** The last block whose revocations the index has read. */
  indexedBlock: number | null;
  /** Seconds since the index's last complete scan started (null before its first). */
  indexLagSeconds: number | null;
  /** Whether answers can no longer say "not revoked" from the index: behind by more than the bound, or never filled within it. */
  stale: boolean;
  maxStalenessSeconds: number;
}

/**
 * Verification for the public: the one engine (packages/verifier) with the platform's trusted
 * identity, its chain and its database as the source of full credentials. Answers are cached and
 * dropped when the contract reports a revocation, so a results-day load does not wait on the chain;
 * an answer that could not be fully checked is never cached. What the chain said is cached on the
 * same terms (ADR 0100): a batch's root is read once for all its diplomas. A verification by id
 * reads its diploma once (credential and batch status in one query) and not at all when answered
 * from the cache. Revocations are answered from the set of revoked hashes the contract's events
 * fill (ADR 0102) while it is current, and read from the chain when it is not. An answer saying
 * "not revoked" is served only while the chain view behind it is within
 * `REVOCATION_MAX_STALENESS_SECONDS`; while the chain does not answer, "could not check" (ADR 0137).
 */
export class VerificationService {
  private readonly cache: VerificationCache;
  private readonly context: VerificationContext;
  private readonly registry: CachedRegistry;
  private readonly revocations: RevocationIndex;
  private watchErrors: ((error: unknown) => void) | undefined;
  /** When the watcher started (null: not watching). */
  private watchingSince: number | null = null;
  /**
   * How old the view of the chain behind an answer's "not revoked" may be (ADR 0137): an answer past
   * it is computed again, and while the chain does not answer it says "could not check".
   */
  private readonly maxStalenessMs: number;
  /** When the chain was read for each answer's revocation status (the oldest of its reads). */
  private readonly viewAt = new WeakMap<VerificationResult, number>();
  /**
   * The credential given with an answer by id, kept as long as the answer itself, as its JSON text:
   * one string per answer instead of a few dozen objects, which the garbage collector would walk
   * at every full collection while tens of thousands of answers are cached (ADR 0153).
   */
  private readonly credentials = new WeakMap<VerificationResult, { json: string; kind: string | null }>();
  /**
   * Uploaded PDFs that are not the ministry's own are parsed in a thread with limits (ADR 0114): a
   * hostile file is refused (PdfTooComplex) in bounded time and memory, and the event loop keeps
   * answering. Made on first use; its thread stops when idle.
   */
  private parser: PdfParsePool | null = null;
  /**
   * The one read of a verification by id, prepared once (a named statement: PostgreSQL parses and
   * plans it once per connection): results day's cold path (ADR 0130). The ids asked together are
   * read together, one round trip for all (ADR 0153).
   */
  private readonly diplomaById: BatchedReader<DiplomaRow & { id: string }>;

  /** The key of the seals recorded at issuance (ADR 0154), read on first use. */
  private readonly seal: SealKeyring;
  /** The ids whose seal was found not to match, already logged (ADR 0154). */
  private readonly warnedSeals = new Set<string>();
  private readonly log: { warn: (details: object, message: string) => void };

  /** The TSAs trusted to date signatures (ADR 0148), read once; null until read. */
  private timestampAuthorities: Promise<readonly Uint8Array[]> | null = null;

  constructor(
    private readonly db: Db,
    config: Config,
    keys: MinistryKeys,
    chain: OpenChain,
    private readonly trust: {
      storage?: FileStorage;
      timestamping?: TimestampingService | null;
      /** The seal key (ADR 0154); by default the configuration's. */
      seal?: SealKeyring;
      log?: { warn: (details: object, message: string) => void };
    } = {},
  ) {
    this.log = trust.log ?? { warn: () => {} };
    this.seal = trust.seal ?? new SealKeyring(config.verificationSeal, this.log);
    this.diplomaById = batchedReader<DiplomaRow & { id: string }>(db.$client as pg.Pool, DIPLOMAS_BY_ID);
    this.maxStalenessMs = config.chain.revocationMaxStalenessSeconds * 1000;
    // "Not yet published" changes as soon as the batch is anchored, perhaps by another process: not
    // kept. An answer whose view of the revocations is too old is not served (ADR 0137).
    this.cache = createVerificationCache({
      ttlMs: 10 * 60_000,
      max: 50_000,
      keep: (result) => result.verdict !== 'unpublished',
      fresh: (result) => this.isFresh(result),
    });
    // A revocation status read from the chain is kept no longer than an answer may rely on it.
    this.registry = cachedRegistry(registryPort(chain.registry), { ttlMs: 10 * 60_000, revokedTtlMs: this.maxStalenessMs });
    // Filled from the registry's deployment on, kept by its Revoked events; until `watchRevocations`
    // starts it (server.ts), it answers nothing and every revocation status is read from the chain.
    this.revocations = createRevocationIndex(revocationLog(chain.registry), {
      fromBlock: chain.deploymentBlock ?? 0,
      pollingIntervalMs: chain.connection.pollingIntervalMs,
      // Trusted no longer than an answer may rely on it (its default: 5 s or 5 polls).
      maxLagMs: Math.min(Math.max(5_000, 5 * chain.connection.pollingIntervalMs), this.maxStalenessMs),
      onChange: (hash) => this.forget(hash),
      onReset: () => {
        this.registry.clear();
        this.cache.clear();
      },
      onError: (error) => this.watchErrors?.(error),
    });
    let publishedKeys: ReturnType<MinistryKeys['jwks']> | null = null;
    const base = config.publicUrl.replace(/\/$/, '');
    this.context = {
      // The keys are read at start (a rotation takes a restart): their published set is made once,
      // not per verification (it encodes every certificate chain, ADR 0130).
      jwks: async () => (publishedKeys ??= keys.jwks()),
      registry: this.registry,
      issuer: { id: config.issuer.id, name: config.issuer.name, jwksUrl: `${base}/.well-known/jwks.json`, registry: { chainId: chain.chainId, address: chain.address } },
      findCredential: async (id) => (await this.readDiploma(id))?.credential ?? null,
      knownUnpublished: async (id) => {
        const found = await this.findDiploma(id);
        return found !== null && !published(found);
      },
      parsePdf: (pdf) => (this.parser ??= createPdfParsePool()).parse(pdf, CREDENTIAL_ATTACHMENT),
      ...(trust.storage ? { issuedPdf: (id: string, signed: Uint8Array) => this.issuedPdf(id, signed) } : {}),
    };
  }

  /** Stops the PDF parser threads (a later upload starts them again). */
  async closeParsers(): Promise<void> {
    const parser = this.parser;
    this.parser = null;
    await parser?.close();
  }

  private async findDiploma(id: string): Promise<DiplomaRow | null> {
    if (!DIPLOMA_ID_PATTERN.test(id)) return null;
    return this.diplomaById.read(id);
  }

  /**
   * A diploma's row, its credential parsed, and whether the seal recorded at issuance still holds
   * over it under this process's key (ADR 0154). A seal made under this key that does not match
   * means the row was changed after it was sealed: counted, logged once per id, and the row is
   * checked in full like one without a seal.
   */
  private async readDiploma(id: string): Promise<ReadDiploma | null> {
    const [row, key] = await Promise.all([this.findDiploma(id), this.seal.key()]);
    if (!row) return null;
    let credential: unknown;
    try {
      credential = JSON.parse(row.credential);
    } catch {
      credential = row.credential;
    }
    const state = key && row.seal ? readSeal(key, row.seal, id, row.credential, row.public_credential) : 'absent';
    if (state === 'mismatch') {
      countSealMismatch();
      if (!this.warnedSeals.has(id) && this.warnedSeals.size < MAX_WARNED_SEALS) {
        this.warnedSeals.add(id);
        this.log.warn({ diplomaId: id }, 'a diploma no longer matches the seal recorded at its issuance: the row was changed since; it is checked in full (ADR 0154)');
      }
    }
    return { row, credential, sealed: state === 'valid' };
  }

  /**
   * Whether the platform issued exactly this signed revision of a diploma's PDF: its stored file
   * (renewals only append to it, ADR 0135) begins with these bytes. Asked by the engine only for a
   * PDF signed by a retired key that no trusted time-stamp dates (ADR 0148); the stored file is the
   * platform's own, its size bounded by what rendering writes.
   */
  private async issuedPdf(id: string, signed: Uint8Array): Promise<boolean | null> {
    if (!DIPLOMA_ID_PATTERN.test(id) || !this.trust.storage) return null;
    const [row] = await this.db.select({ pdfKey: diplomas.pdfKey }).from(diplomas).where(eq(diplomas.id, id)).limit(1);
    if (!row?.pdfKey) return false;
    const stored = await this.trust.storage.get(row.pdfKey);
    if (!stored) return null;
    return stored.length >= signed.length && stored.subarray(0, signed.length).equals(signed);
  }

  /** The TSAs the platform trusts (TSA_TRUST_ANCHORS, or its own TSA's root); none while they cannot be read. */
  private async trustedTimestampAuthorities(): Promise<readonly Uint8Array[]> {
    if (!this.trust.timestamping) return [];
    this.timestampAuthorities ??= this.trust.timestamping.trustedAuthoritiesDer().catch(() => {
      this.timestampAuthorities = null;
      return [];
    });
    return this.timestampAuthorities;
  }

  async verify(input: VerificationInput): Promise<VerificationResult> {
    return this.cache.getOrVerify(input, () => this.compute(input, this.context));
  }

  /** The engine, with the revocations read from the index or the chain and when that view was taken. */
  private async compute(input: VerificationInput, context: VerificationContext): Promise<VerificationResult> {
    const view = { at: Number.POSITIVE_INFINITY };
    const timestampAuthorities = await this.trustedTimestampAuthorities();
    const result = await verify(input, { ...context, registry: this.registryFor(view), ...(timestampAuthorities.length ? { timestampAuthorities } : {}) });
    if (view.at !== Number.POSITIVE_INFINITY) this.viewAt.set(result, view.at);
    return result;
  }

  /**
   * The registry one verification reads: a revocation status from the index while it is current
   * (ADR 0102), else from the chain (kept reads no older than the bound). While the watcher finds
   * the chain unreachable, what the index cannot answer fails at once as unreachable (the check
   * says "could not check") instead of each request waiting on a dead node.
   */
  private registryFor(view: { at: number }): RegistryPort {
    const registry = this.registry;
    const down = () => {
      const status = this.revocations.status();
      if (status.current || status.lastPollOk !== false || (status.lastError?.kind !== 'unreachable' && status.lastError?.kind !== 'pending')) return null;
      const since = new Date(status.failingSince ?? Date.now()).toISOString();
      return new ChainError('unreachable', `the chain has not answered since ${since}; revocations last read up to block ${status.scannedTo ?? 'none'}`);
    };
    return {
      ...registry,
      isRevoked: async (hash: Hex) => {
        const known = this.revocations.lookup(hash);
        if (known !== undefined) {
          view.at = Math.min(view.at, this.revocations.syncedAt() ?? 0);
          return known;
        }
        const unreachable = down();
        if (unreachable) throw unreachable;
        const read = await registry.readRevoked(hash);
        view.at = Math.min(view.at, read.at);
        return read.revoked;
      },
      findIssuance: async (root: Hex) => {
        const known = registry.knownIssuance(root);
        if (known) return known;
        const unreachable = down();
        if (unreachable) throw unreachable;
        return registry.findIssuance(root);
      },
    };
  }

  /**
   * Whether an answer may still be served: one that says "not revoked" only while the view of the
   * chain behind it is at most the bound old. That view is the newer of its own reads and the
   * index's last complete scan (every revocation up to it would have dropped the answer).
   */
  private isFresh(result: VerificationResult): boolean {
    if (!result.checks.some((c) => c.name === 'not_revoked' && c.status === 'passed')) return true;
    const at = Math.max(this.viewAt.get(result) ?? 0, this.revocations.syncedAt() ?? 0);
    return Date.now() - at <= this.maxStalenessMs;
  }

  /**
   * By id (the `/verify/{id}` page, independent verifiers): from the cache without any read, else
   * with one database read that serves both the engine and the credential given with the answer.
   */
  async verifyById(id: string): Promise<VerificationById> {
    const input = { diplomaId: id };
    const cached = this.cache.get(input);
    if (cached) {
      const known = this.credentials.get(cached);
      if (known) {
        const { json, kind } = known;
        return {
          result: cached,
          kind,
          credentialJson: json,
          // Read back only by the callers that want the object (the page, shared links), each its own copy.
          get credential() {
            return JSON.parse(json) as CredentialDocument | null;
          },
        };
      }
    }
    let read: Promise<ReadDiploma | null> | undefined;
    const readOnce = () => (read ??= this.readDiploma(id));
    let found: ReadDiploma | null | undefined;
    // The field hashes the engine's integrity check computed for this row's credential, reused to reduce it.
    let checkedHashes: ReadonlyMap<HashedField, Uint8Array> | undefined;
    const result =
      cached ??
      (await this.cache.getOrVerify(input, () =>
        this.compute(input, {
          ...this.context,
          findCredential: async (wanted) => {
            if (wanted !== id) return this.context.findCredential!(wanted);
            found = await readOnce();
            return found?.credential ?? null;
          },
          knownUnpublished: async (wanted) => {
            if (wanted !== id) return this.context.knownUnpublished!(wanted);
            const read = await readOnce();
            return read !== null && !published(read.row);
          },
          // This very credential, read with a seal that holds, was checked in full at issuance (ADR 0154).
          attested: (credential) => found?.sealed === true && credential === found.credential,
          credentialChecked: (credential, checked) => {
            if (found && credential === found.credential) checkedHashes = checked.fieldHashes;
          },
        }),
      ));
    const diploma = await readOnce();
    const shown = diploma !== null && published(diploma.row);
    const kind = shown ? diploma.row.type : null;
    if (shown && diploma.sealed) {
      // Sealed with its credential at issuance: the public credential as it was made then (the same
      // bytes the reduction below gives), not reduced again.
      const json = diploma.row.public_credential!;
      this.credentials.set(result, { json, kind });
      return {
        result,
        kind,
        credentialJson: json,
        get credential() {
          return JSON.parse(json) as CredentialDocument | null;
        },
      };
    }
    // Reduced once per read of the diploma, then kept with its answer (a few hashes, off the cached path).
    const credential = shown ? reducedCredential(diploma.credential, checkedHashes) : null;
    const credentialJson = JSON.stringify(credential);
    this.credentials.set(result, { json: credentialJson, kind });
    return { result, credential, kind, credentialJson };
  }

  /** Whether an answer for this input is in the cache (answering it costs no database or chain read). */
  isCached(input: VerificationInput): boolean {
    return this.cache.get(input) !== undefined;
  }

  /** Whether `result` is still the cached answer for this input (not invalidated, not expired). */
  isCurrent(input: VerificationInput, result: VerificationResult): boolean {
    return this.cache.get(input) === result;
  }

  /**
   * Starts following the contract's revocations: the set of revoked hashes is read from the
   * registry's events since its deployment, then kept by polling them; each change clears the
   * answers and chain reads of its hash. Returns a function that stops it.
   */
  watchRevocations(options: { onError?: (error: unknown) => void } = {}): () => void {
    this.watchErrors = options.onError;
    this.watchingSince ??= Date.now();
    this.revocations.start();
    const gauges = () => this.chainView();
    trackChain(gauges);
    return () => {
      this.watchingSince = null;
      this.revocations.stop();
      untrackChain(gauges);
    };
  }

  /** Whether the set of revoked hashes is current, how far it has read, how many it holds. */
  revocationStatus(): RevocationIndexStatus {
    return this.revocations.status();
  }

  /** The chain as this process sees it (readiness, metrics): no read, from the watcher's last poll. */
  chainView(): ChainView {
    const status = this.revocations.status();
    const now = Date.now();
    const lag = status.syncedAt === null ? null : Math.max(0, now - status.syncedAt);
    // Never filled: stale once the watcher has been trying for longer than the bound.
    const stale = lag !== null ? lag > this.maxStalenessMs : this.watchingSince !== null && now - this.watchingSince > this.maxStalenessMs;
    return {
      reachable: status.lastPollOk,
      lastBlock: status.head,
      indexedBlock: status.scannedTo,
      indexLagSeconds: lag === null ? null : Math.round(lag / 100) / 10,
      stale,
      maxStalenessSeconds: this.maxStalenessMs / 1000,
    };
  }

  /**
   * A revocation made here or reported by another process (before its event is polled): earlier
   * answers are dropped, and the hash's status is read from the chain until the events show it.
   */
  invalidate(hash: string): void {
    this.revocations.suspect(hash);
    this.forget(hash);
  }

  /** Answers and chain reads that depend on this hash are dropped. */
  private forget(hash: string): void {
    this.registry.invalidate(hash);
    this.cache.invalidate(hash);
  }
}

/**
 * The public credential of a stored one (ADR 0134). A stored credential that cannot be reduced (not
 * our format) is given as nothing rather than whole: its answer already says it is not authentic.
 */
function reducedCredential(stored: unknown, known?: ReadonlyMap<HashedField, Uint8Array>): CredentialDocument | null {
  try {
    return publicCredential(stored as CredentialDocument, known);
  } catch {
    return null;
  }
}

/** A translation of a key without parameters (the route memoises them per language). */
export type Translate = (key: string) => string;

/** The answer as the API gives it: each check with its translated title and message. */
export function presentResult(result: VerificationResult, t: Translate, extra: { explorerTxUrl: string | null }) {
  return {
    verdict: result.verdict,
    verdict_label: t(`verification:verdict.${result.verdict}`),
    source: result.source,
    checks: result.checks.map((c) => {
      const details = c.details ?? null;
      const tx = details && typeof details.txHash === 'string' ? details.txHash : null;
      return {
        name: c.name,
        status: c.status,
        code: c.code,
        title: t(`verification:check.${c.name}`),
        message: t(`verification:code.${c.code}`),
        details,
        ...(c.name === 'anchored' && tx && extra.explorerTxUrl ? { link: extra.explorerTxUrl.replace('{tx}', tx) } : {}),
      };
    }),
    diploma: result.diploma ?? null,
  };
}
