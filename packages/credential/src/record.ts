/**
 * The canonical record of a diploma: the fields that are salted and hashed into its targetHash.
 * `diplomaRecordSchema` turns loose input (trailing spaces, decomposed accents) into the one
 * canonical form; everything downstream hashes that form and nothing else.
 */
import { z } from 'zod';
import { CODE_PATTERN, DIPLOMA_ID_PATTERN, isCalendarDate, isDiplomaId, isPercentage } from './field-rules.ts';
import { isSerial } from './serial.ts';

export { DIPLOMA_ID_PATTERN, isCalendarDate, isDiplomaId, isPercentage };

/**
 * Record fields, in the order they are listed in documents and vectors. `serial` (the printed
 * serial number, serial.ts) is a field from document version 2; version 1 records have the others.
 */
export const RECORD_FIELDS = [
  'diploma_id',
  'serial',
  'candidate_code',
  'last_name',
  'middle_name',
  'first_name',
  'birth_date',
  'birth_place',
  'gender',
  'option',
  'option_code',
  'school',
  'school_code',
  'centre',
  'centre_code',
  'educ_province',
  'educ_province_code',
  'session',
  'session_year',
  'percentage',
  'issue_date',
  'issuer',
] as const;
export type RecordField = (typeof RECORD_FIELDS)[number];

/** The record fields of a version 1 document: every field but the serial. */
export const RECORD_FIELDS_V1: readonly RecordField[] = RECORD_FIELDS.filter((field) => field !== 'serial');

/** Fields a holder may not hide: without them nobody can look the diploma up or know its issuer. */
export const REQUIRED_DISCLOSED_FIELDS = ['diploma_id', 'issuer'] as const satisfies readonly RecordField[];

/**
 * The fields anyone with a diploma's id is shown (ADR 0134): the public answer of `/verify/{id}`
 * discloses these and hides every other (value and salt removed, hash kept), so what a stranger
 * receives is what the public result displays and still verifies. Not in it: `candidate_code` (a
 * factor of the candidate check), `birth_place`, `gender` and the province.
 */
export const PUBLIC_FIELDS = [
  ...REQUIRED_DISCLOSED_FIELDS,
  'serial',
  'last_name',
  'middle_name',
  'first_name',
  'birth_date',
  'option',
  'option_code',
  'school',
  'school_code',
  'centre',
  'centre_code',
  'session',
  'session_year',
  'percentage',
  'issue_date',
] as const satisfies readonly RecordField[];
export type PublicField = (typeof PUBLIC_FIELDS)[number];

/** NFC, trimmed, inner runs of white space collapsed to one space. */
export function canonicalText(value: string): string {
  return value.normalize('NFC').trim().replace(/\s+/gu, ' ');
}

const text = (max: number) => z.string().transform(canonicalText).pipe(z.string().min(1).max(max));

const optionalText = (max: number) => z.string().transform(canonicalText).pipe(z.string().max(max));

/** Codes are short identifiers (school, centre, option, province); they appear in the QR. */
export const codeSchema = z.string().regex(CODE_PATTERN, 'code: 1-24 of A-Z a-z 0-9 . _ -');

export const dateSchema = z.string().refine(isCalendarDate, 'date: YYYY-MM-DD, a real calendar day');

/** Ministry identifier: its DNS name (optionally with a port for development), lowercase. */
export const issuerIdSchema = z
  .string()
  .regex(/^(?=.{1,253}(?::\d{1,5})?$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::\d{1,5})?$/, 'issuer: a lowercase DNS name');

export const diplomaIdSchema = z.string().refine(isDiplomaId, 'diploma_id: 128 bits, base64url, 22 characters');

export const diplomaRecordSchema = z.strictObject({
  diploma_id: diplomaIdSchema,
  /** From version 2: a record with a serial makes a version 2 document, one without a version 1. */
  serial: z.string().refine(isSerial, 'serial: PREFIX-YYYY-NNNNNNN-C with its Damm check digit').optional(),
  candidate_code: z.string().regex(/^\d{14}$/, 'candidate_code: exactly 14 digits'),
  last_name: text(100),
  middle_name: optionalText(100),
  first_name: text(100),
  birth_date: dateSchema,
  birth_place: text(100),
  gender: z.enum(['M', 'F']),
  option: text(150),
  option_code: codeSchema,
  school: text(200),
  school_code: codeSchema,
  centre: text(200),
  centre_code: codeSchema,
  educ_province: text(100),
  educ_province_code: codeSchema,
  session: text(50),
  session_year: z.number().int().min(1900).max(2999),
  percentage: z.number().refine(isPercentage, 'percentage: 0 to 100, at most one decimal'),
  issue_date: dateSchema,
  issuer: issuerIdSchema,
});

/** A record as given (may be loosely spelled). */
export type DiplomaRecordInput = z.input<typeof diplomaRecordSchema>;
/** A canonical record. */
export type DiplomaRecord = z.output<typeof diplomaRecordSchema>;

/** Validates and canonicalises; throws a ZodError naming every bad field. */
export function parseDiplomaRecord(input: unknown): DiplomaRecord {
  return diplomaRecordSchema.parse(input);
}
