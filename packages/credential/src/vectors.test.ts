/**
 * Golden vectors: recomputes everything in test-vectors/vectors.json with this package, and
 * the hashes a second time straight from the rules in VECTORS.md with node:crypto, so that
 * neither the code nor the document can drift.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import vectors from '../test-vectors/vectors.json' with { type: 'json' };
import { TEST_HIDDEN_FIELDS, TEST_ISSUER, TEST_RECORDS, testSalt } from '../scripts/test-data.ts';
import { bytesToHex, hexToBytesStrict } from './bytes.ts';
import { coseProtectedHeader, coseSigStructure } from './cose.ts';
import { hideFields, verifyDocument, verifyIssuerSignature, wrapBatch, type CredentialDocument } from './document.ts';
import { shortKeyId, type Es256Signer } from './keys.ts';
import { encodeQrClaims, encodeQrPayload, verifyQrPayload, type QrFields } from './qr.ts';

const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const jwks = vectors.test_key.public_jwks as never;

describe('golden vectors', () => {
  it('wrapping the fixed records with the fixed salts gives the stored documents and root', () => {
    const batch = wrapBatch(TEST_RECORDS, { issuer: TEST_ISSUER, salt: testSalt });
    expect(batch.merkleRoot).toBe(vectors.merkle.root);
    batch.documents.forEach((doc, i) => {
      const stored = vectors.records[i]!.document as CredentialDocument;
      const { issuerSignature: _ignored, ...storedSignature } = stored.signature;
      expect({ ...doc, signature: doc.signature }).toEqual({ ...stored, signature: storedSignature });
      expect(doc.record).toEqual(vectors.records[i]!.canonical);
    });
  });

  it('field hashes, targetHashes and the tree follow VECTORS.md byte for byte', () => {
    const leafNodes: Buffer[] = [];
    for (const [i, rec] of vectors.records.entries()) {
      const hashes: Buffer[] = [];
      for (const [field, { value, hash }] of Object.entries(rec.fields)) {
        const salt = Buffer.from(testSalt(i, field));
        expect(bytesToHex(salt)).toBe((rec.salts as Record<string, string>)[field]);
        const name = Buffer.from(field, 'utf8');
        const val = Buffer.from(value, 'utf8');
        const h = sha(Buffer.from('sceau:field:v1\0'), salt, u32(name.length), name, u32(val.length), val);
        expect(h.toString('hex')).toBe(hash);
        hashes.push(h);
      }
      expect(hashes).toHaveLength(25);
      hashes.sort(Buffer.compare);
      const target = sha(Buffer.from('sceau:target:v1\0'), ...hashes);
      expect(target.toString('hex')).toBe(rec.target_hash);
      const leaf = sha(Buffer.from([0]), target);
      expect(leaf.toString('hex')).toBe(vectors.merkle.leaf_nodes[i]);
      leafNodes.push(leaf);
    }
    // Recompute the root level by level: sorted pairs, odd node promoted.
    let level = leafNodes;
    while (level.length > 1) {
      const next: Buffer[] = [];
      for (let j = 0; j < level.length; j += 2) {
        const a = level[j]!;
        const b = level[j + 1];
        if (!b) next.push(a);
        else next.push(sha(Buffer.from([1]), ...[a, b].sort(Buffer.compare)));
      }
      level = next;
    }
    expect(level[0]!.toString('hex')).toBe(vectors.merkle.root);
  });

  it('every stored document, and the one with hidden fields, verifies to the stored root', () => {
    for (const rec of vectors.records) {
      const result = verifyDocument(rec.document);
      expect(result).toMatchObject({ integrity: 'ok', merkleRoot: vectors.merkle.root, targetHash: rec.target_hash });
    }
    const disclosed = vectors.selective_disclosure.document as CredentialDocument;
    expect(hideFields(vectors.records[0]!.document as CredentialDocument, TEST_HIDDEN_FIELDS)).toEqual(disclosed);
    expect(verifyDocument(disclosed)).toMatchObject({ integrity: 'ok', hiddenFields: [...TEST_HIDDEN_FIELDS] });
  });

  it('the stored issuer signature verifies against the test JWKS', () => {
    expect(verifyIssuerSignature(vectors.merkle.root, vectors.issuer_signature as never, jwks)).toBe('valid');
  });

  it('the QR payload re-encodes byte for byte (with the stored signature) and verifies', async () => {
    const q = vectors.qr;
    const fields = q.fields as QrFields;
    const claims = encodeQrClaims(fields);
    expect(bytesToHex(claims)).toBe(q.claims_cbor_hex);
    const protectedHeader = coseProtectedHeader(hexToBytesStrict(vectors.test_key.short_kid_hex));
    expect(bytesToHex(protectedHeader)).toBe(q.protected_header_hex);
    expect(bytesToHex(coseSigStructure(protectedHeader, claims))).toBe(q.sig_structure_hex);
    expect(bytesToHex(shortKeyId(vectors.test_key.private_jwk as never))).toBe(vectors.test_key.short_kid_hex);

    const replay: Es256Signer = {
      kid: hexToBytesStrict(vectors.test_key.short_kid_hex),
      sign: async (data) => {
        expect(bytesToHex(data)).toBe(q.sig_structure_hex);
        return hexToBytesStrict(q.signature_hex);
      },
    };
    const encoded = await encodeQrPayload(fields, replay);
    expect(bytesToHex(encoded.cose)).toBe(q.cose_sign1_hex);
    expect(bytesToHex(encoded.bytes)).toBe(q.bytes_hex);
    expect(encoded.text).toBe(q.text);

    expect(verifyQrPayload(q.text, jwks)).toEqual({ status: 'valid', kid: 'nBc9dq2LODQ', fields });
  });
});
