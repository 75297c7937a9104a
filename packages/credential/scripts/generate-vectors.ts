/**
 * Writes test-vectors/vectors.json from the fixed inputs in test-data.ts. Everything in it is
 * deterministic except the ECDSA signatures (fresh each run): `npm run vectors -w packages/credential`.
 * Regenerate only when the format changes on purpose; src/vectors.test.ts fails on any drift.
 * The records have no serial: these are version 1 vectors, which every later reader still accepts.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bytesToHex } from '../src/bytes.ts';
import { coseProtectedHeader, coseSigStructure } from '../src/cose.ts';
import { canonicalFieldValue, hashedFieldsOf, hideFields, signBatch, wrapBatch } from '../src/document.ts';
import { hashField } from '../src/hashing.ts';
import { createSoftwareSigner, shortKeyId, toPublicJwk } from '../src/keys.ts';
import { hashLeaf } from '../src/merkle.ts';
import { encodeQrClaims, encodeQrPayload, qrFieldsFromRecord } from '../src/qr.ts';
import { diplomaRecordSchema } from '../src/record.ts';
import { TEST_HIDDEN_FIELDS, TEST_ISSUER, TEST_ONLY_PRIVATE_JWK, TEST_RECORDS, testSalt } from './test-data.ts';

const signer = createSoftwareSigner(TEST_ONLY_PRIVATE_JWK);
const unsigned = wrapBatch(TEST_RECORDS, { issuer: TEST_ISSUER, salt: testSalt });
const batch = await signBatch(unsigned, signer);

const records = TEST_RECORDS.map((input, index) => {
  const doc = batch.documents[index]!;
  const canonical = diplomaRecordSchema.parse(input);
  const fieldHashes = Object.fromEntries(
    hashedFieldsOf(doc.version).map((field) => {
      const value = field.startsWith('issuer.') ? issuerValue(field) : canonical[field as keyof typeof canonical];
      const encoded = canonicalFieldValue(field, value);
      return [field, { value: encoded, hash: bytesToHex(hashField(testSalt(index, field), field, encoded)) }];
    }),
  );
  return { input, canonical, salts: doc.salts, fields: fieldHashes, target_hash: doc.signature.targetHash, proof: doc.signature.proof, document: doc };
});

function issuerValue(field: string): unknown {
  const r = TEST_ISSUER.registry;
  return { 'issuer.name': TEST_ISSUER.name, 'issuer.jwks_url': TEST_ISSUER.jwks_url, 'issuer.registry.chain_id': r.chain_id, 'issuer.registry.contract': r.contract }[field];
}

const first = batch.documents[0]!;
const qrFields = qrFieldsFromRecord(diplomaRecordSchema.parse(TEST_RECORDS[0]), first.signature.targetHash);
const claims = encodeQrClaims(qrFields);
const protectedHeader = coseProtectedHeader(shortKeyId(TEST_ONLY_PRIVATE_JWK));
const qr = await encodeQrPayload(qrFields, signer);
const signature = qr.cose.slice(qr.cose.length - 64);

const vectors = {
  description:
    'Golden test vectors of @sceau/credential (format sceau-credential/1, QR prefix SC1:). Algorithms: VECTORS.md. ' +
    'ECDSA signatures are randomised: check them by verification, everything else byte for byte.',
  test_key: {
    WARNING: 'TEST ONLY. This private key is published. Never trust it outside tests.',
    private_jwk: TEST_ONLY_PRIVATE_JWK,
    public_jwks: { keys: [toPublicJwk(TEST_ONLY_PRIVATE_JWK)] },
    short_kid_hex: bytesToHex(shortKeyId(TEST_ONLY_PRIVATE_JWK)),
  },
  issuer: TEST_ISSUER,
  salt_rule: 'salt(index, field) = first 16 bytes of SHA-256(UTF-8 "sceau test salt <index> <field>")',
  records,
  merkle: {
    leaves: records.map((r) => r.target_hash),
    leaf_nodes: records.map((r) => bytesToHex(hashLeaf(Uint8Array.from(Buffer.from(r.target_hash, 'hex'))))),
    root: batch.merkleRoot,
  },
  issuer_signature: first.signature.issuerSignature,
  selective_disclosure: {
    record_index: 0,
    hidden: TEST_HIDDEN_FIELDS,
    document: hideFields(first, TEST_HIDDEN_FIELDS),
  },
  qr: {
    record_index: 0,
    fields: qrFields,
    claims_cbor_hex: bytesToHex(claims),
    protected_header_hex: bytesToHex(protectedHeader),
    sig_structure_hex: bytesToHex(coseSigStructure(protectedHeader, claims)),
    signature_hex: bytesToHex(signature),
    cose_sign1_hex: bytesToHex(qr.cose),
    compressed: qr.bytes !== qr.cose,
    bytes_hex: bytesToHex(qr.bytes),
    bytes_length: qr.bytes.length,
    text: qr.text,
  },
};

const out = fileURLToPath(new URL('../test-vectors/vectors.json', import.meta.url));
writeFileSync(out, JSON.stringify(vectors, null, 2) + '\n');
console.log(`wrote ${out}: ${records.length} records, root ${batch.merkleRoot}, QR ${qr.bytes.length} bytes`);
