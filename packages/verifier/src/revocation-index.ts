// Every revoked hash (diploma targetHashes and batch roots) in process memory, read from the
// contract's own Revoked events (ADR 0102): a first verification no longer reads the chain for its
// revocation status. The set answers only while it is known to be current: its last complete scan
// of the chain, up to the head, started at most `maxLagMs` ago. Otherwise (not yet filled, chain
// unreachable, watcher behind) it answers nothing, and the caller reads the chain as before.
import { LRUCache } from 'lru-cache';
import type { Hex, RegistryPort } from './types.ts';

/** One Revoked event of the registry. */
export interface RevocationLogEntry {
  hash: string;
  blockNumber: number;
  blockHash: string | null;
}

/** Where the index reads the contract's Revoked events (`revocationLog()` adapts @sceau/chain). */
export interface RevocationLogSource {
  /** The chain's newest block number. */
  head(): Promise<number>;
  /** The registry's Revoked events in blocks `fromBlock`..`toBlock` (both included). */
  revocations(fromBlock: number, toBlock: number): Promise<RevocationLogEntry[]>;
}

export interface RevocationIndexOptions {
  /** The registry's deployment block (no event before it). Default 0. */
  fromBlock?: number;
  /** Time between two polls of the chain. Default 1 s. */
  pollingIntervalMs?: number;
  /** Largest block range per read (public endpoints limit eth_getLogs). Default 5,000. */
  maxBlockRange?: number;
  /** The newest blocks read again at every poll, so a reorganised block is seen. Default 32. */
  reorgDepth?: number;
  /** How old the last complete scan may be for the set to be trusted. Default max(5 s, 5 polls). */
  maxLagMs?: number;
  /** A hash added to or removed from the set (a new revocation, or one undone by a reorg). */
  onChange?: (hash: string) => void;
  /** The chain went back further than `reorgDepth` (a local chain that lost its state): the set is read again. */
  onReset?: () => void;
  /** A poll failed (chain unreachable...); polling goes on. */
  onError?: (error: unknown) => void;
  /** How long a hash reported revoked by another process is read from the chain. Default 10 minutes. */
  suspectTtlMs?: number;
  now?: () => number;
}

export interface RevocationIndexStatus {
  /** Whether `lookup` answers now. */
  current: boolean;
  /** The last block scanned, null before the first complete scan. */
  scannedTo: number | null;
  /** When the last complete scan started (ms since the epoch), null before it. */
  syncedAt: number | null;
  /** Revoked hashes known. */
  size: number;
  /** Hashes another process reported revoked, not seen in the events yet (read from the chain). */
  suspects: number;
  /** The chain's newest block at the last poll that reached it, null before one did. */
  head: number | null;
  /** Whether the last poll read the chain (null before the first poll ended). */
  lastPollOk: boolean | null;
  /** Since when polls fail (ms since the epoch), null while they succeed. */
  failingSince: number | null;
  /** The last poll's failure, classified (`kind` 'unreachable' when the node does not answer), null after a success. */
  lastError: { kind: string | null; message: string } | null;
}

export interface RevocationIndex {
  /** Starts polling (the first poll reads the events since `fromBlock`, in ranges). */
  start(): void;
  stop(): void;
  /** One poll now (tests; `start` polls by itself). Rejects if the chain could not be read. */
  poll(): Promise<void>;
  /**
   * true: revoked; false: not revoked as of the last scan; undefined: the set cannot say (not
   * current, or the hash was reported revoked elsewhere and the events do not show it yet).
   */
  lookup(hash: string): boolean | undefined;
  /** A revocation reported by another way than the events (another process): ask the chain until the events show it. */
  suspect(hash: string): void;
  status(): RevocationIndexStatus;
  /** `status().syncedAt` without building the status (asked for every cached answer, ADR 0137). */
  syncedAt(): number | null;
}

const normalise = (hash: string) => hash.replace(/^0x/i, '').toLowerCase();

export function createRevocationIndex(source: RevocationLogSource, options: RevocationIndexOptions = {}): RevocationIndex {
  const first = Math.max(0, options.fromBlock ?? 0);
  const interval = options.pollingIntervalMs ?? 1_000;
  const maxRange = Math.max(1, options.maxBlockRange ?? 5_000);
  const depth = Math.max(0, options.reorgDepth ?? 32);
  const maxLag = options.maxLagMs ?? Math.max(5_000, 5 * interval);
  const now = options.now ?? Date.now;
  /** Revoked hash → the block of its event. */
  const revoked = new Map<string, { blockNumber: number; blockHash: string | null }>();
  const suspects = new LRUCache<string, true>({ max: 100_000, ttl: options.suspectTtlMs ?? 10 * 60_000 });
  let scannedTo: number | null = null;
  let syncedAt: number | null = null;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<void> | null = null;
  let lastHead: number | null = null;
  let lastPollOk: boolean | null = null;
  let failingSince: number | null = null;
  let lastError: RevocationIndexStatus['lastError'] = null;

  const changed = (hash: string) => options.onChange?.(hash);

  const reset = () => {
    const dropped = [...revoked.keys()];
    revoked.clear();
    scannedTo = null;
    syncedAt = null;
    for (const hash of dropped) changed(hash);
    options.onReset?.();
  };

  /** What the chain says about blocks from..to replaces what the set held for them. */
  const apply = (from: number, to: number, entries: RevocationLogEntry[]) => {
    const seen = new Set<string>();
    for (const entry of entries) {
      const hash = normalise(entry.hash);
      seen.add(hash);
      const known = revoked.get(hash);
      revoked.set(hash, { blockNumber: entry.blockNumber, blockHash: entry.blockHash });
      suspects.delete(hash);
      if (!known) changed(hash);
    }
    // Read again (the newest blocks): an event no longer there was in a block that was replaced.
    if (scannedTo !== null && from <= scannedTo) {
      for (const [hash, at] of revoked) {
        if (at.blockNumber >= from && at.blockNumber <= to && !seen.has(hash)) {
          revoked.delete(hash);
          changed(hash);
        }
      }
    }
  };

  const pollOnce = async () => {
    const started = now();
    const head = await source.head();
    lastHead = head;
    if (scannedTo !== null && head < scannedTo) {
      if (scannedTo - head > depth) reset();
      else {
        // A shorter chain: the blocks above its head are gone, and their events with them.
        for (const [hash, at] of revoked) {
          if (at.blockNumber > head) {
            revoked.delete(hash);
            changed(hash);
          }
        }
        scannedTo = head;
      }
    }
    // No new block: nothing to read (a block replaced at the same height is read again with the next one).
    let from = scannedTo === null ? first : scannedTo === head ? head + 1 : Math.max(first, scannedTo + 1 - depth);
    while (from <= head) {
      const to = Math.min(head, from + maxRange - 1);
      const entries = await source.revocations(from, to);
      apply(from, to, entries);
      scannedTo = Math.max(scannedTo ?? -1, to);
      from = to + 1;
    }
    if (scannedTo === null && head < first) scannedTo = head; // nothing deployed yet up to the head
    // Every event up to the head read at or after `started` is in the set.
    syncedAt = started;
  };

  const poll = () => {
    polling ??= pollOnce()
      .then(
        () => {
          lastPollOk = true;
          failingSince = null;
          lastError = null;
        },
        (error: unknown) => {
          lastPollOk = false;
          failingSince ??= now();
          const kind = (error as { kind?: unknown })?.kind;
          lastError = { kind: typeof kind === 'string' ? kind : null, message: error instanceof Error ? error.message : String(error) };
          throw error;
        },
      )
      .finally(() => {
        polling = null;
      });
    return polling;
  };

  const loop = async () => {
    try {
      await poll();
    } catch (error) {
      options.onError?.(error);
    }
    if (running) {
      timer = setTimeout(() => void loop(), interval);
      timer.unref?.();
    }
  };

  const current = () => scannedTo !== null && syncedAt !== null && now() - syncedAt <= maxLag;

  return {
    start() {
      if (running) return;
      running = true;
      void loop();
    },
    stop() {
      running = false;
      clearTimeout(timer);
    },
    poll,
    lookup(hash) {
      if (!current()) return undefined;
      const key = normalise(hash);
      if (revoked.has(key)) return true;
      if (suspects.has(key)) return undefined;
      return false;
    },
    suspect(hash) {
      const key = normalise(hash);
      if (!revoked.has(key)) suspects.set(key, true);
    },
    syncedAt: () => syncedAt,
    status: () => ({ current: current(), scannedTo, syncedAt, size: revoked.size, suspects: suspects.size, head: lastHead, lastPollOk, failingSince, lastError }),
  };
}

/**
 * The registry with revocations answered from the index while it is current: a hash it knows is
 * revoked, one it does not is not; when it cannot say, the chain is read (`port.isRevoked`), so a
 * stale set never answers "not revoked".
 */
export function withRevocationIndex<P extends RegistryPort>(port: P, index: Pick<RevocationIndex, 'lookup'>): P {
  return {
    ...port,
    isRevoked: async (hash: Hex) => index.lookup(hash) ?? port.isRevoked(hash),
  };
}
