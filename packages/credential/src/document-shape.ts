/**
 * The credential document's structure: its versions, hashed issuer fields and the schema a document
 * must match before its hashes are checked (document.ts), with a faster check of the same schema
 * for the documents it accepts (ADR 0153, third pass). Kept apart so the two can be tested side by
 * side (document-shape.test.ts).
 */
import { z } from 'zod';
import { isLowerHex } from './bytes.ts';
import type { CredentialDocument, DisclosedRecord, IssuerSignature } from './document.ts';
import { SALT_BYTES } from './hashing.ts';
import { MAX_PROOF_LENGTH } from './merkle.ts';
import { RECORD_FIELDS, type RecordField } from './record.ts';

/**
 * The current format. Version 2 adds the record's `serial`; version 1 documents (issued before)
 * keep verifying with version 1's fields. A document's version follows from its record: a record
 * with a serial makes a version 2 document.
 */
export const DOCUMENT_VERSION = 'sceau-credential/2';
export const DOCUMENT_VERSIONS = ['sceau-credential/1', DOCUMENT_VERSION] as const;
export type DocumentVersion = (typeof DOCUMENT_VERSIONS)[number];

/** The issuer block's hashed fields (its `id` is the record's `issuer`, hashed there). */
export const ISSUER_FIELDS = ['issuer.name', 'issuer.jwks_url', 'issuer.registry.chain_id', 'issuer.registry.contract'] as const;
export type IssuerField = (typeof ISSUER_FIELDS)[number];
export type HashedField = RecordField | IssuerField;
/** Every field that goes into a targetHash: 26 in version 2 (25 in version 1, without the serial). */
export const HASHED_FIELDS: readonly HashedField[] = [...RECORD_FIELDS, ...ISSUER_FIELDS];

const hex = (bytes: number) => z.string().regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`), `${bytes} bytes, lowercase hex`);
const base64url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'base64url');

/** The document's structure (types, key sets, spellings); what the fields mean is checked by `verifyDocument`. */
export const documentSchema = z.strictObject({
  version: z.enum(DOCUMENT_VERSIONS),
  record: z.record(z.string(), z.union([z.string(), z.number()])),
  issuer: z.strictObject({
    id: z.string(),
    name: z.string(),
    jwks_url: z.string(),
    registry: z.strictObject({
      chain_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
      contract: z.string().regex(/^0x[0-9a-f]{40}$/, 'contract: 0x and 40 lowercase hex digits'),
    }),
  }),
  salts: z.record(z.string(), hex(SALT_BYTES)),
  obfuscated: z.array(hex(32)).max(RECORD_FIELDS.length),
  signature: z.strictObject({
    type: z.literal('MerkleProof'),
    targetHash: hex(32),
    proof: z.array(hex(32)).max(MAX_PROOF_LENGTH),
    merkleRoot: hex(32),
    issuerSignature: z.strictObject({ alg: z.literal('ES256'), kid: base64url, value: base64url }).optional(),
  }),
});

/**
 * `documentSchema`'s parse, without zod, for the documents it surely accepts: a copy made the way
 * the schema makes its own (strict objects' keys in the schema's order, records' and arrays' in
 * theirs), or null whenever the document is anything else, and the schema then decides (and words
 * the error) as before. The check is narrower than the schema, never wider: plain objects without
 * symbol keys, record and salt keys among the format's fields, every value of the type and spelling
 * the schema asks. A cold verification by id parses one stored document per request (ADR 0153,
 * third pass), where the schema's generic walk was a tenth of the work.
 */
export function wellFormedDocument(raw: unknown): CredentialDocument | null {
  if (!plainWithKeys(raw, DOCUMENT_KEYS, DOCUMENT_KEYS.length)) return null;
  const { version, record, issuer, salts, obfuscated, signature } = raw as Record<(typeof DOCUMENT_KEYS)[number], unknown>;
  if (version !== DOCUMENT_VERSIONS[0] && version !== DOCUMENT_VERSIONS[1]) return null;

  if (!plainWithKeys(record, RECORD_FIELDS, 0)) return null;
  const recordCopy: Record<string, string | number> = {};
  for (const key of Object.keys(record as object)) {
    const value = (record as Record<string, unknown>)[key];
    if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) return null;
    recordCopy[key] = value;
  }

  if (!plainWithKeys(issuer, ISSUER_KEYS, ISSUER_KEYS.length)) return null;
  const { id, name, jwks_url, registry } = issuer as Record<(typeof ISSUER_KEYS)[number], unknown>;
  if (typeof id !== 'string' || typeof name !== 'string' || typeof jwks_url !== 'string') return null;
  if (!plainWithKeys(registry, REGISTRY_KEYS, REGISTRY_KEYS.length)) return null;
  const { chain_id, contract } = registry as Record<(typeof REGISTRY_KEYS)[number], unknown>;
  if (typeof chain_id !== 'number' || !Number.isSafeInteger(chain_id) || chain_id <= 0) return null;
  if (typeof contract !== 'string' || contract.length !== 42 || !contract.startsWith('0x') || !isLowerHex(contract.slice(2), 20)) return null;

  if (!plainWithKeys(salts, HASHED_FIELDS, 0)) return null;
  const saltsCopy: Record<string, string> = {};
  for (const key of Object.keys(salts as object)) {
    const value = (salts as Record<string, unknown>)[key];
    if (!isLowerHex(value, SALT_BYTES)) return null;
    saltsCopy[key] = value;
  }

  const obfuscatedCopy = hashList(obfuscated, RECORD_FIELDS.length);
  if (!obfuscatedCopy) return null;

  if (!plainWithKeys(signature, SIGNATURE_KEYS, SIGNATURE_KEYS.length - 1)) return null;
  const { type, targetHash, proof, merkleRoot, issuerSignature } = signature as Record<(typeof SIGNATURE_KEYS)[number], unknown>;
  if (type !== 'MerkleProof' || !isLowerHex(targetHash, 32) || !isLowerHex(merkleRoot, 32)) return null;
  const proofCopy = hashList(proof, MAX_PROOF_LENGTH);
  if (!proofCopy) return null;
  let issuerSignatureCopy: IssuerSignature | undefined;
  // Absent, or an object: an `undefined` written in is the schema's to judge.
  if (Object.hasOwn(signature as object, 'issuerSignature')) {
    if (!plainWithKeys(issuerSignature, ISSUER_SIGNATURE_KEYS, ISSUER_SIGNATURE_KEYS.length)) return null;
    const { alg, kid, value } = issuerSignature as Record<(typeof ISSUER_SIGNATURE_KEYS)[number], unknown>;
    if (alg !== 'ES256' || !isBase64url(kid) || !isBase64url(value)) return null;
    issuerSignatureCopy = { alg, kid, value };
  }
  return {
    version,
    record: recordCopy as DisclosedRecord,
    issuer: { id, name, jwks_url, registry: { chain_id, contract } },
    salts: saltsCopy,
    obfuscated: obfuscatedCopy,
    signature: {
      type,
      targetHash,
      proof: proofCopy,
      merkleRoot,
      ...(issuerSignatureCopy ? { issuerSignature: issuerSignatureCopy } : {}),
    },
  };
}

const DOCUMENT_KEYS = ['version', 'record', 'issuer', 'salts', 'obfuscated', 'signature'] as const;
const ISSUER_KEYS = ['id', 'name', 'jwks_url', 'registry'] as const;
const REGISTRY_KEYS = ['chain_id', 'contract'] as const;
const SIGNATURE_KEYS = ['type', 'targetHash', 'proof', 'merkleRoot', 'issuerSignature'] as const;
const ISSUER_SIGNATURE_KEYS = ['alg', 'kid', 'value'] as const;

/**
 * An object whose prototype is Object.prototype, without symbol keys, whose own enumerable keys
 * are all among `allowed` and at least `min` of them (the required ones come first in `allowed`:
 * callers read them and refuse what is missing), with no other enumerable key, own or inherited.
 */
function plainWithKeys(value: unknown, allowed: readonly string[], min: number): boolean {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  if (Object.getOwnPropertySymbols(value).length !== 0) return false;
  let count = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || !allowed.includes(key)) return false;
    count++;
  }
  if (count < min) return false;
  for (let i = 0; i < min; i++) if (!Object.hasOwn(value, allowed[i]!)) return false;
  return true;
}

/** A plain array of at most `max` hashes (32 bytes, lowercase hex), copied; else null. */
function hashList(value: unknown, max: number): string[] | null {
  if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype || value.length > max) return null;
  const copy: string[] = [];
  for (let i = 0; i < value.length; i++) {
    const hash: unknown = value[i];
    if (!isLowerHex(hash, 32)) return null;
    copy.push(hash);
  }
  return copy;
}

function isBase64url(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const ok = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 95;
    if (!ok) return false;
  }
  return true;
}
