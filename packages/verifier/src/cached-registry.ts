// What the registry said, remembered for the API (ADR 0100): a batch root is looked up once for all
// its diplomas, not once per diploma, and a results-day load does not read the chain per request.
// Kept on the same terms as the answers (cache.ts): cleared for a hash by the contract's Revoked
// events (`invalidate`), and for a bounded time; a failed read is never remembered.
import { LRUCache } from 'lru-cache';
import type { Hex, RegistryPort } from './types.ts';

export interface CachedRegistryOptions {
  /** How long a read is kept (default 10 minutes, as the answers). */
  ttlMs?: number;
  /** How many hashes are kept (default 200,000: ~40 MB). */
  max?: number;
  /**
   * How long a revocation status is kept (default `ttlMs`). The API keeps it no longer than the
   * age it lets an answer's view of the chain reach (ADR 0137): a status older is read again.
   */
  revokedTtlMs?: number;
  now?: () => number;
}

export interface CachedRegistry extends RegistryPort {
  /** `isRevoked`, with when the chain was read for it (ms since the epoch; a kept read is as old as it is). */
  readRevoked(hash: Hex): Promise<{ revoked: boolean; at: number }>;
  /** A found issuance already kept for this root, without reading the chain (undefined: none kept). */
  knownIssuance(root: Hex): NonNullable<Issuance> | undefined;
  /** Forgets what was read about this hash (0x-prefixed or not): the next read goes to the chain. */
  invalidate(hash: string): void;
  clear(): void;
}

type Issuance = Awaited<ReturnType<RegistryPort['findIssuance']>>;

const key = (hash: string) => hash.replace(/^0x/i, '').toLowerCase();

export function cachedRegistry(port: RegistryPort, options: CachedRegistryOptions = {}): CachedRegistry {
  const ttl = options.ttlMs ?? 10 * 60_000;
  const max = options.max ?? 200_000;
  const now = options.now ?? Date.now;
  const revoked = new LRUCache<string, { revoked: boolean; at: number }>({ max, ttl: options.revokedTtlMs ?? ttl });
  // Only found issuances are kept: a root not yet anchored may be anchored any moment.
  const issued = new LRUCache<string, NonNullable<Issuance>>({ max: Math.max(1_000, Math.ceil(max / 20)), ttl });
  const inFlight = new Map<string, Promise<unknown>>();
  // A read that started before an invalidation of its hash must not be remembered after it.
  const epochs = new Map<string, number>();
  let epoch = 0;
  let clearedAt = 0;

  /** One chain read per hash at a time; its answer kept only if no invalidation came meanwhile. */
  function shared<T>(kind: string, hash: string, read: () => Promise<T>, keep: (value: T) => void): Promise<T> {
    const id = `${kind}:${key(hash)}`;
    const pending = inFlight.get(id) as Promise<T> | undefined;
    if (pending) return pending;
    const started = epoch;
    const promise = read()
      .then((value) => {
        if (started >= clearedAt && (epochs.get(key(hash)) ?? -1) < started) keep(value);
        return value;
      })
      .finally(() => {
        if (inFlight.get(id) === promise) inFlight.delete(id);
      });
    inFlight.set(id, promise);
    return promise;
  }

  const readRevoked = async (hash: Hex) => {
    const known = revoked.get(key(hash));
    if (known !== undefined) return known;
    return shared(
      'revoked',
      hash,
      // The read's start: what the chain answers is at least that recent.
      async () => {
        const at = now();
        return { revoked: await port.isRevoked(hash), at };
      },
      (value) => revoked.set(key(hash), value),
    );
  };

  return {
    chainId: port.chainId,
    address: port.address,
    isIssued: (root: Hex) => port.isIssued(root),
    readRevoked,
    knownIssuance: (root: Hex) => issued.get(key(root)),
    isRevoked: async (hash: Hex) => (await readRevoked(hash)).revoked,
    async findIssuance(root: Hex) {
      const known = issued.get(key(root));
      if (known) return known;
      return shared(
        'issued',
        root,
        () => port.findIssuance(root),
        (value) => {
          if (value) issued.set(key(root), value);
        },
      );
    },
    ...(port.findRevocation ? { findRevocation: (hash: Hex) => port.findRevocation!(hash) } : {}),
    invalidate(hash: string) {
      epoch++;
      epochs.set(key(hash), epoch);
      // Bounded: the marks only matter for reads in flight, which end within a request's time.
      if (epochs.size > 10_000) for (const k of [...epochs.keys()].slice(0, 5_000)) epochs.delete(k);
      revoked.delete(key(hash));
      issued.delete(key(hash));
      // A read already under way may have been answered before the change: later callers read again.
      inFlight.delete(`revoked:${key(hash)}`);
      inFlight.delete(`issued:${key(hash)}`);
    },
    clear() {
      epoch++;
      clearedAt = epoch;
      inFlight.clear();
      revoked.clear();
      issued.clear();
    },
  };
}
