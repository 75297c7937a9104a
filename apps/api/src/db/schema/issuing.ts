import {
  GENDERS,
  GENERATION_STATUSES,
  GENERATION_TYPES,
  ITEM_VALIDATION_STATES,
  SIGNATURE_KINDS,
  SIGNATURE_STATUSES,
  type SignatureKind,
  TEMPLATE_OWNER_TYPES,
} from '@sceau/contracts';
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, customType, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { createdAt, eachOneOf, oneOf, updatedAt } from './columns.ts';
import { foldedOf } from './folded.ts';
import { centres, educProvinces, examSessions, institutions, options } from './reference-data.ts';

/** Issuing: official signatures, templates, batches (generations), their candidates and diplomas. */

/** One official signature as a batch was launched with it. */
export interface SignatureSnapshot {
  kind: SignatureKind;
  signerName: string;
  signerTitle: string;
  imageKey: string;
  imageSha256: string;
}

/** The official signatures placed on diplomas (spec: settings page), one per kind. */
export const officialSignatures = pgTable(
  'official_signatures',
  {
    kind: varchar('kind', { length: 32, enum: SIGNATURE_KINDS }).primaryKey(),
    signerName: text('signer_name').notNull(),
    signerTitle: text('signer_title').notNull(),
    /** Key of the processed PNG in file storage. */
    imageKey: text('image_key').notNull(),
    imageSha256: varchar('image_sha256', { length: 64 }).notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    updatedAt: updatedAt(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [oneOf('official_signatures_kind_check', t.kind, SIGNATURE_KINDS)],
);

/** Diploma designs: the country's, and schools' custom ones derived from it. */
export const templates = pgTable(
  'templates',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** `country` or `institution`, with the owner's id (spec: `{id}_country`, `{id}_institution`). */
    ownerType: varchar('owner_type', { length: 16, enum: TEMPLATE_OWNER_TYPES }).notNull(),
    ownerId: integer('owner_id').notNull(),
    generationType: varchar('generation_type', { length: 32, enum: GENERATION_TYPES }).notNull(),
    /** The page design (packages/pdf template model). */
    design: jsonb('design').$type<Record<string, unknown>>().notNull(),
    basedOnId: integer('based_on_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('templates_owner_idx').on(t.ownerType, t.ownerId),
    oneOf('templates_owner_type_check', t.ownerType, TEMPLATE_OWNER_TYPES),
    oneOf('templates_generation_type_check', t.generationType, GENERATION_TYPES),
  ],
);

/** Bytes (PostgreSQL `bytea`, a Buffer in Node). */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** A generation batch: one list of candidates turned into diplomas together (spec section 3). */
export const generations = pgTable(
  'generations',
  {
    id: serial('id').primaryKey(),
    type: varchar('type', { length: 32, enum: GENERATION_TYPES }).notNull(),
    templateId: integer('template_id')
      .notNull()
      .references(() => templates.id),
    title: text('title'),
    sessionId: integer('session_id')
      .notNull()
      .references(() => examSessions.id),
    educProvinceId: integer('educ_province_id')
      .notNull()
      .references(() => educProvinces.id),
    institutionId: integer('institution_id').references(() => institutions.id),
    centreId: integer('centre_id').references(() => centres.id),
    optionId: integer('option_id').references(() => options.id),
    /** Moved only through generation-status.ts, along GENERATION_TRANSITIONS. */
    status: varchar('status', { length: 32, enum: GENERATION_STATUSES }).notNull().default('created'),
    signatureStatus: varchar('signature_status', { length: 32, enum: SIGNATURE_STATUSES }).notNull().default('not_started'),
    /** The uploaded list, kept as sent (file storage key) until the import job has read it. */
    sourceFileKey: text('source_file_key'),
    /** The photos zip sent beside the list (file storage key), until the import job has extracted it. */
    sourcePhotosKey: text('source_photos_key'),
    /**
     * The official signatures (kinds) chosen at launch that its diplomas carry, and only those;
     * null for a batch launched before the choice existed (every signature configured).
     */
    signatureKinds: text('signature_kinds').array().$type<SignatureKind[]>(),
    /**
     * The chosen signatures as they stood at launch (signer, title, image key and hash): the batch
     * prints these, whatever /settings holds later (a replaced image never reaches a launched batch).
     */
    signatureSnapshot: jsonb('signature_snapshot').$type<SignatureSnapshot[]>(),
    /** Merkle root of the batch's diplomas (hex), once generated. */
    merkleRoot: varchar('merkle_root', { length: 64 }),
    anchorChainId: integer('anchor_chain_id'),
    anchorContract: varchar('anchor_contract', { length: 42 }),
    anchorTxHash: varchar('anchor_tx_hash', { length: 66 }),
    anchorBlockNumber: bigint('anchor_block_number', { mode: 'number' }),
    anchoredAt: timestamp('anchored_at', { withTimezone: true }),
    /** Progress of the running step, for the status calls. */
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total').notNull().default(0),
    lastError: text('last_error'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    generatedAt: timestamp('generated_at', { withTimezone: true }),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    /** A whole batch revoked (its root written as revoked on the registry). */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revocationReason: text('revocation_reason'),
    revokedBy: integer('revoked_by').references(() => users.id, { onDelete: 'set null' }),
    revocationTxHash: varchar('revocation_tx_hash', { length: 66 }),
  },
  (t) => [
    index('generations_status_idx').on(t.status),
    index('generations_creator_idx').on(t.createdBy, t.createdAt),
    index('generations_session_province_idx').on(t.sessionId, t.educProvinceId),
    oneOf('generations_type_check', t.type, GENERATION_TYPES),
    oneOf('generations_status_check', t.status, GENERATION_STATUSES),
    oneOf('generations_signature_status_check', t.signatureStatus, SIGNATURE_STATUSES),
    eachOneOf('generations_signature_kinds_check', t.signatureKinds, SIGNATURE_KINDS),
  ],
);

/** A candidate of a batch (spec section 3): the data that will be on the diploma, and its validation. */
export const generationItems = pgTable(
  'generation_items',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    generationId: integer('generation_id')
      .notNull()
      .references(() => generations.id, { onDelete: 'cascade' }),
    /** The 14-digit candidate code of the national exam. */
    candidateCode: varchar('candidate_code', { length: 14 }).notNull(),
    lastName: text('last_name').notNull(),
    middleName: text('middle_name'),
    firstName: text('first_name'),
    birthDate: varchar('birth_date', { length: 10 }).notNull(),
    birthPlace: text('birth_place').notNull(),
    gender: varchar('gender', { length: 1, enum: GENDERS }).notNull(),
    optionId: integer('option_id')
      .notNull()
      .references(() => options.id),
    institutionId: integer('institution_id')
      .notNull()
      .references(() => institutions.id),
    centreId: integer('centre_id')
      .notNull()
      .references(() => centres.id),
    /** Percentage obtained, in tenths (725 = 72.5 %). */
    percentageTenths: integer('percentage_tenths').notNull(),
    photoKey: text('photo_key'),
    photoStatus: varchar('photo_status', { length: 16, enum: ITEM_VALIDATION_STATES }).notNull().default('pending'),
    dataStatus: varchar('data_status', { length: 16, enum: ITEM_VALIDATION_STATES }).notNull().default('pending'),
    rejected: boolean('rejected').notNull().default(false),
    rejectionReason: text('rejection_reason'),
    rejectedBy: integer('rejected_by').references(() => users.id, { onDelete: 'set null' }),
    rejectedAt: timestamp('rejected_at', { withTimezone: true }),
    /** Row of the uploaded list the candidate came from, to point back at it. */
    sourceRow: integer('source_row'),
    /** The candidate's contacts for distribution (optional): international phone, e-mail lower-cased. */
    phone: text('phone'),
    email: text('email'),
    /** When a broadcast last notified the candidate. */
    broadcastAt: timestamp('broadcast_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('generation_items_code_key').on(t.generationId, t.candidateCode),
    index('generation_items_candidate_idx').on(t.candidateCode),
    // The holder's side finds a person's diplomas by their contact (ADR 0132).
    index('generation_items_phone_idx').on(t.phone).where(sql`${t.phone} is not null`),
    index('generation_items_email_idx').on(t.email).where(sql`${t.email} is not null`),
    // Whether any candidate still names a photo file (a replaced photo's clean-up, the orphan
    // sweep): a look-up by key, not a scan of every candidate of every session.
    index('generation_items_photo_key_idx').on(t.photoKey).where(sql`${t.photoKey} is not null`),
    index('generation_items_filters_idx').on(t.generationId, t.institutionId, t.centreId, t.optionId),
    // Staff search candidates by any part of their names or code, accents and case aside (ADR 0139).
    index('generation_items_search_idx').using('gin', sql`${foldedOf(t.lastName, t.middleName, t.firstName, t.candidateCode)} gin_trgm_ops`),
    oneOf('generation_items_photo_status_check', t.photoStatus, ITEM_VALIDATION_STATES),
    oneOf('generation_items_data_status_check', t.dataStatus, ITEM_VALIDATION_STATES),
    oneOf('generation_items_gender_check', t.gender, GENDERS),
  ],
);

/** An issued diploma: its credential, proof, PDF and publication and revocation state. */
export const diplomas = pgTable(
  'diplomas',
  {
    /** 128 random bits, base64url (22 characters): not guessable, not sequential. */
    id: varchar('id', { length: 22 }).primaryKey(),
    itemId: bigint('item_id', { mode: 'number' })
      .notNull()
      .references(() => generationItems.id, { onDelete: 'cascade' }),
    generationId: integer('generation_id')
      .notNull()
      .references(() => generations.id, { onDelete: 'cascade' }),
    candidateCode: varchar('candidate_code', { length: 14 }).notNull(),
    /**
     * The serial number printed on the diploma and signed in its record (packages/credential
     * serial.ts: `DE-2026-0428715-8`); null for diplomas issued before serials (credential version 1).
     */
    serial: varchar('serial', { length: 20 }),
    /** The signed credential document (packages/credential), as embedded in the PDF. */
    credential: jsonb('credential').$type<Record<string, unknown>>().notNull(),
    /**
     * The seal recorded when the credential was checked at issuance (ADR 0154): key id ‖
     * HMAC-SHA256 of the id, `credential::text` and `public_credential` under a key outside the
     * database. Null (or not matching): a verification by id checks the credential in full. Whatever
     * changes `credential` must set it to null or seal again (verification/verification-seal.ts).
     */
    seal: bytea('seal'),
    /** The public credential (ADR 0134) as the answer by id carries it, JSON text; written with the seal. */
    publicCredential: text('public_credential'),
    targetHash: varchar('target_hash', { length: 64 }).notNull(),
    qrPayload: text('qr_payload').notNull(),
    /** Set once the signed PDF is rendered and stored (generation writes the credential first). */
    pdfKey: text('pdf_key'),
    pdfSha256: varchar('pdf_sha256', { length: 64 }),
    pdfBytes: integer('pdf_bytes'),
    /**
     * PAdES B-LTA (ADR 0135): when the TSA certificate of the PDF's last time-stamp expires; the
     * re-time-stamping job renews the PDF before. Null: a PDF from before time-stamps (also renewed).
     */
    timestampExpiresAt: timestamp('timestamp_expires_at', { withTimezone: true }),
    signingKeyId: varchar('signing_key_id', { length: 64 }).notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revocationReason: text('revocation_reason'),
    revokedBy: integer('revoked_by').references(() => users.id, { onDelete: 'set null' }),
    revocationTxHash: varchar('revocation_tx_hash', { length: 66 }),
    downloads: integer('downloads').notNull().default(0),
    /** Its position in the ministry's revocation status lists (ADR 0144): from a sequence, never reused. */
    statusIndex: integer('status_index').notNull().default(sql`nextval('diploma_status_index_seq')`),
  },
  (t) => [
    index('diplomas_pending_pdf_idx').on(t.generationId).where(sql`${t.pdfKey} is null`),
    uniqueIndex('diplomas_item_key').on(t.itemId),
    uniqueIndex('diplomas_target_hash_key').on(t.targetHash),
    index('diplomas_generation_idx').on(t.generationId),
    index('diplomas_candidate_idx').on(t.candidateCode),
    index('diplomas_timestamp_expiry_idx').on(t.timestampExpiresAt).where(sql`${t.pdfKey} is not null`),
    uniqueIndex('diplomas_serial_key').on(t.serial),
    uniqueIndex('diplomas_status_index_key').on(t.statusIndex),
  ],
);

/**
 * The last serial number given per kind (prefix) and session year. Issuing reserves a block of
 * numbers in a short transaction of its own, so batches issued at the same time never wait on each
 * other; a batch that fails leaves a gap, never a repeat.
 */
export const diplomaSerialCounters = pgTable(
  'diploma_serial_counters',
  {
    prefix: varchar('prefix', { length: 4 }).notNull(),
    year: integer('year').notNull(),
    lastNumber: integer('last_number').notNull(),
  },
  (t) => [primaryKey({ columns: [t.prefix, t.year] })],
);
