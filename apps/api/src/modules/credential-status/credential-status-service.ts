import { buildStatusListCredential, encodeBitstring, encodeTokenStatusList, secureCredential, STATUS_LIST_SIZE } from '@sceau/vc';
import { and, between, eq, isNotNull, max, or } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { diplomas, generations } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { MinistryKeys } from '../keys/ministry-keys.ts';
import { x5cOf } from '../sd-jwt-vc/sd-jwt-vc-service.ts';
import { MinistryDid } from '../vc/ministry-did.ts';

/**
 * The ministry's revocation status lists (ADR 0144). Every diploma has a status index (migration
 * 0017: from a sequence, never reused); list `n` holds indexes n·131,072 to (n+1)·131,072 − 1.
 * Each list is published twice, the same bits:
 * - the W3C `BitstringStatusListCredential` (VC 2.0 / Open Badges credentials), secured like a
 *   diploma with a Data Integrity proof `ecdsa-rdfc-2019` by the ministry's active key;
 * - the IETF OAuth Token Status List (`statuslist+jwt`, 1 bit, ZLIB), ES256 by the same key, for
 *   the SD-JWT VC.
 * A bit is 1 when the diploma or its batch is revoked: the platform's revocation record, the
 * decision the chain transaction then writes (revocation/), so the lists say it at once, before
 * the transaction is mined.
 *
 * Freshness: a list is read from the database when asked, at most every `recheckMs` per process;
 * it is signed again only when its bits change or its signature is older than `resignMs`. HTTP
 * caches keep it `max-age` 60 s, with an ETag (the bits' digest and signing time).
 */

export interface StatusEntry {
  /** The diploma's position in its list (`statusListIndex`, the token's `idx`). */
  index: number;
  /** Which list. */
  list: number;
  /** The W3C BitstringStatusListCredential's address. */
  bitstringUrl: string;
  /** The IETF status list token's address. */
  tokenStatusUrl: string;
}

interface SignedList {
  bitsDigest: string;
  signedAt: number;
  checkedAt: number;
  credential: Record<string, unknown>;
  token: string;
  /** The bits' digest and the signing time (each representation quotes it with its own prefix). */
  etag: string;
}

/** How long a signed list stays valid (W3C `validUntil`, token `exp`): a verifier never trusts an old copy longer. */
export const STATUS_LIST_VALIDITY_SECONDS = 24 * 3600;
/** What HTTP caches may keep (and the token's `ttl`). */
export const STATUS_LIST_MAX_AGE_SECONDS = 60;

export class CredentialStatusService {
  private readonly base: string;
  private readonly did: MinistryDid | null;
  private readonly lists = new Map<number, Promise<SignedList>>();

  constructor(
    private readonly db: Db,
    publicUrl: string,
    private readonly keys: MinistryKeys | null,
    private readonly options: { recheckMs?: number; resignMs?: number; now?: () => Date } = {},
  ) {
    this.base = publicUrl.replace(/\/$/, '');
    this.did = keys ? new MinistryDid(publicUrl, keys) : null;
  }

  /** Where list `list` is published. */
  bitstringUrl(list: number): string {
    return `${this.base}/credentials/status/${list}`;
  }

  tokenStatusUrl(list: number): string {
    return `${this.base}/credentials/status/${list}/token`;
  }

  /** The status entry of a diploma from its status index. */
  entryOf(statusIndex: number): StatusEntry {
    const list = Math.floor(statusIndex / STATUS_LIST_SIZE);
    return { index: statusIndex % STATUS_LIST_SIZE, list, bitstringUrl: this.bitstringUrl(list), tokenStatusUrl: this.tokenStatusUrl(list) };
  }

  /** A diploma's status entry; `not_found` for an unknown diploma. */
  async entryFor(diplomaId: string): Promise<StatusEntry> {
    const [row] = await this.db.select({ statusIndex: diplomas.statusIndex }).from(diplomas).where(eq(diplomas.id, diplomaId));
    if (!row) throw new AppError('not_found');
    return this.entryOf(row.statusIndex);
  }

  /** The status indexes of list `list` whose diploma or batch is revoked, ascending (positions within the list). */
  async revokedIndexes(list: number): Promise<number[]> {
    const first = list * STATUS_LIST_SIZE;
    const rows = await this.db
      .select({ statusIndex: diplomas.statusIndex })
      .from(diplomas)
      .innerJoin(generations, eq(generations.id, diplomas.generationId))
      .where(and(between(diplomas.statusIndex, first, first + STATUS_LIST_SIZE - 1), or(isNotNull(diplomas.revokedAt), isNotNull(generations.revokedAt))))
      .orderBy(diplomas.statusIndex);
    return rows.map((r) => r.statusIndex - first);
  }

  /** Forgets the signed lists: the next request reads the database again (a revocation was recorded). */
  invalidate(): void {
    this.lists.clear();
  }

  /** The W3C BitstringStatusListCredential of list `list`, with its ETag. */
  async bitstringCredential(list: number): Promise<{ credential: Record<string, unknown>; etag: string }> {
    const signed = await this.signedList(list);
    return { credential: signed.credential, etag: `"vc-${signed.etag}"` };
  }

  /** The IETF status list token (`statuslist+jwt`) of list `list`, with its ETag. */
  async tokenStatusList(list: number): Promise<{ token: string; etag: string }> {
    const signed = await this.signedList(list);
    return { token: signed.token, etag: `"jwt-${signed.etag}"` };
  }

  /** A list exists from 0 to the one of the highest index given so far (an empty list is still published). */
  async hasList(list: number): Promise<boolean> {
    if (!Number.isSafeInteger(list) || list < 0) return false;
    if (list === 0) return true;
    const [row] = await this.db.select({ last: max(diplomas.statusIndex) }).from(diplomas);
    return row?.last != null && list <= Math.floor(row.last / STATUS_LIST_SIZE);
  }

  private now(): Date {
    return this.options.now ? this.options.now() : new Date();
  }

  private signedList(list: number): Promise<SignedList> {
    const recheckMs = this.options.recheckMs ?? 5_000;
    const resignMs = this.options.resignMs ?? 3_600_000;
    const previous = this.lists.get(list);
    const next = (async () => {
      const before = previous ? await previous.catch(() => null) : null;
      const now = this.now().getTime();
      if (before && now - before.checkedAt < recheckMs) return before;
      const revoked = await this.revokedIndexes(list);
      const bitsDigest = createHash('sha256').update(revoked.join(',')).digest('base64url');
      if (before && before.bitsDigest === bitsDigest && now - before.signedAt < resignMs) return { ...before, checkedAt: now };
      return this.sign(list, revoked, bitsDigest, new Date(now));
    })();
    this.lists.set(list, next);
    next.catch(() => {
      if (this.lists.get(list) === next) this.lists.delete(list);
    });
    return next;
  }

  private async sign(list: number, revoked: number[], bitsDigest: string, at: Date): Promise<SignedList> {
    if (!this.keys || !this.did) throw new AppError('service_unavailable');
    const validUntil = new Date(at.getTime() + STATUS_LIST_VALIDITY_SECONDS * 1000);
    const unsigned = buildStatusListCredential({ id: this.bitstringUrl(list), issuer: this.did.did, validFrom: at, validUntil, encodedList: encodeBitstring(revoked) });
    const credential = await secureCredential(unsigned, { signer: this.did.signer(), documentLoader: this.did.documentLoader(), date: at });
    const iat = Math.floor(at.getTime() / 1000);
    // x5c as on the SD-JWT VC (ADR 0145): a verifier that trusts only the ministry's root certificate
    // checks the status list as it checked the credential (@sd-jwt/sd-jwt-vc uses one verifier for both).
    const x5c = x5cOf(this.keys.active.certificateChainDer);
    const header = { alg: 'ES256', typ: 'statuslist+jwt', kid: this.keys.active.kid, ...(x5c.length > 0 ? { x5c } : {}) };
    const payload = {
      iss: this.base,
      sub: this.tokenStatusUrl(list),
      iat,
      exp: iat + STATUS_LIST_VALIDITY_SECONDS,
      ttl: STATUS_LIST_MAX_AGE_SECONDS,
      status_list: encodeTokenStatusList(revoked),
    };
    const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const input = `${segment(header)}.${segment(payload)}`;
    const signature = await this.keys.active.es256.sign(new TextEncoder().encode(input));
    const token = `${input}.${Buffer.from(signature).toString('base64url')}`;
    return { bitsDigest, signedAt: at.getTime(), checkedAt: at.getTime(), credential, token, etag: `${bitsDigest.slice(0, 16)}-${iat}` };
  }
}
