import { describe, expect, it } from 'vitest';
import { createVerificationCache } from './cache.ts';
import type { VerificationResult } from './types.ts';

const answer = (verdict: VerificationResult['verdict'], targetHash: string, merkleRoot: string): VerificationResult => ({
  verdict,
  checks: [],
  source: 'link',
  hashes: { targetHash, merkleRoot },
});

describe('verification cache', () => {
  it('keeps conclusive answers, drops those of a revoked hash or root, never keeps incomplete ones', async () => {
    const cache = createVerificationCache({ ttlMs: 60_000, max: 100 });
    const a = { diplomaId: 'AAAAAAAAAAAAAAAAAAAAAA' };
    const b = { diplomaId: 'BBBBBBBBBBBBBBBBBBBBBB' };
    let computed = 0;
    const compute = (result: VerificationResult) => async () => (computed++, result);
    await cache.getOrVerify(a, compute(answer('authentic', 'aa'.repeat(32), 'cc'.repeat(32))));
    await cache.getOrVerify(a, compute(answer('authentic', 'aa'.repeat(32), 'cc'.repeat(32))));
    await cache.getOrVerify(b, compute(answer('authentic', 'bb'.repeat(32), 'cc'.repeat(32))));
    expect(computed).toBe(2);

    // A Revoked event carries the hash 0x-prefixed.
    expect(cache.invalidate(`0x${'AA'.repeat(32)}`)).toBe(1);
    expect(cache.get(a)).toBeUndefined();
    expect(cache.get(b)?.verdict).toBe('authentic');
    expect(cache.invalidate('cc'.repeat(32))).toBe(1); // the batch root
    expect(cache.size).toBe(0);

    await cache.getOrVerify(a, compute(answer('incomplete', 'aa'.repeat(32), 'cc'.repeat(32))));
    expect(cache.size).toBe(0);
  });

  it('expires answers and keys files by their content', async () => {
    const cache = createVerificationCache({ ttlMs: 20, max: 2 });
    cache.set({ pdf: new Uint8Array([1, 2, 3]) }, answer('unknown', 'dd'.repeat(32), 'ee'.repeat(32)));
    expect(cache.get({ pdf: new Uint8Array([1, 2, 3]) })?.verdict).toBe('unknown');
    expect(cache.get({ pdf: new Uint8Array([1, 2, 4]) })).toBeUndefined();
    await new Promise((r) => setTimeout(r, 40));
    expect(cache.get({ pdf: new Uint8Array([1, 2, 3]) })).toBeUndefined();
  });

  it('drops a kept answer that is no longer fresh: it counts as absent and is computed again', async () => {
    let fresh = true;
    const cache = createVerificationCache({ fresh: () => fresh });
    const a = { diplomaId: 'AAAAAAAAAAAAAAAAAAAAAA' };
    let computed = 0;
    const compute = async () => {
      computed++;
      return answer('authentic', 'aa'.repeat(32), 'cc'.repeat(32));
    };
    const first = await cache.getOrVerify(a, compute);
    expect(await cache.getOrVerify(a, compute)).toBe(first);
    expect(computed).toBe(1);
    fresh = false;
    expect(cache.get(a)).toBeUndefined();
    expect(cache.size).toBe(0);
    await cache.getOrVerify(a, compute);
    expect(computed).toBe(2);
    fresh = true;
    expect(cache.get(a)).toBeDefined();
  });
});
