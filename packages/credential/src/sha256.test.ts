import { sha256 as noble } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { bytesToHex, utf8ToBytes } from './bytes.ts';
import { sha256 as browserSha256 } from './sha256.ts';
import { sha256 as nodeSha256 } from './sha256-node.ts';
import { sha256 as resolved } from '#sha256';

describe('sha256 (#sha256: node:crypto in Node, noble in browsers)', () => {
  it('gives the known digests (FIPS 180-2 examples)', () => {
    for (const sha256 of [nodeSha256, browserSha256]) {
      expect(bytesToHex(sha256(utf8ToBytes('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
      expect(bytesToHex(sha256(new Uint8Array(0)))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    }
  });

  it('gives noble’s bytes for inputs of every length up to 300 and for a view into a larger buffer', () => {
    const data = Uint8Array.from({ length: 1000 }, (_, i) => (i * 131 + 7) & 255);
    for (let n = 0; n <= 300; n++) {
      const input = data.subarray(0, n);
      expect(nodeSha256(input)).toEqual(noble(input));
      expect(browserSha256(input)).toEqual(noble(input));
    }
    const view = data.subarray(123, 457);
    expect(nodeSha256(view)).toEqual(noble(view.slice()));
  });

  it('returns a plain Uint8Array of 32 bytes, and Node resolves the node:crypto one', () => {
    const digest = nodeSha256(utf8ToBytes('sceau'));
    expect(digest.constructor).toBe(Uint8Array);
    expect(digest.length).toBe(32);
    expect(resolved).toBe(nodeSha256);
  });
});
