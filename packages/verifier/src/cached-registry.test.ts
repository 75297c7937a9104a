import { describe, expect, it } from 'vitest';
import { createVerificationCache } from './cache.ts';
import { cachedRegistry } from './cached-registry.ts';
import type { Hex, RegistryPort, VerificationResult } from './types.ts';

const A = `0x${'a'.repeat(64)}` as Hex;
const ROOT = `0x${'b'.repeat(64)}` as Hex;

/** A chain whose answers the test sets, counting reads; `gate` holds reads until released. */
function fakeChain() {
  const revoked = new Set<string>();
  const issued = new Set<string>();
  const reads = { isRevoked: 0, findIssuance: 0 };
  let gate: Promise<void> | null = null;
  let failing = false;
  const port: RegistryPort = {
    chainId: 1,
    address: `0x${'1'.repeat(40)}`,
    isIssued: async (root) => issued.has(root),
    async isRevoked(hash) {
      reads.isRevoked++;
      const answer = revoked.has(hash);
      await gate;
      if (failing) throw Object.assign(new Error('down'), { kind: 'unreachable' });
      return answer;
    },
    async findIssuance(root) {
      reads.findIssuance++;
      await gate;
      if (failing) throw Object.assign(new Error('down'), { kind: 'unreachable' });
      return issued.has(root) ? { txHash: '0x01', blockNumber: 1, timestamp: 1 } : null;
    },
  };
  return {
    port,
    revoked,
    issued,
    reads,
    hold() {
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      return () => {
        gate = null;
        release();
      };
    },
    fail(value: boolean) {
      failing = value;
    },
  };
}

describe('cachedRegistry', () => {
  it('reads a hash once, shares a read in flight, keeps found issuances only', async () => {
    const chain = fakeChain();
    const registry = cachedRegistry(chain.port);
    const [a, b] = await Promise.all([registry.isRevoked(A), registry.isRevoked(A)]);
    expect([a, b]).toEqual([false, false]);
    expect(await registry.isRevoked(A.toUpperCase().replace('0X', '0x') as Hex)).toBe(false);
    expect(chain.reads.isRevoked).toBe(1);

    expect(await registry.findIssuance(ROOT)).toBeNull();
    expect(await registry.findIssuance(ROOT)).toBeNull();
    expect(chain.reads.findIssuance).toBe(2); // not anchored yet: asked again each time
    chain.issued.add(ROOT);
    expect(await registry.findIssuance(ROOT)).toMatchObject({ blockNumber: 1 });
    expect(await registry.findIssuance(ROOT)).toMatchObject({ blockNumber: 1 });
    expect(chain.reads.findIssuance).toBe(3);
  });

  it('forgets a hash when told (a Revoked event), also a read that was under way', async () => {
    const chain = fakeChain();
    const registry = cachedRegistry(chain.port);
    expect(await registry.isRevoked(A)).toBe(false);
    chain.revoked.add(A);
    expect(await registry.isRevoked(A)).toBe(false); // cached until the event
    registry.invalidate(A.slice(2));
    expect(await registry.isRevoked(A)).toBe(true);

    // A read answered before the revocation but finishing after its event is not kept.
    const other = `0x${'c'.repeat(64)}` as Hex;
    const release = chain.hold();
    const stale = registry.isRevoked(other);
    await Promise.resolve();
    chain.revoked.add(other);
    registry.invalidate(other);
    const fresh = registry.isRevoked(other); // a new read, not the one under way
    release();
    expect(await stale).toBe(false);
    expect(await fresh).toBe(true);
    expect(await registry.isRevoked(other)).toBe(true);
  });

  it('says when a revocation status was read, keeps it no longer than revokedTtlMs, and shows kept issuances without reading', async () => {
    const chain = fakeChain();
    let now = 1_000;
    const registry = cachedRegistry(chain.port, { ttlMs: 60_000, revokedTtlMs: 50, now: () => now });
    expect(await registry.readRevoked(A)).toEqual({ revoked: false, at: 1_000 });
    now = 1_020;
    expect(await registry.readRevoked(A)).toEqual({ revoked: false, at: 1_000 }); // kept: as old as its read
    expect(chain.reads.isRevoked).toBe(1);
    await new Promise((r) => setTimeout(r, 80)); // past revokedTtlMs (lru-cache's own clock)
    now = 2_000;
    expect(await registry.readRevoked(A)).toEqual({ revoked: false, at: 2_000 });
    expect(chain.reads.isRevoked).toBe(2);

    expect(registry.knownIssuance(ROOT)).toBeUndefined();
    chain.issued.add(ROOT);
    await registry.findIssuance(ROOT);
    expect(registry.knownIssuance(ROOT)).toMatchObject({ blockNumber: 1 });
    expect(chain.reads.findIssuance).toBe(1);
    await new Promise((r) => setTimeout(r, 80));
    expect(registry.knownIssuance(ROOT)).toMatchObject({ blockNumber: 1 }); // issuances keep ttlMs
  });

  it('never keeps a failed read', async () => {
    const chain = fakeChain();
    const registry = cachedRegistry(chain.port);
    chain.fail(true);
    await expect(registry.isRevoked(A)).rejects.toThrow('down');
    chain.fail(false);
    expect(await registry.isRevoked(A)).toBe(false);
    expect(chain.reads.isRevoked).toBe(2);
  });
});

describe('answers cache and invalidation races', () => {
  const answer = (verdict: VerificationResult['verdict']): VerificationResult => ({
    verdict,
    checks: [],
    source: 'link',
    hashes: { targetHash: 'a'.repeat(64), merkleRoot: 'b'.repeat(64) },
  });

  it('does not keep an answer computed while an invalidation came, nor what `keep` refuses', async () => {
    const cache = createVerificationCache({ keep: (r) => r.verdict !== 'unpublished' });
    let release!: () => void;
    const computing = cache.getOrVerify({ diplomaId: 'x'.repeat(22) }, async () => {
      await new Promise<void>((r) => (release = r));
      return answer('authentic');
    });
    await Promise.resolve();
    cache.invalidate('a'.repeat(64));
    release();
    expect((await computing).verdict).toBe('authentic');
    expect(cache.get({ diplomaId: 'x'.repeat(22) })).toBeUndefined();

    await cache.getOrVerify({ diplomaId: 'y'.repeat(22) }, async () => answer('unpublished'));
    expect(cache.get({ diplomaId: 'y'.repeat(22) })).toBeUndefined();
    await cache.getOrVerify({ diplomaId: 'z'.repeat(22) }, async () => answer('authentic'));
    expect(cache.get({ diplomaId: 'z'.repeat(22) })?.verdict).toBe('authentic');
  });
});
