import { describe, expect, it } from 'vitest';
import { TEST_ISSUER, TEST_ONLY_PRIVATE_JWK, TEST_RECORDS } from '../scripts/test-data.ts';
import { hideFields, NON_PUBLIC_FIELDS, signBatch, verifyDocument, wrapBatch } from './document.ts';
import { documentSchema, wellFormedDocument } from './document-shape.ts';
import { createSoftwareSigner } from './keys.ts';
import { formatSerial } from './serial.ts';

// The fast check of a document's structure may only ever accept what the schema accepts, and then
// give what the schema gives (same values, same key order); anything else goes to the schema.
const RECORDS_V2 = TEST_RECORDS.map((record, index) => ({ ...record, serial: formatSerial('DE', 2025, 4200 + index) }));
const unsigned = wrapBatch(RECORDS_V2, { issuer: TEST_ISSUER });
const signed = await signBatch(unsigned, createSoftwareSigner(TEST_ONLY_PRIVATE_JWK));
const v1 = wrapBatch(TEST_RECORDS, { issuer: TEST_ISSUER }).documents[0]!;
const genuine = [signed.documents[0]!, unsigned.documents[1]!, hideFields(signed.documents[2]!, NON_PUBLIC_FIELDS), hideFields(v1, ['gender'])];
const json = <T>(value: T): T => JSON.parse(JSON.stringify(value));

const hex64 = 'ab'.repeat(32);
/** Values put in place of each value of a document (and added under a new key of each object). */
const oddValues: unknown[] = [
  undefined,
  null,
  0,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 53,
  '',
  'x',
  'AB'.repeat(32),
  `${hex64}0`,
  hex64,
  'ab'.repeat(16),
  `0x${'ab'.repeat(20)}`,
  `0x${'AB'.repeat(20)}`,
  'MerkleProof',
  'ES256',
  'a+b/',
  'sceau-credential/1',
  'sceau-credential/3',
  [],
  [hex64],
  Array.from({ length: 23 }, () => hex64),
  // An array with a hole.
  Object.assign(new Array(3), { 0: hex64, 2: hex64 }),
  {},
  Object.create(null),
  new Date(0),
  new String('x'),
  { alg: 'ES256', kid: 'abc', value: 'def' },
  { alg: 'ES256', kid: 'abc', value: 'def', extra: 1 },
];

/** Every copy of `doc` with one value replaced or one key added or removed, at any depth. */
type Node = Record<string | number, unknown>;
const copyOf = (doc: unknown): Node => json(doc) as Node;

function* variants(doc: unknown): Generator<unknown> {
  const paths: (string | number)[][] = [];
  const walk = (value: unknown, path: (string | number)[]) => {
    paths.push(path);
    if (value && typeof value === 'object') for (const [key, child] of Object.entries(value)) walk(child, [...path, Array.isArray(value) ? Number(key) : key]);
  };
  walk(doc, []);
  const at = (root: unknown, path: (string | number)[]) => path.reduce((v, k) => v[k] as Node, root as Node);
  for (const path of paths) {
    for (const odd of oddValues) {
      const copy = copyOf(doc);
      if (path.length === 0) {
        yield odd;
        continue;
      }
      at(copy, path.slice(0, -1))[path.at(-1)!] = odd;
      yield copy;
    }
    const parent = copyOf(doc);
    const target = path.length ? at(parent, path) : parent;
    if (target && typeof target === 'object' && !Array.isArray(target)) {
      for (const key of ['extra', '__proto__', 'serial', 'issuer.name', 'issuerSignature', 'constructor']) {
        const copy = copyOf(doc);
        const object = path.length ? at(copy, path) : copy;
        Object.defineProperty(object, key, { value: 'ab'.repeat(16), enumerable: true, configurable: true, writable: true });
        yield copy;
      }
      for (const key of Object.keys(target)) {
        const copy = copyOf(doc);
        delete (path.length ? at(copy, path) : copy)[key];
        yield copy;
      }
      const withSymbol = copyOf(doc);
      Object.defineProperty(path.length ? at(withSymbol, path) : withSymbol, Symbol('s'), { value: 1, enumerable: true });
      yield withSymbol;
      const hidden = copyOf(doc);
      const hiddenObject = path.length ? at(hidden, path) : hidden;
      const first = Object.keys(hiddenObject)[0];
      if (first) Object.defineProperty(hiddenObject, first, { enumerable: false });
      yield hidden;
      const bare = copyOf(doc);
      if (path.length) Object.setPrototypeOf(at(bare, path), null);
      else Object.setPrototypeOf(bare, null);
      yield bare;
    }
  }
}

describe('wellFormedDocument (the schema without zod)', () => {
  it('accepts the genuine documents, as the schema does, with the schema’s result key for key', () => {
    for (const doc of genuine) {
      const fast = wellFormedDocument(json(doc));
      const parsed = documentSchema.safeParse(json(doc));
      expect(parsed.success).toBe(true);
      expect(fast).not.toBeNull();
      expect(fast).toStrictEqual(parsed.data);
      expect(JSON.stringify(fast)).toBe(JSON.stringify(parsed.data));
      expect(verifyDocument(json(doc))).toMatchObject({ integrity: 'ok' });
    }
  });

  it('never accepts what the schema refuses, and gives the schema’s result for what it accepts (thousands of altered documents)', () => {
    let accepted = 0;
    let refused = 0;
    for (const doc of genuine) {
      for (const variant of variants(doc)) {
        const fast = wellFormedDocument(variant);
        const parsed = documentSchema.safeParse(variant);
        if (fast === null) {
          refused++;
          continue;
        }
        accepted++;
        expect(parsed.success, JSON.stringify(variant)).toBe(true);
        expect(fast).toStrictEqual(parsed.data);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(parsed.data));
      }
    }
    // Both sides exercised: altered documents the schema accepts (their hashes then fail) and ones it refuses.
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(1000);
  });

  it('the copy is the document’s own: changing the input afterwards changes nothing in it', () => {
    const input = json(genuine[0]!);
    const fast = wellFormedDocument(input)!;
    input.record.last_name = 'Autre';
    input.signature.proof.push(hex64);
    input.issuer.registry.chain_id = 1;
    expect(fast.record.last_name).toBe(genuine[0]!.record.last_name);
    expect(fast.signature.proof).toEqual(genuine[0]!.signature.proof);
    expect(fast.issuer.registry.chain_id).toBe(genuine[0]!.issuer.registry.chain_id);
  });
});
