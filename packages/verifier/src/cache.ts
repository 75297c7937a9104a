// A small cache of verification answers for the API (results day: many look-ups of the same ids).
// Entries are indexed by the hashes they depend on, so a Revoked event (watchRevocations) or a
// newly anchored root clears exactly the answers it changes.
import { createHash, randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { VerificationInput, VerificationResult } from './types.ts';

export interface VerificationCacheOptions {
  /** How long an answer is kept (default 10 minutes). */
  ttlMs?: number;
  /** How many answers are kept (default 10,000). */
  max?: number;
  /** Whether a conclusive answer may be kept (default: all but 'incomplete', which never is). */
  keep?: (result: VerificationResult) => boolean;
  /**
   * Whether a kept answer may still be served (default: always, until it expires). One that may not
   * is dropped and counts as absent: the API's answers whose view of the chain is too old (ADR 0137).
   */
  fresh?: (result: VerificationResult) => boolean;
}

export interface VerificationCache {
  /** The kept answer, if any and still fresh. */
  get(input: VerificationInput): VerificationResult | undefined;
  /** Keeps a conclusive answer; 'incomplete' answers (a check could not be made) are never kept. */
  set(input: VerificationInput, result: VerificationResult): void;
  /** The cached answer, or `compute()`'s, kept if conclusive. */
  getOrVerify(input: VerificationInput, compute: () => Promise<VerificationResult>): Promise<VerificationResult>;
  /** Forgets every answer that depends on this targetHash or Merkle root (0x-prefixed or not). */
  invalidate(hash: string): number;
  clear(): void;
  readonly size: number;
}

const normalise = (hash: string) => hash.replace(/^0x/i, '').toLowerCase();

/** The cache key of an input: the diploma id, the QR text, or a SHA-256 of the file. */
export function verificationCacheKey(input: VerificationInput): string {
  const digest = (data: string | Uint8Array) => createHash('sha256').update(data).digest('base64url');
  if ('pdf' in input) return `pdf:${digest(input.pdf)}`;
  if ('credential' in input) {
    if (typeof input.credential === 'string') return `json:${digest(input.credential)}`;
    try {
      return `json:${digest(JSON.stringify(input.credential) ?? '')}`;
    } catch {
      // Too deeply nested to serialise (JSON.stringify recurses): a key of its own, never shared
      // with another input; the engine refuses such a document as malformed.
      return `json-unkeyed:${randomUUID()}`;
    }
  }
  if ('qr' in input) return `qr:${input.qr.length > 200 ? digest(input.qr) : input.qr}`;
  return `id:${input.diplomaId}`;
}

export function createVerificationCache(options: VerificationCacheOptions = {}): VerificationCache {
  const byHash = new Map<string, Set<string>>();
  let invalidations = 0;
  const unindex = (key: string, result: VerificationResult) => {
    for (const hash of hashesOf(result)) {
      const keys = byHash.get(hash);
      keys?.delete(key);
      if (keys?.size === 0) byHash.delete(hash);
    }
  };
  const lru = new LRUCache<string, VerificationResult>({
    max: options.max ?? 10_000,
    ttl: options.ttlMs ?? 10 * 60_000,
    dispose: (value, key) => unindex(key, value),
  });

  const keep = (key: string, result: VerificationResult) => {
    if (result.verdict === 'incomplete' || options.keep?.(result) === false) return;
    lru.set(key, result);
    for (const hash of hashesOf(result)) {
      if (!byHash.has(hash)) byHash.set(hash, new Set());
      byHash.get(hash)!.add(key);
    }
  };

  const fresh = options.fresh;
  const lookup = (key: string) => {
    const cached = lru.get(key);
    if (cached === undefined || !fresh || fresh(cached)) return cached;
    lru.delete(key);
    return undefined;
  };

  const cache: VerificationCache = {
    get: (input) => lookup(verificationCacheKey(input)),
    set: (input, result) => keep(verificationCacheKey(input), result),
    async getOrVerify(input, compute) {
      // The key once (a document's is a SHA-256 of its bytes).
      const key = verificationCacheKey(input);
      const cached = lookup(key);
      if (cached) return cached;
      const started = invalidations;
      const result = await compute();
      // An invalidation while this answer was computed may concern it (its chain reads came first): not kept.
      if (invalidations === started) keep(key, result);
      return result;
    },
    invalidate(hash) {
      invalidations++;
      const keys = [...(byHash.get(normalise(hash)) ?? [])];
      for (const key of keys) lru.delete(key);
      return keys.length;
    },
    clear: () => {
      invalidations++;
      lru.clear();
    },
    get size() {
      return lru.size;
    },
  };
  return cache;
}

function hashesOf(result: VerificationResult): string[] {
  const { targetHash, merkleRoot } = result.hashes ?? {};
  return [targetHash, merkleRoot].filter((h): h is string => typeof h === 'string').map(normalise);
}
