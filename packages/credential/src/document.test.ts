import { describe, expect, it } from 'vitest';
import { TEST_ISSUER, TEST_ONLY_PRIVATE_JWK, TEST_RECORDS } from '../scripts/test-data.ts';
import {
  attestedDocument,
  hideFields,
  NON_PUBLIC_FIELDS,
  publicCredential,
  signBatch,
  verifyDocument,
  verifyIssuerSignature,
  wrapBatch,
  type CredentialDocument,
} from './document.ts';
import { createSoftwareSigner, generateEs256Jwk, toPublicJwk } from './keys.ts';
import { PUBLIC_FIELDS, RECORD_FIELDS, RECORD_FIELDS_V1 } from './record.ts';
import { formatSerial } from './serial.ts';

// Version 2 records carry the printed serial; TEST_RECORDS are the version 1 vectors' records.
const RECORDS_V2 = TEST_RECORDS.map((record, index) => ({ ...record, serial: formatSerial('DE', 2025, 4200 + index) }));
const batch = wrapBatch(RECORDS_V2, { issuer: TEST_ISSUER });
const doc = batch.documents[1]!;
const clone = (d: CredentialDocument): CredentialDocument => JSON.parse(JSON.stringify(d));
const flipHex = (h: string) => (h[0] === '0' ? '1' : '0') + h.slice(1);

describe('credential document', () => {
  it('every document of a batch verifies, as an object and as JSON text, to the batch root', () => {
    for (const d of batch.documents) {
      const result = verifyDocument(JSON.stringify(d));
      expect(result).toMatchObject({ integrity: 'ok', merkleRoot: batch.merkleRoot, targetHash: d.signature.targetHash });
    }
    expect(verifyDocument(doc)).toMatchObject({ diplomaId: doc.record.diploma_id, hiddenFields: [] });
  });

  it('salts are fresh per field and per document', () => {
    const again = wrapBatch(RECORDS_V2, { issuer: TEST_ISSUER });
    expect(again.merkleRoot).not.toBe(batch.merkleRoot);
    expect(new Set(Object.values(doc.salts)).size).toBe(26);
  });

  it('a changed value of any field is caught', () => {
    for (const field of RECORD_FIELDS) {
      const d = clone(doc);
      const v = d.record[field];
      (d.record as Record<string, unknown>)[field] = typeof v === 'number' ? (v === 100 ? 99 : v + 1) : field === 'issuer' ? v : `${v}x`;
      if (field === 'issuer') continue; // checked below, with the issuer block
      expect(verifyDocument(d), field).toMatchObject({ integrity: 'failed', reason: 'target-hash' });
    }
    const moved = clone(doc);
    moved.record.issuer = 'faux-ministere.cd';
    moved.issuer.id = 'faux-ministere.cd';
    expect(verifyDocument(moved)).toMatchObject({ integrity: 'failed', reason: 'target-hash' });
    const decomposed = clone(doc);
    decomposed.record.first_name = decomposed.record.first_name!.normalize('NFD');
    expect(verifyDocument(decomposed)).toMatchObject({ integrity: 'failed', reason: 'target-hash' });
  });

  it('a changed issuer block (name, keys URL, chain, contract) is caught', () => {
    const edits: Array<(d: CredentialDocument) => void> = [
      (d) => (d.issuer.name += ' '),
      (d) => (d.issuer.jwks_url = 'https://evil.example/jwks.json'),
      (d) => (d.issuer.registry.chain_id = 1),
      (d) => (d.issuer.registry.contract = '0x' + '1'.repeat(40)),
    ];
    for (const edit of edits) {
      const d = clone(doc);
      edit(d);
      expect(verifyDocument(d)).toMatchObject({ integrity: 'failed', reason: 'target-hash' });
    }
  });

  it('a changed salt, targetHash, proof element or root is caught', () => {
    for (const field of Object.keys(doc.salts) as Array<keyof typeof doc.salts>) {
      const d = clone(doc);
      d.salts[field] = flipHex(d.salts[field]!);
      expect(verifyDocument(d)).toMatchObject({ integrity: 'failed', reason: 'target-hash' });
    }
    const t = clone(doc);
    t.signature.targetHash = flipHex(t.signature.targetHash);
    expect(verifyDocument(t)).toMatchObject({ integrity: 'failed', reason: 'target-hash' });
    expect(doc.signature.proof.length).toBeGreaterThan(0);
    for (let k = 0; k < doc.signature.proof.length; k++) {
      const d = clone(doc);
      d.signature.proof[k] = flipHex(d.signature.proof[k]!);
      expect(verifyDocument(d)).toMatchObject({ integrity: 'failed', reason: 'merkle-proof' });
    }
    const r = clone(doc);
    r.signature.merkleRoot = flipHex(r.signature.merkleRoot);
    expect(verifyDocument(r)).toMatchObject({ integrity: 'failed', reason: 'merkle-proof' });
    const other = clone(doc);
    other.signature.proof = batch.documents[0]!.signature.proof;
    expect(verifyDocument(other)).toMatchObject({ integrity: 'failed', reason: 'merkle-proof' });
  });

  it('hidden fields keep the targetHash; a changed hidden hash is caught', () => {
    const hidden = hideFields(doc, ['birth_date', 'birth_place', 'percentage', 'middle_name']);
    expect(hidden.record.birth_date).toBeUndefined();
    expect(hidden.salts.birth_date).toBeUndefined();
    expect(hidden.obfuscated).toHaveLength(4);
    expect(verifyDocument(hidden)).toMatchObject({
      integrity: 'ok',
      targetHash: doc.signature.targetHash,
      hiddenFields: ['middle_name', 'birth_date', 'birth_place', 'percentage'],
    });
    expect(verifyDocument(hideFields(hidden, ['gender']))).toMatchObject({ integrity: 'ok' });
    const bad = clone(hidden);
    bad.obfuscated[0] = flipHex(bad.obfuscated[0]!);
    expect(verifyDocument(bad)).toMatchObject({ integrity: 'failed', reason: 'target-hash' });
    expect(() => hideFields(doc, ['diploma_id'])).toThrow('may not be hidden');
    expect(() => hideFields(doc, ['issuer'])).toThrow('may not be hidden');
  });

  it("the public credential discloses PUBLIC_FIELDS only, without the others' values or salts, and still verifies", () => {
    const signed = clone(doc);
    const shown = publicCredential(signed);
    expect(Object.keys(shown.record).sort()).toEqual([...PUBLIC_FIELDS].sort());
    expect(NON_PUBLIC_FIELDS).toEqual(expect.arrayContaining(['candidate_code', 'birth_place', 'gender', 'educ_province', 'educ_province_code']));
    for (const field of NON_PUBLIC_FIELDS) {
      expect(shown.record[field], field).toBeUndefined();
      expect(shown.salts[field], field).toBeUndefined();
      expect(JSON.stringify(shown), field).not.toContain(doc.salts[field]!);
    }
    expect(JSON.stringify(shown)).not.toContain(doc.record.candidate_code!);
    expect(shown.obfuscated).toHaveLength(NON_PUBLIC_FIELDS.length);
    expect(shown.signature).toEqual(doc.signature);
    expect(verifyDocument(shown)).toMatchObject({ integrity: 'ok', targetHash: doc.signature.targetHash, merkleRoot: batch.merkleRoot, hiddenFields: [...NON_PUBLIC_FIELDS] });
    // The original is left whole (the holder's copy), and reducing twice changes nothing.
    expect(signed).toEqual(doc);
    expect(publicCredential(shown)).toEqual(shown);
  });

  it('the public credential made with the field hashes of the integrity check is the same, and takes them instead of hashing again', () => {
    const checked = verifyDocument(clone(doc));
    if (checked.integrity !== 'ok') throw new Error('does not verify');
    expect(checked.fieldHashes.size).toBe(26);
    expect(JSON.stringify(publicCredential(clone(doc), checked.fieldHashes))).toBe(JSON.stringify(publicCredential(clone(doc))));
    // A hash given is what goes into `obfuscated` (so the caller must give this document's own).
    const given = new Map(checked.fieldHashes);
    given.set('gender', new Uint8Array(32).fill(0xee));
    expect(publicCredential(clone(doc), given).obfuscated).toContain('ee'.repeat(32));
  });

  it('malformed input gives a clear failure, never an exception', () => {
    const withoutSalt = clone(doc);
    delete withoutSalt.salts.gender;
    const unknownField = clone(doc) as unknown as { record: Record<string, unknown> };
    unknownField.record.nationality = 'congolaise';
    const extraTop = { ...clone(doc), comment: 'hi' };
    const hiddenWithoutHash = clone(doc);
    delete hiddenWithoutHash.record.gender;
    delete hiddenWithoutHash.salts.gender;
    const wrongType = clone(doc) as unknown as { record: Record<string, unknown> };
    wrongType.record.session_year = '2025';
    const upperHex = clone(doc);
    upperHex.signature.targetHash = upperHex.signature.targetHash.toUpperCase();
    const idHidden = hideFields(doc, []);
    delete idHidden.record.diploma_id;
    const cases: Array<[unknown, string]> = [
      [null, 'document'],
      [undefined, 'document'],
      [42, 'document'],
      ['{not json', 'not JSON'],
      ['[]', 'document'],
      [{}, 'version'],
      [{ ...clone(doc), version: 'sceau-credential/3' }, 'version'],
      [withoutSalt, 'salts'],
      [unknownField, 'not a field'],
      [extraTop, ''],
      [hiddenWithoutHash, 'obfuscated'],
      [wrongType, 'session_year'],
      [upperHex, 'signature.targetHash'],
      [idHidden, 'diploma_id'],
      [{ ...clone(doc), signature: { ...doc.signature, proof: Array(65).fill('0'.repeat(64)) } }, 'proof'],
    ];
    for (const [input, message] of cases) {
      const result = verifyDocument(input);
      expect(result, message).toMatchObject({ integrity: 'failed', reason: 'malformed' });
      if (result.integrity === 'failed') expect(result.error).toContain(message);
    }
  });

  it('a record with a serial makes a version 2 document; one without, a version 1 document that still verifies', () => {
    expect(doc.version).toBe('sceau-credential/2');
    expect(doc.record.serial).toBe(formatSerial('DE', 2025, 4201));
    const old = wrapBatch(TEST_RECORDS, { issuer: TEST_ISSUER });
    const first = old.documents[0]!;
    expect(first.version).toBe('sceau-credential/1');
    expect(Object.keys(first.salts)).toHaveLength(25);
    expect(verifyDocument(first)).toMatchObject({ integrity: 'ok', merkleRoot: old.merkleRoot, hiddenFields: [] });
    expect(verifyDocument(hideFields(first, ['gender']))).toMatchObject({ integrity: 'ok', hiddenFields: ['gender'] });
    expect(RECORD_FIELDS_V1).toEqual(RECORD_FIELDS.filter((field) => field !== 'serial'));
  });

  it('the serial is signed: changed, added to a version 1 document, or a version changed, it is caught', () => {
    const changed = clone(doc);
    changed.record.serial = formatSerial('DE', 2025, 4202);
    expect(verifyDocument(changed)).toMatchObject({ integrity: 'failed', reason: 'target-hash' });
    const old = clone(wrapBatch(TEST_RECORDS, { issuer: TEST_ISSUER }).documents[0]!);
    const added = clone(old);
    added.record.serial = formatSerial('DE', 2025, 1);
    added.salts.serial = '0'.repeat(32);
    expect(verifyDocument(added)).toMatchObject({ integrity: 'failed', reason: 'malformed', error: expect.stringContaining('not a field of sceau-credential/1') });
    // A version 2 document passed off as version 1 (its serial hidden) or the reverse.
    const downgraded = hideFields(clone(doc), ['serial']);
    downgraded.version = 'sceau-credential/1';
    expect(verifyDocument(downgraded)).toMatchObject({ integrity: 'failed', reason: 'malformed' });
    const upgraded = { ...clone(old), version: 'sceau-credential/2' as const };
    expect(verifyDocument(upgraded)).toMatchObject({ integrity: 'failed', reason: 'malformed' });
    // A holder may hide it like any field but the id and the issuer.
    expect(verifyDocument(hideFields(clone(doc), ['serial']))).toMatchObject({ integrity: 'ok', hiddenFields: ['serial'] });
    expect(() => wrapBatch([{ ...TEST_RECORDS[0]!, serial: 'DE-2025-0004200-0' }], { issuer: TEST_ISSUER })).toThrow(/serial/);
  });

  it('wrapBatch refuses bad records, a foreign issuer and repeated ids', () => {
    expect(() => wrapBatch([], { issuer: TEST_ISSUER })).toThrow('no records');
    expect(() => wrapBatch([{ ...TEST_RECORDS[0]!, candidate_code: '12' }], { issuer: TEST_ISSUER })).toThrow('candidate_code');
    expect(() => wrapBatch([{ ...TEST_RECORDS[0]!, issuer: 'other.cd' }], { issuer: TEST_ISSUER })).toThrow('issuer');
    expect(() => wrapBatch([TEST_RECORDS[0]!, TEST_RECORDS[0]!], { issuer: TEST_ISSUER })).toThrow('repeated');
  });

  it('the issuer signature over the root verifies, and names a foreign key or a forgery', async () => {
    const signed = await signBatch(batch, createSoftwareSigner(TEST_ONLY_PRIVATE_JWK));
    const sig = signed.documents[2]!.signature.issuerSignature;
    const jwks = { keys: [toPublicJwk(TEST_ONLY_PRIVATE_JWK)] };
    expect(verifyDocument(signed.documents[2])).toMatchObject({ integrity: 'ok', issuerSignature: sig });
    expect(verifyIssuerSignature(batch.merkleRoot, sig, jwks)).toBe('valid');
    expect(verifyIssuerSignature(flipHex(batch.merkleRoot), sig, jwks)).toBe('bad-signature');
    expect(verifyIssuerSignature(batch.merkleRoot, sig, { keys: [toPublicJwk(generateEs256Jwk())] })).toBe('unknown-key');
    expect(verifyIssuerSignature(batch.merkleRoot, { ...sig!, value: 'AAAA' }, jwks)).toBe('bad-signature');
    expect(verifyIssuerSignature(batch.merkleRoot, undefined, jwks)).toBe('absent');
  });
});

describe('attestedDocument (ADR 0154: a document its caller vouches for)', () => {
  it('gives what verifyDocument gives for an intact document, without the field hashes', () => {
    for (const doc of [batch.documents[0]!, publicCredential(batch.documents[1]!)]) {
      const full = verifyDocument(doc);
      const attested = attestedDocument(doc);
      expect(full.integrity).toBe('ok');
      const { fieldHashes, ...rest } = full as Extract<typeof full, { integrity: 'ok' }>;
      expect(fieldHashes.size).toBeGreaterThan(0);
      expect(attested).toEqual({ ...rest, fieldHashes: new Map() });
    }
  });

  it('takes the stated targetHash and root without hashing: a changed value is not seen (what the seal guards)', () => {
    const doc = structuredClone(batch.documents[0]!);
    doc.record.last_name = 'Autre';
    expect(verifyDocument(doc)).toMatchObject({ integrity: 'failed', reason: 'target-hash' });
    expect(attestedDocument(doc)).toMatchObject({ integrity: 'ok', targetHash: doc.signature.targetHash, merkleRoot: doc.signature.merkleRoot });
  });

  it('refuses what verifyDocument refuses as malformed, in the same words', () => {
    const base = batch.documents[0]!;
    const broken: unknown[] = [
      'not json',
      { ...base, version: 'sceau-credential/9' },
      { ...base, obfuscated: ['00'.repeat(32)] },
      { ...base, salts: { ...base.salts, last_name: 'AB'.repeat(16) } },
      { ...base, record: { ...base.record, unknown_field: 'x' } },
      { ...base, signature: { ...base.signature, targetHash: 'zz' } },
    ];
    for (const doc of broken) {
      const full = verifyDocument(doc);
      expect(full).toMatchObject({ integrity: 'failed', reason: 'malformed' });
      expect(attestedDocument(doc)).toEqual(full);
    }
  });
});
