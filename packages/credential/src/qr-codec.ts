/**
 * The QR payload's codec without elliptic-curve code (ADR 0011, 0096): fields, CBOR claims, and
 * the reading of a scanned text down to the signed bytes and the key its kid names. qr.ts adds
 * signing and the @noble/curves check; a browser may check the same bytes with WebCrypto.
 *
 * The compact signed payload printed as a QR code, in the EU Digital COVID Certificate style:
 *
 *   "SC1:" + base45( zlib?( COSE_Sign1[ES256]( CBOR map with small integer keys ) ) )
 *
 * The map carries the person (names, birth date, gender, candidate code), codes (not names) for
 * option, school, centre, province, the session year, the percentage in tenths, the issue date,
 * the diploma id and the credential's targetHash, which ties the QR to the full credential.
 */
import { fromBase45 } from './base45.ts';
import { bytesToHex, fromBase64url, hexToBytesStrict, toBase64url } from './bytes.ts';
import { decodeCborStrict, encodeCbor } from './cbor.ts';
import { coseSigStructure, parseCoseSign1 } from './cose-structure.ts';
import type { CredentialDocument } from './document.ts';
import { isCalendarDate, isCode, isDiplomaId, isPercentage } from './field-rules.ts';
import { findJwk, type EcPublicJwk, type Jwks } from './jwk.ts';
import type { DiplomaRecord } from './record.ts';
import { zlibDecompress } from './zlib.ts';

export const QR_PREFIX = 'SC1:';
/** A QR code holds at most 4,296 alphanumeric characters; refuse anything longer unread. */
const MAX_QR_TEXT = 4296;
const MAX_INFLATED_BYTES = 4096;
export const ZLIB_CMF = 0x78;

export interface QrFields {
  diploma_id: string;
  candidate_code: string;
  last_name: string;
  middle_name: string;
  first_name: string;
  birth_date: string;
  gender: 'M' | 'F';
  option_code: string;
  school_code: string;
  centre_code: string;
  educ_province_code: string;
  session_year: number;
  percentage: number;
  issue_date: string;
  /** The credential's targetHash, lowercase hex (32 bytes). */
  target_hash: string;
}

/** CBOR map keys. Numbers, not names, to fit the byte budget; never reuse a number. */
export const QR_KEYS = {
  diploma_id: 1, // bstr, 16 bytes
  candidate_code: 2, // tstr, 14 digits
  last_name: 3, // tstr
  middle_name: 4, // tstr (may be empty)
  first_name: 5, // tstr
  birth_date: 6, // uint YYYYMMDD (20070314)
  gender: 7, // tstr "M" | "F"
  option_code: 8, // tstr
  school_code: 9, // tstr
  centre_code: 10, // tstr
  educ_province_code: 11, // tstr
  session_year: 12, // uint
  percentage: 13, // uint, tenths of a percent (675 = 67.5 %)
  issue_date: 14, // uint YYYYMMDD
  target_hash: 15, // bstr, 32 bytes
} as const satisfies Record<keyof QrFields, number>;

export function qrFieldsFromRecord(record: DiplomaRecord, targetHash: string): QrFields {
  return {
    diploma_id: record.diploma_id,
    candidate_code: record.candidate_code,
    last_name: record.last_name,
    middle_name: record.middle_name,
    first_name: record.first_name,
    birth_date: record.birth_date,
    gender: record.gender,
    option_code: record.option_code,
    school_code: record.school_code,
    centre_code: record.centre_code,
    educ_province_code: record.educ_province_code,
    session_year: record.session_year,
    percentage: record.percentage,
    issue_date: record.issue_date,
    target_hash: targetHash,
  };
}

/** The QR fields of a credential document (all the fields the QR needs must be disclosed). */
export function qrFieldsFromDocument(doc: CredentialDocument): QrFields {
  const missing = QR_RECORD_FIELDS.filter((f) => doc.record[f] === undefined);
  if (missing.length > 0) throw new Error(`QR fields: hidden in the document: ${missing.join(', ')}`);
  return qrFieldsFromRecord(doc.record as DiplomaRecord, doc.signature.targetHash);
}

const QR_RECORD_FIELDS = Object.keys(QR_KEYS).filter((k) => k !== 'target_hash') as Array<Exclude<keyof QrFields, 'target_hash'>>;

/** The CBOR payload (deterministic: same fields, same bytes). */
export function encodeQrClaims(fields: QrFields): Uint8Array {
  const problem = checkFields(fields);
  if (problem) throw new Error(`QR fields: ${problem}`);
  return encodeCbor(
    new Map<number, unknown>([
      [QR_KEYS.diploma_id, fromBase64url(fields.diploma_id)],
      [QR_KEYS.candidate_code, fields.candidate_code],
      [QR_KEYS.last_name, fields.last_name],
      [QR_KEYS.middle_name, fields.middle_name],
      [QR_KEYS.first_name, fields.first_name],
      [QR_KEYS.birth_date, dateToNumber(fields.birth_date)],
      [QR_KEYS.gender, fields.gender],
      [QR_KEYS.option_code, fields.option_code],
      [QR_KEYS.school_code, fields.school_code],
      [QR_KEYS.centre_code, fields.centre_code],
      [QR_KEYS.educ_province_code, fields.educ_province_code],
      [QR_KEYS.session_year, fields.session_year],
      [QR_KEYS.percentage, Math.round(fields.percentage * 10)],
      [QR_KEYS.issue_date, dateToNumber(fields.issue_date)],
      [QR_KEYS.target_hash, hexToBytesStrict(fields.target_hash, 32)],
    ]),
  );
}

export type QrVerification =
  /** Signed by a key of the JWKS: the fields are the ministry's. */
  | { status: 'valid'; kid: string; fields: QrFields }
  /** Well formed, but no key of the JWKS has this kid (another issuer, or a forged key). */
  | { status: 'unknown-key'; kid: string }
  /** The key is known and the signature does not match: the QR was altered or forged. */
  | { status: 'bad-signature'; kid: string }
  /** Not a Sceau QR payload, or damaged beyond reading. */
  | { status: 'malformed'; error: string };

/** A scanned QR text read as far as its signature: what to check, with which published key. */
export type QrReading =
  | {
      status: 'signed';
      /** The kid of the COSE header, base64url. */
      kid: string;
      /** The JWKS key the kid names. */
      jwk: EcPublicJwk;
      /** The bytes signed (COSE Sig_structure) and the raw ES256 signature r ‖ s (64 bytes). */
      signed: Uint8Array;
      signature: Uint8Array;
      /** The CBOR claims, to be decoded only once the signature holds (qrVerification). */
      claims: Uint8Array;
    }
  | { status: 'unknown-key'; kid: string }
  | { status: 'malformed'; error: string };

/**
 * Reads a scanned QR text (prefix, base45, optional zlib, COSE_Sign1) and finds the JWKS key its
 * kid names, without checking the signature. Never throws.
 */
export function readQrPayload(text: string, jwks: Jwks): QrReading {
  if (typeof text !== 'string') return malformed('not a string');
  const input = text.replace(/[\r\n]+$/, '');
  if (input.length > MAX_QR_TEXT) return malformed('longer than any QR code');
  if (!input.startsWith(QR_PREFIX)) return malformed(`does not start with ${QR_PREFIX}`);
  let parts: ReturnType<typeof parseCoseSign1>;
  try {
    const bytes = fromBase45(input.slice(QR_PREFIX.length));
    // 0x78: a zlib header (CMF, deflate with a 32 KB window); COSE_Sign1 starts 0xD2 (tag 18).
    const cose = bytes[0] === ZLIB_CMF ? zlibDecompress(bytes, MAX_INFLATED_BYTES) : bytes;
    parts = parseCoseSign1(cose);
  } catch (error) {
    return malformed((error as Error).message);
  }
  const kid = toBase64url(parts.kid);
  const jwk = findJwk(jwks, parts.kid);
  if (!jwk) return { status: 'unknown-key', kid };
  return {
    status: 'signed',
    kid,
    jwk,
    signed: coseSigStructure(parts.protectedHeader, parts.payload),
    signature: parts.signature,
    claims: parts.payload,
  };
}

/** The outcome of a read QR once its signature has been checked (by whatever ECDSA implementation). */
export function qrVerification(reading: Extract<QrReading, { status: 'signed' }>, signatureValid: boolean): QrVerification {
  if (!signatureValid) return { status: 'bad-signature', kid: reading.kid };
  try {
    return { status: 'valid', kid: reading.kid, fields: decodeQrClaims(reading.claims) };
  } catch (error) {
    // Signed by our key yet unreadable: only a bug of ours could do that; never call it valid.
    return malformed((error as Error).message);
  }
}

/** Decodes the CBOR payload; throws on anything but exactly our map. */
export function decodeQrClaims(payload: Uint8Array): QrFields {
  const map = decodeCborStrict(payload);
  if (!(map instanceof Map)) throw new Error('QR payload: not a map');
  const known = new Set<unknown>(Object.values(QR_KEYS));
  for (const key of map.keys()) if (!known.has(key)) throw new Error(`QR payload: unknown key ${String(key)}`);
  const get = (name: keyof QrFields) => map.get(QR_KEYS[name]);
  const id = get('diploma_id');
  const target = get('target_hash');
  const tenths = get('percentage');
  if (!(id instanceof Uint8Array) || id.length !== 16) throw new Error('QR payload: diploma_id');
  if (!(target instanceof Uint8Array) || target.length !== 32) throw new Error('QR payload: target_hash');
  if (typeof tenths !== 'number' || !Number.isInteger(tenths)) throw new Error('QR payload: percentage');
  const fields = {
    diploma_id: toBase64url(id),
    candidate_code: get('candidate_code'),
    last_name: get('last_name'),
    middle_name: get('middle_name'),
    first_name: get('first_name'),
    birth_date: numberToDate(get('birth_date')),
    gender: get('gender'),
    option_code: get('option_code'),
    school_code: get('school_code'),
    centre_code: get('centre_code'),
    educ_province_code: get('educ_province_code'),
    session_year: get('session_year'),
    percentage: tenths / 10,
    issue_date: numberToDate(get('issue_date')),
    target_hash: bytesToHex(target),
  } as QrFields;
  const problem = checkFields(fields);
  if (problem) throw new Error(`QR payload: ${problem}`);
  return fields;
}

function checkFields(f: QrFields): string | undefined {
  const str = (v: unknown) => typeof v === 'string';
  if (!isDiplomaId(f.diploma_id)) return 'diploma_id';
  if (!str(f.candidate_code) || !/^\d{14}$/.test(f.candidate_code)) return 'candidate_code';
  for (const name of ['last_name', 'first_name'] as const) {
    if (!str(f[name]) || f[name].length === 0 || f[name].length > 100) return name;
  }
  if (!str(f.middle_name) || f.middle_name.length > 100) return 'middle_name';
  for (const name of ['birth_date', 'issue_date'] as const) if (!str(f[name]) || !isCalendarDate(f[name])) return name;
  if (f.gender !== 'M' && f.gender !== 'F') return 'gender';
  for (const name of ['option_code', 'school_code', 'centre_code', 'educ_province_code'] as const) {
    if (!isCode(f[name])) return name;
  }
  if (!Number.isInteger(f.session_year) || f.session_year < 1900 || f.session_year > 2999) return 'session_year';
  if (!isPercentage(f.percentage)) return 'percentage';
  if (!str(f.target_hash) || !/^[0-9a-f]{64}$/.test(f.target_hash)) return 'target_hash';
  return undefined;
}

/** Dates travel as the integer YYYYMMDD: 5 bytes of CBOR instead of 11. */
function dateToNumber(date: string): number {
  return Number(date.replaceAll('-', ''));
}

function numberToDate(value: unknown): string {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 10000101 || value > 99991231) return '';
  const s = String(value);
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
}

function malformed(error: string): { status: 'malformed'; error: string } {
  return { status: 'malformed', error };
}
