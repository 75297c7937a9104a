import { describe, expect, it } from 'vitest';
import { createRevocationIndex, withRevocationIndex, type RevocationLogEntry, type RevocationLogSource } from './revocation-index.ts';
import type { Hex, RegistryPort } from './types.ts';

const h = (c: string) => `0x${c.repeat(64)}` as Hex;

/** A chain of blocks whose Revoked events the test writes; reads are counted and may fail. */
function fakeLog() {
  const events: RevocationLogEntry[] = [];
  const ranges: Array<[number, number]> = [];
  const state = { head: 0, failing: false, duringRead: null as null | (() => void) };
  const source: RevocationLogSource = {
    async head() {
      if (state.failing) throw Object.assign(new Error('down'), { kind: 'unreachable' });
      return state.head;
    },
    async revocations(from, to) {
      if (state.failing) throw Object.assign(new Error('down'), { kind: 'unreachable' });
      ranges.push([from, to]);
      const found = events.filter((e) => e.blockNumber >= from && e.blockNumber <= to).map((e) => ({ ...e }));
      const hook = state.duringRead;
      state.duringRead = null;
      hook?.();
      return found;
    },
  };
  return {
    source,
    state,
    ranges,
    revoke(hash: string, blockNumber: number) {
      events.push({ hash, blockNumber, blockHash: `0x${blockNumber.toString(16).padStart(64, '0')}` });
      state.head = Math.max(state.head, blockNumber);
    },
    drop(hash: string) {
      events.splice(
        events.findIndex((e) => e.hash === hash),
        1,
      );
    },
  };
}

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe('revocation index', () => {
  it('answers nothing before its first scan, then fills itself from the events since the deployment block, in ranges', async () => {
    const chain = fakeLog();
    chain.state.head = 10;
    chain.revoke(h('a'), 12);
    chain.revoke(h('b'), 27);
    chain.revoke(h('c'), 3); // before the deployment: not the registry's
    chain.state.head = 30;
    const changes: string[] = [];
    const index = createRevocationIndex(chain.source, { fromBlock: 10, maxBlockRange: 8, onChange: (x) => changes.push(x) });
    expect(index.lookup(h('a'))).toBeUndefined();
    await index.poll();
    expect(chain.ranges).toEqual([
      [10, 17],
      [18, 25],
      [26, 30],
    ]);
    expect(index.lookup(h('a'))).toBe(true);
    expect(index.lookup(h('B'))).toBe(true); // any case, with or without 0x
    expect(index.lookup('b'.repeat(64))).toBe(true);
    expect(index.lookup(h('c'))).toBe(false);
    expect(index.lookup(h('d'))).toBe(false);
    expect(changes.sort()).toEqual(['a'.repeat(64), 'b'.repeat(64)]);
    expect(index.status()).toMatchObject({ current: true, scannedTo: 30, size: 2 });
  });

  it('misses no event mined between its first scan and the next poll (no gap between filling and following)', async () => {
    const chain = fakeLog();
    chain.state.head = 100;
    chain.revoke(h('a'), 40);
    const index = createRevocationIndex(chain.source, { maxBlockRange: 50, reorgDepth: 0 });
    // While the first scan reads its first range, two revocations are mined: one in a block of the
    // range still to come, one after the head the scan started from.
    chain.state.duringRead = () => {
      chain.revoke(h('b'), 90);
      chain.revoke(h('c'), 101);
    };
    await index.poll();
    expect(index.lookup(h('a'))).toBe(true);
    expect(index.lookup(h('b'))).toBe(true);
    expect(index.lookup(h('c'))).toBe(false); // not read yet: beyond the head of that scan
    await index.poll();
    expect(index.lookup(h('c'))).toBe(true);
    expect(chain.ranges.at(-1)).toEqual([101, 101]);
    // No new block: the next poll reads no events at all.
    const reads = chain.ranges.length;
    await index.poll();
    expect(chain.ranges.length).toBe(reads);
  });

  it('answers nothing once its last complete scan is older than the allowed lag (chain unreachable): the chain is read instead', async () => {
    const chain = fakeLog();
    const time = clock();
    chain.revoke(h('a'), 5);
    const index = createRevocationIndex(chain.source, { maxLagMs: 3_000, now: time.now });
    await index.poll();
    const chainReads: string[] = [];
    let chainDown = false;
    const port: RegistryPort = {
      chainId: 1,
      address: `0x${'1'.repeat(40)}`,
      isIssued: async () => true,
      findIssuance: async () => null,
      async isRevoked(hash) {
        chainReads.push(hash);
        if (chainDown) throw Object.assign(new Error('down'), { kind: 'unreachable' });
        return hash === h('e');
      },
    };
    const registry = withRevocationIndex(port, index);
    expect(await registry.isRevoked(h('a'))).toBe(true);
    expect(await registry.isRevoked(h('d'))).toBe(false);
    expect(chainReads).toEqual([]);

    expect(index.status()).toMatchObject({ head: 5, lastPollOk: true, failingSince: null, lastError: null });
    expect(index.syncedAt()).toBe(index.status().syncedAt);
    expect(index.syncedAt()).not.toBeNull();
    chain.state.failing = true;
    chainDown = true;
    const failedAt = time.now();
    await expect(index.poll()).rejects.toThrow('down');
    // The failure is reported (readiness, and the API's "chain down" short cut: ADR 0137); the last head seen stays.
    expect(index.status()).toMatchObject({ head: 5, lastPollOk: false, failingSince: failedAt, lastError: { kind: 'unreachable', message: 'down' } });
    time.advance(500);
    await expect(index.poll()).rejects.toThrow('down');
    expect(index.status().failingSince).toBe(failedAt); // since the first failure
    time.advance(2_000);
    expect(await registry.isRevoked(h('d'))).toBe(false); // within the lag: still current
    time.advance(2_000);
    expect(index.status().current).toBe(false);
    expect(index.lookup(h('d'))).toBeUndefined();
    // Never "not revoked" from a stale set: the chain is asked, and its failure comes through.
    await expect(registry.isRevoked(h('d'))).rejects.toThrow('down');
    chainDown = false;
    expect(await registry.isRevoked(h('e'))).toBe(true); // revoked while the watcher was behind
    expect(chainReads).toEqual([h('d'), h('e')]);

    chain.state.failing = false;
    chain.revoke(h('e'), 9);
    await index.poll();
    expect(index.lookup(h('e'))).toBe(true);
    expect(index.status().current).toBe(true);
    expect(index.status()).toMatchObject({ head: 9, lastPollOk: true, failingSince: null, lastError: null });
  });

  it('a hash another process reports revoked is read from the chain until the events show it', async () => {
    const chain = fakeLog();
    chain.state.head = 3;
    const index = createRevocationIndex(chain.source);
    await index.poll();
    expect(index.lookup(h('a'))).toBe(false);
    index.suspect(h('a'));
    expect(index.lookup(h('a'))).toBeUndefined();
    expect(index.lookup(h('b'))).toBe(false);
    chain.revoke(h('a'), 4);
    await index.poll();
    expect(index.lookup(h('a'))).toBe(true);
    expect(index.status().suspects).toBe(0);
  });

  it('reads the newest blocks again: an event undone or moved by a reorganisation is followed', async () => {
    const chain = fakeLog();
    const changes: string[] = [];
    chain.revoke(h('a'), 20);
    chain.revoke(h('b'), 21);
    chain.state.head = 22;
    const index = createRevocationIndex(chain.source, { reorgDepth: 5, onChange: (x) => changes.push(x.slice(0, 1)) });
    await index.poll();
    expect(changes).toEqual(['a', 'b']);
    // Blocks 21 and up replaced: b's revocation is gone from them, c's lands in block 21.
    chain.drop(h('b'));
    chain.revoke(h('c'), 21);
    chain.state.head = 23;
    await index.poll();
    expect(chain.ranges.at(-1)).toEqual([18, 23]);
    expect(index.lookup(h('b'))).toBe(false);
    expect(index.lookup(h('c'))).toBe(true);
    expect(index.lookup(h('a'))).toBe(true);
    expect(changes).toEqual(['a', 'b', 'c', 'b']);

    // A shorter chain within the depth: events above its head are dropped.
    chain.drop(h('c'));
    chain.state.head = 20;
    await index.poll();
    expect(index.lookup(h('c'))).toBe(false);
    expect(index.lookup(h('a'))).toBe(true);

    // Far shorter (a local chain that lost its state): everything is read again from the start.
    let resets = 0;
    const again = createRevocationIndex(chain.source, { reorgDepth: 2, onReset: () => resets++ });
    chain.state.head = 40;
    await again.poll();
    expect(again.lookup(h('a'))).toBe(true);
    chain.drop(h('a'));
    chain.state.head = 10;
    await again.poll();
    expect(resets).toBe(1);
    expect(again.lookup(h('a'))).toBe(false);
    expect(again.status().scannedTo).toBe(10);
  });

  it('polls by itself once started, and stops', async () => {
    const chain = fakeLog();
    chain.state.head = 1;
    const index = createRevocationIndex(chain.source, { pollingIntervalMs: 10 });
    index.start();
    chain.revoke(h('a'), 2);
    for (let i = 0; i < 100 && index.lookup(h('a')) !== true; i++) await new Promise((r) => setTimeout(r, 10));
    expect(index.lookup(h('a'))).toBe(true);
    index.stop();
    const reads = chain.ranges.length;
    chain.revoke(h('b'), 3);
    await new Promise((r) => setTimeout(r, 60));
    expect(chain.ranges.length).toBe(reads);
  });
});
