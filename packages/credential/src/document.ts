/**
 * The signed credential document: the JSON a PDF embeds and a holder can upload (README.md has
 * the format). Integrity here is pure computation; chain, revocation and key checks need I/O and
 * belong to callers, which get from `verifyDocument` what they need (targetHash, merkleRoot).
 */
import { z } from 'zod';
import { bytesToHex, hexToBytesStrict, randomBytes, toBase64url, utf8ToBytes, fromBase64url } from './bytes.ts';
import { computeTargetHash, hashField, SALT_BYTES } from './hashing.ts';
import { findJwk, kidBytes, verifyEs256, type Es256Signer, type Jwks } from './keys.ts';
import { buildMerkleTree, computeMerkleRoot } from './merkle.ts';
import {
  canonicalText,
  diplomaRecordSchema,
  isPercentage,
  issuerIdSchema,
  PUBLIC_FIELDS,
  RECORD_FIELDS,
  RECORD_FIELDS_V1,
  REQUIRED_DISCLOSED_FIELDS,
  type DiplomaRecord,
  type DiplomaRecordInput,
  type RecordField,
} from './record.ts';

import {
  DOCUMENT_VERSION,
  DOCUMENT_VERSIONS,
  documentSchema,
  HASHED_FIELDS,
  ISSUER_FIELDS,
  wellFormedDocument,
  type DocumentVersion,
  type HashedField,
  type IssuerField,
} from './document-shape.ts';

export { DOCUMENT_VERSION, DOCUMENT_VERSIONS, HASHED_FIELDS, ISSUER_FIELDS, type DocumentVersion, type HashedField, type IssuerField };
const HASHED_FIELDS_V1: readonly HashedField[] = [...RECORD_FIELDS_V1, ...ISSUER_FIELDS];

/** The record fields of a document version. */
export function recordFieldsOf(version: DocumentVersion): readonly RecordField[] {
  return version === DOCUMENT_VERSION ? RECORD_FIELDS : RECORD_FIELDS_V1;
}

/** The hashed fields of a document version, in order. */
export function hashedFieldsOf(version: DocumentVersion): readonly HashedField[] {
  return version === DOCUMENT_VERSION ? HASHED_FIELDS : HASHED_FIELDS_V1;
}

/** The version a full record is issued in: 2 with a serial, 1 without. */
export function versionOfRecord(record: Pick<DiplomaRecord, 'serial'>): DocumentVersion {
  return record.serial === undefined ? 'sceau-credential/1' : DOCUMENT_VERSION;
}

export interface IssuerInfo {
  /** The ministry's DNS name, e.g. "minepst.gouv.cd"; equal to the record's `issuer`. */
  id: string;
  name: string;
  /** Where the ES256 keys are published, e.g. "https://minepst.gouv.cd/.well-known/jwks.json". */
  jwks_url: string;
  /** The DiplomaRegistry contract the batch root is anchored in. */
  registry: { chain_id: number; contract: string };
}

export const issuerInfoSchema = z.strictObject({
  id: issuerIdSchema,
  name: z.string().transform(canonicalText).pipe(z.string().min(1).max(200)),
  jwks_url: z.string().regex(/^https?:\/\/[^\s]+$/, 'jwks_url: an http(s) URL'),
  registry: z.strictObject({
    chain_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    contract: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, 'contract: 0x and 40 hex digits')
      .transform((s) => s.toLowerCase()),
  }),
});

/** ES256 signature of the batch's Merkle root by the ministry key (lets a JSON be checked offline). */
export interface IssuerSignature {
  alg: 'ES256';
  /** base64url of the key id bytes (the short key id: 8 bytes of the JWK thumbprint). */
  kid: string;
  /** base64url of r ‖ s (64 bytes) over "sceau:root:v1" 0x00 ‖ merkleRoot (32 bytes). */
  value: string;
}

export interface MerkleProofSignature {
  type: 'MerkleProof';
  targetHash: string;
  proof: string[];
  merkleRoot: string;
  issuerSignature?: IssuerSignature;
}

export type DisclosedRecord = Partial<DiplomaRecord>;

export interface CredentialDocument {
  version: DocumentVersion;
  /** Disclosed record values, canonical. */
  record: DisclosedRecord;
  issuer: IssuerInfo;
  /** Salt (16 bytes, hex) of every disclosed hashed field, keyed by field name. */
  salts: Partial<Record<HashedField, string>>;
  /** Field hashes (hex) of hidden record fields, sorted. */
  obfuscated: string[];
  signature: MerkleProofSignature;
}

export interface WrapOptions {
  issuer: IssuerInfo;
  /** Salt source, for test vectors only; default 16 random bytes per field. */
  salt?: (recordIndex: number, field: HashedField) => Uint8Array;
}

export interface WrappedBatch {
  merkleRoot: string;
  /** One per input record, same order. */
  documents: CredentialDocument[];
}

/** The string a field value is hashed as: text as is, integers and percentages in shortest decimal. */
export function canonicalFieldValue(field: HashedField, value: unknown): string {
  if (field === 'percentage') {
    if (!isPercentage(value)) throw new Error('percentage: 0 to 100, at most one decimal');
    return String(value);
  }
  if (field === 'session_year' || field === 'issuer.registry.chain_id') {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new Error(`${field}: an integer`);
    return String(value);
  }
  if (typeof value !== 'string') throw new Error(`${field}: a string`);
  return value;
}

function issuerFieldValue(issuer: IssuerInfo, field: IssuerField): unknown {
  switch (field) {
    case 'issuer.name':
      return issuer.name;
    case 'issuer.jwks_url':
      return issuer.jwks_url;
    case 'issuer.registry.chain_id':
      return issuer.registry.chain_id;
    case 'issuer.registry.contract':
      return issuer.registry.contract;
  }
}

function isIssuerField(field: string): field is IssuerField {
  return (ISSUER_FIELDS as readonly string[]).includes(field);
}

function fieldValue(doc: Pick<CredentialDocument, 'record' | 'issuer'>, field: HashedField): unknown {
  return isIssuerField(field) ? issuerFieldValue(doc.issuer, field) : doc.record[field];
}

/** A record canonicalised and salted, with its targetHash: a document still waiting for its proof. */
export interface SaltedRecord {
  record: DiplomaRecord;
  salts: Partial<Record<HashedField, string>>;
  targetHash: Uint8Array;
}

/**
 * Canonicalises and salts one record and computes its targetHash (the first half of wrapping a
 * batch: callers that stream a large batch keep only the targetHashes between the two halves).
 */
export function saltRecord(input: DiplomaRecordInput, issuerInput: IssuerInfo, salt?: (field: HashedField) => Uint8Array): SaltedRecord {
  const issuer = issuerInfoSchema.parse(issuerInput);
  const record = diplomaRecordSchema.parse(input);
  if (record.issuer !== issuer.id) throw new Error(`record ${record.diploma_id}: issuer ${record.issuer} is not ${issuer.id}`);
  const fields = hashedFieldsOf(versionOfRecord(record));
  const pool = salt ? undefined : randomBytes(SALT_BYTES * fields.length);
  const salts: Partial<Record<HashedField, string>> = {};
  const hashes = fields.map((field, i) => {
    const bytes = salt ? salt(field) : pool!.subarray(i * SALT_BYTES, (i + 1) * SALT_BYTES);
    salts[field] = bytesToHex(bytes);
    return hashField(bytes, field, canonicalFieldValue(field, fieldValue({ record, issuer }, field)));
  });
  return { record, salts, targetHash: computeTargetHash(hashes) };
}

/** The second half: a salted record and its place in the batch's tree make its document. */
export function credentialDocument(salted: SaltedRecord, issuer: IssuerInfo, proof: readonly Uint8Array[], merkleRoot: string): CredentialDocument {
  return {
    version: versionOfRecord(salted.record),
    record: salted.record,
    issuer: issuerInfoSchema.parse(issuer),
    salts: salted.salts,
    obfuscated: [],
    signature: {
      type: 'MerkleProof',
      targetHash: bytesToHex(salted.targetHash),
      proof: proof.map(bytesToHex),
      merkleRoot,
    },
  };
}

/**
 * Canonicalises and salts each record, computes targetHashes and the batch's Merkle tree, and
 * returns one document per record (with its proof) and the root to anchor. Throws on an invalid
 * record (ZodError naming the field), an issuer mismatch or a repeated diploma id.
 */
export function wrapBatch(records: readonly DiplomaRecordInput[], options: WrapOptions): WrappedBatch {
  if (records.length === 0) throw new Error('wrapBatch: no records');
  const issuer = issuerInfoSchema.parse(options.issuer);
  const ids = new Set<string>();
  const salted = records.map((input, index) => {
    const one = saltRecord(input, issuer, options.salt ? (field) => options.salt!(index, field) : undefined);
    if (ids.has(one.record.diploma_id)) throw new Error(`record ${index}: diploma_id ${one.record.diploma_id} repeated`);
    ids.add(one.record.diploma_id);
    return one;
  });
  const tree = buildMerkleTree(salted.map((s) => s.targetHash));
  const merkleRoot = bytesToHex(tree.root);
  const documents = salted.map((one, index) => credentialDocument(one, issuer, tree.proof(index), merkleRoot));
  return { merkleRoot, documents };
}

const ROOT_TAG = utf8ToBytes('sceau:root:v1\u0000');

function rootMessage(merkleRoot: string): Uint8Array {
  const root = hexToBytesStrict(merkleRoot, 32);
  const message = new Uint8Array(ROOT_TAG.length + root.length);
  message.set(ROOT_TAG);
  message.set(root, ROOT_TAG.length);
  return message;
}

export async function signMerkleRoot(merkleRoot: string, signer: Es256Signer): Promise<IssuerSignature> {
  const signature = await signer.sign(rootMessage(merkleRoot));
  if (signature.length !== 64) throw new Error('ES256 signer must return the raw 64-byte r ‖ s signature');
  return { alg: 'ES256', kid: toBase64url(kidBytes(signer.kid)), value: toBase64url(signature) };
}

/** Signs the batch root once and puts the signature in every document of the batch. */
export async function signBatch(batch: WrappedBatch, signer: Es256Signer): Promise<WrappedBatch> {
  const issuerSignature = await signMerkleRoot(batch.merkleRoot, signer);
  return {
    merkleRoot: batch.merkleRoot,
    documents: batch.documents.map((doc) => ({ ...doc, signature: { ...doc.signature, issuerSignature } })),
  };
}

export type SignatureStatus = 'valid' | 'unknown-key' | 'bad-signature' | 'absent';

/** Checks an issuer signature over a Merkle root against the ministry's JWKS. Never throws. */
export function verifyIssuerSignature(merkleRoot: string, signature: IssuerSignature | undefined, jwks: Jwks): SignatureStatus {
  if (!signature) return 'absent';
  try {
    const jwk = findJwk(jwks, fromBase64url(signature.kid));
    if (!jwk) return 'unknown-key';
    return verifyEs256(jwk, rootMessage(merkleRoot), fromBase64url(signature.value)) ? 'valid' : 'bad-signature';
  } catch {
    return 'bad-signature';
  }
}

export type DocumentVerification =
  | {
      integrity: 'ok';
      /** Recomputed from the disclosed values, their salts and the hidden fields' hashes. */
      targetHash: string;
      /** Recomputed from targetHash and the proof: the root to look up on chain. */
      merkleRoot: string;
      diplomaId: string;
      issuer: IssuerInfo;
      record: DisclosedRecord;
      hiddenFields: readonly RecordField[];
      /**
       * The hash of each disclosed field (record and issuer), as just computed: `publicCredential`
       * takes them instead of hashing the fields it hides a second time.
       */
      fieldHashes: ReadonlyMap<HashedField, Uint8Array>;
      issuerSignature?: IssuerSignature;
    }
  | {
      integrity: 'failed';
      /** malformed: not our format; target-hash: a value, salt or hidden hash was changed;
       *  merkle-proof: the proof or the root was changed. */
      reason: 'malformed' | 'target-hash' | 'merkle-proof';
      error: string;
    };

type Failure = Extract<DocumentVerification, { integrity: 'failed' }>;
type Verified = Extract<DocumentVerification, { integrity: 'ok' }>;

const failure = (reason: Failure['reason'], error: string): Failure => ({ integrity: 'failed', reason, error });

/** What the structural check of a document gives the hashing (or the attestation) that follows. */
interface Structured {
  doc: CredentialDocument;
  hiddenFields: RecordField[];
  /** The hashed fields, in the order their hashes enter the targetHash: one salt each. */
  saltedFields: HashedField[];
}

/**
 * The checks of a document that hash nothing: JSON, the format's schema, which fields may be
 * hidden, one hash per hidden field and one salt per disclosed one. Shared by `verifyDocument`
 * and `attestedDocument`, so both refuse the same malformed documents in the same words.
 */
function structure(input: unknown): Structured | Failure {
  let raw = input;
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch {
      return failure('malformed', 'not JSON');
    }
  }
  let doc = wellFormedDocument(raw);
  if (!doc) {
    const parsed = documentSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return failure('malformed', `${issue?.path.join('.') || 'document'}: ${issue?.message ?? 'invalid'}`);
    }
    doc = parsed.data as unknown as CredentialDocument;
  }

  const recordFields = recordFieldsOf(doc.version);
  const disclosed = Object.keys(doc.record);
  for (const key of disclosed) {
    if (!(recordFields as readonly string[]).includes(key)) return failure('malformed', `record.${key}: not a field of ${doc.version}`);
  }
  for (const field of REQUIRED_DISCLOSED_FIELDS) {
    if (!(field in doc.record)) return failure('malformed', `record.${field}: may not be hidden`);
  }
  if (doc.issuer.id !== doc.record.issuer) return failure('malformed', 'issuer.id differs from record.issuer');
  const hiddenFields = recordFields.filter((f) => !(f in doc.record));
  if (doc.obfuscated.length !== hiddenFields.length) {
    return failure('malformed', `obfuscated: ${doc.obfuscated.length} hashes for ${hiddenFields.length} hidden fields`);
  }
  if (new Set(doc.obfuscated).size !== doc.obfuscated.length) return failure('malformed', 'obfuscated: repeated hash');
  const saltedFields = hashedFieldsOf(doc.version).filter((f) => isIssuerField(f) || f in doc.record);
  const saltKeys = Object.keys(doc.salts);
  if (saltKeys.length !== saltedFields.length || !saltedFields.every((f) => f in doc.salts)) {
    return failure('malformed', 'salts: one per disclosed field, no others');
  }
  return { doc, hiddenFields, saltedFields };
}

function verified(
  doc: CredentialDocument,
  hiddenFields: readonly RecordField[],
  targetHash: string,
  merkleRoot: string,
  fieldHashes: ReadonlyMap<HashedField, Uint8Array>,
): Verified {
  return {
    integrity: 'ok',
    targetHash,
    merkleRoot,
    diplomaId: doc.record.diploma_id!,
    issuer: doc.issuer,
    record: doc.record,
    hiddenFields,
    fieldHashes,
    ...(doc.signature.issuerSignature ? { issuerSignature: doc.signature.issuerSignature } : {}),
  };
}

/** Recomputes the targetHash and the Merkle root of a document (parsed JSON or JSON text). Never throws. */
export function verifyDocument(input: unknown): DocumentVerification {
  const structured = structure(input);
  if ('integrity' in structured) return structured;
  const { doc, hiddenFields, saltedFields } = structured;

  const hashes: Uint8Array[] = [];
  const fieldHashes = new Map<HashedField, Uint8Array>();
  try {
    for (const field of saltedFields) {
      const salt = hexToBytesStrict(doc.salts[field]!, SALT_BYTES);
      const hash = hashField(salt, field, canonicalFieldValue(field, fieldValue(doc, field)));
      hashes.push(hash);
      fieldHashes.set(field, hash);
    }
  } catch (error) {
    return failure('malformed', (error as Error).message);
  }
  for (const h of doc.obfuscated) hashes.push(hexToBytesStrict(h, 32));

  const targetHash = bytesToHex(computeTargetHash(hashes));
  if (targetHash !== doc.signature.targetHash) {
    return failure('target-hash', 'the recomputed targetHash differs: a value, a salt or a hidden field was changed');
  }
  const proof = doc.signature.proof.map((h) => hexToBytesStrict(h, 32));
  const merkleRoot = bytesToHex(computeMerkleRoot(hexToBytesStrict(targetHash, 32), proof));
  if (merkleRoot !== doc.signature.merkleRoot) {
    return failure('merkle-proof', 'the proof does not lead from the targetHash to the merkleRoot');
  }
  return verified(doc, hiddenFields, targetHash, merkleRoot, fieldHashes);
}

/**
 * A document its caller vouches for, read without hashing (ADR 0154): the same structural checks
 * as `verifyDocument` (same refusals, same words), then its stated targetHash and merkleRoot taken
 * as they are — their spelling checked (32 bytes of lowercase hex), not their derivation. Only for
 * a document whose `verifyDocument` passed before and that provably has not changed since (the API:
 * a seal over its exact text under a key outside the database); anything else goes through
 * `verifyDocument`. `fieldHashes` is empty: nothing was hashed. Never throws.
 */
export function attestedDocument(input: unknown): DocumentVerification {
  const structured = structure(input);
  if ('integrity' in structured) return structured;
  const { doc, hiddenFields, saltedFields } = structured;
  try {
    for (const field of saltedFields) hexToBytesStrict(doc.salts[field]!, SALT_BYTES);
    for (const h of doc.obfuscated) hexToBytesStrict(h, 32);
    hexToBytesStrict(doc.signature.targetHash, 32);
    hexToBytesStrict(doc.signature.merkleRoot, 32);
  } catch (error) {
    return failure('malformed', (error as Error).message);
  }
  return verified(doc, hiddenFields, doc.signature.targetHash, doc.signature.merkleRoot, new Map());
}

/**
 * Selective disclosure: a copy of the document without the given record fields' values and
 * salts, their hashes moved to `obfuscated`. The targetHash, proof and root are unchanged.
 * `known`: the field hashes `verifyDocument` has just computed for this same document (its
 * `fieldHashes`), used instead of hashing the fields again; a field without one is hashed.
 */
export function hideFields(doc: CredentialDocument, fields: readonly RecordField[], known?: ReadonlyMap<HashedField, Uint8Array>): CredentialDocument {
  const record: DisclosedRecord = { ...doc.record };
  const salts = { ...doc.salts };
  const obfuscated = [...doc.obfuscated];
  for (const field of fields) {
    if ((REQUIRED_DISCLOSED_FIELDS as readonly string[]).includes(field)) throw new Error(`${field} may not be hidden`);
    if (!(field in record)) continue;
    const hash = known?.get(field) ?? hashField(hexToBytesStrict(salts[field] ?? '', SALT_BYTES), field, canonicalFieldValue(field, record[field]));
    obfuscated.push(bytesToHex(hash));
    delete record[field];
    delete salts[field];
  }
  obfuscated.sort();
  return { ...doc, record, salts, obfuscated };
}

/** The record fields the public answer hides: every one not in `PUBLIC_FIELDS`. */
export const NON_PUBLIC_FIELDS: readonly RecordField[] = RECORD_FIELDS.filter((field) => !(PUBLIC_FIELDS as readonly string[]).includes(field));

/**
 * The credential as a stranger receives it (ADR 0134): `hideFields` of every field not in
 * `PUBLIC_FIELDS`. It still verifies (same targetHash, proof, root and signature); the hidden
 * fields' values and salts are not in it, so they cannot be read or confirmed by guessing.
 * `known`: the `fieldHashes` of this document's `verifyDocument`, to skip hashing them again.
 */
export function publicCredential(doc: CredentialDocument, known?: ReadonlyMap<HashedField, Uint8Array>): CredentialDocument {
  return hideFields(doc, NON_PUBLIC_FIELDS, known);
}
