import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { u32be } from './bytes.ts';
import { buildMerkleTree, computeMerkleRoot, hashLeaf, hashPair, verifyMerkleProof } from './merkle.ts';

const leaves = (n: number) => Array.from({ length: n }, (_, i) => sha256(u32be(i)));

describe('Merkle tree', () => {
  it('every leaf of trees of 1 to 33 leaves proves membership; its proof fails for any other leaf', () => {
    for (let n = 1; n <= 33; n++) {
      const ls = leaves(n);
      const tree = buildMerkleTree(ls);
      for (let i = 0; i < n; i++) {
        const proof = tree.proof(i);
        expect(proof.length).toBeLessThanOrEqual(Math.ceil(Math.log2(n)));
        expect(verifyMerkleProof(proof, ls[i]!, tree.root)).toBe(true);
        if (n > 1) expect(verifyMerkleProof(proof, ls[(i + 1) % n]!, tree.root)).toBe(false);
      }
    }
  });

  it('a one-leaf tree has the domain-separated leaf as root and an empty proof', () => {
    const [leaf] = leaves(1);
    const tree = buildMerkleTree([leaf!]);
    expect(tree.root).toEqual(hashLeaf(leaf!));
    expect(tree.proof(0)).toEqual([]);
  });

  it('a changed proof element, leaf or root is refused', () => {
    const ls = leaves(10);
    const tree = buildMerkleTree(ls);
    const proof = tree.proof(3);
    for (let k = 0; k < proof.length; k++) {
      const bad = proof.map((p) => p.slice());
      bad[k]![0]! ^= 1;
      expect(verifyMerkleProof(bad, ls[3]!, tree.root)).toBe(false);
    }
    const leaf = ls[3]!.slice();
    leaf[31]! ^= 0x80;
    expect(verifyMerkleProof(proof, leaf, tree.root)).toBe(false);
    const root = tree.root.slice();
    root[0]! ^= 1;
    expect(verifyMerkleProof(proof, ls[3]!, root)).toBe(false);
    expect(verifyMerkleProof(proof.slice(1), ls[3]!, tree.root)).toBe(false);
    expect(verifyMerkleProof([...proof, proof[0]!], ls[3]!, tree.root)).toBe(false);
  });

  it('an inner node presented as a leaf does not verify (second-preimage trick)', () => {
    const ls = leaves(4);
    const tree = buildMerkleTree(ls);
    const inner = hashPair(hashLeaf(ls[0]!), hashLeaf(ls[1]!));
    const other = hashPair(hashLeaf(ls[2]!), hashLeaf(ls[3]!));
    // Without the 0x00 leaf prefix, [other] would lead from `inner` to the root.
    expect(hashPair(inner, other)).toEqual(tree.root);
    expect(verifyMerkleProof([other], inner, tree.root)).toBe(false);
  });

  it('malformed proofs and indexes are refused, not crashes', () => {
    const tree = buildMerkleTree(leaves(5));
    expect(() => tree.proof(5)).toThrow(RangeError);
    expect(() => tree.proof(-1)).toThrow(RangeError);
    expect(() => buildMerkleTree([])).toThrow();
    expect(verifyMerkleProof([new Uint8Array(31)], leaves(1)[0]!, tree.root)).toBe(false);
    expect(verifyMerkleProof([], new Uint8Array(3), tree.root)).toBe(false);
    expect(() => computeMerkleRoot(leaves(1)[0]!, Array(65).fill(new Uint8Array(32)))).toThrow('too long');
  });

  // A session-sized batch: correct at 100,000 leaves (its speed is measured by bench:issue, not here).
  it('builds 100,000 leaves and proves the last one', { timeout: 120_000 }, () => {
    const ls = leaves(100_000);
    const tree = buildMerkleTree(ls);
    expect(tree.proof(0)).toHaveLength(17);
    expect(verifyMerkleProof(tree.proof(0), ls[0]!, tree.root)).toBe(true);
    expect(verifyMerkleProof(tree.proof(99_999), ls[99_999]!, tree.root)).toBe(true);
    expect(verifyMerkleProof(tree.proof(0), ls[1]!, tree.root)).toBe(false);
  });
});
