/**
 * Merkle tree over a batch's targetHashes.
 *
 * - leaf node  = SHA-256(0x00 ‖ targetHash)
 * - inner node = SHA-256(0x01 ‖ min(a, b) ‖ max(a, b))   (pair sorted bytewise)
 * - a level with an odd count passes its last node up unchanged.
 *
 * The 0x00/0x01 prefixes keep a leaf from ever being read as an inner node (the second-preimage
 * trick against plain Merkle trees); sorted pairs let a proof be a bare list of sibling hashes.
 */
import { sha256 } from '#sha256';
import { compareBytes, equalBytes } from './bytes.ts';
import { HASH_BYTES } from './hashing.ts';

const LEAF_PREFIX = 0x00;
const NODE_PREFIX = 0x01;
/** 2^64 leaves would need 64 levels; anything longer is not a proof of ours. */
export const MAX_PROOF_LENGTH = 64;

export function hashLeaf(targetHash: Uint8Array): Uint8Array {
  if (targetHash.length !== HASH_BYTES) throw new Error('leaf must be 32 bytes');
  const buf = new Uint8Array(1 + HASH_BYTES);
  buf[0] = LEAF_PREFIX;
  buf.set(targetHash, 1);
  return sha256(buf);
}

export function hashPair(a: Uint8Array, b: Uint8Array): Uint8Array {
  const buf = new Uint8Array(1 + 2 * HASH_BYTES);
  writePair(buf, a, b);
  return sha256(buf);
}

function writePair(buf: Uint8Array, a: Uint8Array, b: Uint8Array): void {
  const [lo, hi] = compareBytes(a, b) <= 0 ? [a, b] : [b, a];
  buf[0] = NODE_PREFIX;
  buf.set(lo, 1);
  buf.set(hi, 1 + HASH_BYTES);
}

export interface MerkleTree {
  readonly size: number;
  readonly root: Uint8Array;
  /** Sibling hashes from the leaf up to the root (empty for a one-leaf tree). */
  proof(index: number): Uint8Array[];
}

/** Builds the tree; levels are kept as flat byte arrays (32 bytes per node) to stay light at 100k+ leaves. */
export function buildMerkleTree(leaves: readonly Uint8Array[]): MerkleTree {
  if (leaves.length === 0) throw new Error('a Merkle tree needs at least one leaf');
  const levels: Uint8Array[] = [];
  let level = new Uint8Array(leaves.length * HASH_BYTES);
  leaves.forEach((leaf, i) => {
    level.set(hashLeaf(leaf), i * HASH_BYTES);
  });
  levels.push(level);
  const scratch = new Uint8Array(1 + 2 * HASH_BYTES);
  let count = leaves.length;
  while (count > 1) {
    const nextCount = Math.ceil(count / 2);
    const next = new Uint8Array(nextCount * HASH_BYTES);
    for (let i = 0; i + 1 < count; i += 2) {
      writePair(scratch, node(level, i), node(level, i + 1));
      next.set(sha256(scratch), (i / 2) * HASH_BYTES);
    }
    if (count % 2 === 1) next.set(node(level, count - 1), (nextCount - 1) * HASH_BYTES);
    levels.push(next);
    level = next;
    count = nextCount;
  }
  const root = node(level, 0).slice();
  const size = leaves.length;
  return {
    size,
    root,
    proof(index: number): Uint8Array[] {
      if (!Number.isInteger(index) || index < 0 || index >= size) throw new RangeError('leaf index out of range');
      const proof: Uint8Array[] = [];
      let i = index;
      for (let depth = 0; depth < levels.length - 1; depth++) {
        const lvl = levels[depth]!;
        const n = lvl.length / HASH_BYTES;
        const sibling = i ^ 1;
        if (sibling < n) proof.push(node(lvl, sibling).slice());
        i = i >> 1;
      }
      return proof;
    },
  };
}

function node(level: Uint8Array, i: number): Uint8Array {
  return level.subarray(i * HASH_BYTES, (i + 1) * HASH_BYTES);
}

/** The root a proof leads to from a leaf (a targetHash). */
export function computeMerkleRoot(leaf: Uint8Array, proof: readonly Uint8Array[]): Uint8Array {
  if (proof.length > MAX_PROOF_LENGTH) throw new Error('proof too long');
  let acc = hashLeaf(leaf);
  for (const sibling of proof) {
    if (sibling.length !== HASH_BYTES) throw new Error('proof element must be 32 bytes');
    acc = hashPair(acc, sibling);
  }
  return acc;
}

export function verifyMerkleProof(proof: readonly Uint8Array[], leaf: Uint8Array, root: Uint8Array): boolean {
  try {
    return equalBytes(computeMerkleRoot(leaf, proof), root);
  } catch {
    return false;
  }
}
