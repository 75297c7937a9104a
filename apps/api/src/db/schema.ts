import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, inet, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

// ---------------------------------------------------------------- reference data

export const countries = pgTable('countries', {
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 2 }).notNull().unique(),
  nameFr: text('name_fr').notNull(),
  nameEn: text('name_en').notNull(),
  dialCode: varchar('dial_code', { length: 4 }).notNull(),
  isDefault: boolean('is_default').notNull().default(false),
});

export const examSessions = pgTable('exam_sessions', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  year: integer('year').notNull(),
  isCurrent: boolean('is_current').notNull().default(false),
});

export const educProvinces = pgTable('educ_provinces', {
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 16 }).notNull().unique(),
  name: text('name').notNull(),
  /** The administrative province the educational province belongs to. */
  province: text('province').notNull(),
});

export const options = pgTable('options', {
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 16 }).notNull().unique(),
  name: text('name').notNull(),
  section: text('section').notNull(),
});

export const centres = pgTable(
  'centres',
  {
    id: serial('id').primaryKey(),
    code: varchar('code', { length: 16 }).notNull().unique(),
    name: text('name').notNull(),
    city: text('city').notNull(),
    educProvinceId: integer('educ_province_id')
      .notNull()
      .references(() => educProvinces.id),
  },
  (t) => [index('centres_province_idx').on(t.educProvinceId)],
);

export const institutions = pgTable(
  'institutions',
  {
    id: serial('id').primaryKey(),
    code: varchar('code', { length: 16 }).notNull().unique(),
    name: text('name').notNull(),
    city: text('city').notNull(),
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.id),
    centreId: integer('centre_id')
      .notNull()
      .references(() => centres.id),
    educProvinceId: integer('educ_province_id')
      .notNull()
      .references(() => educProvinces.id),
  },
  (t) => [index('institutions_centre_idx').on(t.centreId), index('institutions_country_idx').on(t.countryId)],
);

/** Which options a school teaches (and so presents candidates in). */
export const institutionOptions = pgTable(
  'institution_options',
  {
    institutionId: integer('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    optionId: integer('option_id')
      .notNull()
      .references(() => options.id),
  },
  (t) => [primaryKey({ columns: [t.institutionId, t.optionId] }), index('institution_options_option_idx').on(t.optionId)],
);

// ---------------------------------------------------------------- people and access

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    firstName: text('first_name'),
    /** Stored lower-cased. */
    email: text('email'),
    /** International form, `+<dial code><digits>`. */
    phone: text('phone'),
    passwordHash: text('password_hash'),
    locale: varchar('locale', { length: 2 }).notNull().default('fr'),
    /** Staff scope: later issues limit what a scoped user sees to it. */
    institutionId: integer('institution_id').references(() => institutions.id),
    centreId: integer('centre_id').references(() => centres.id),
    educProvinceId: integer('educ_province_id').references(() => educProvinces.id),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    /** When the person proved they hold their e-mail or phone (one-time code, Google, or created by staff). */
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** Google's stable account id (`sub`), once the person signed in with Google. */
    googleSub: text('google_sub'),
    /** Set by an administrator's reset: the person must choose a new password after signing in. */
    passwordResetRequired: boolean('password_reset_required').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email).where(sql`${t.email} is not null`),
    uniqueIndex('users_phone_key').on(t.phone).where(sql`${t.phone} is not null`),
    uniqueIndex('users_google_sub_key').on(t.googleSub).where(sql`${t.googleSub} is not null`),
  ],
);

export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 64 }).notNull().unique(),
  createdAt: createdAt(),
});

export const permissions = pgTable('permissions', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 64 }).notNull().unique(),
});

export const rolePermissions = pgTable(
  'role_permissions',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permissionId: integer('permission_id')
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permissionId] })],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index('user_roles_role_idx').on(t.roleId)],
);

/** Opaque bearer tokens: only their SHA-256 is stored, so a database leak yields no usable token. */
export const accessTokens = pgTable(
  'access_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: varchar('token_hash', { length: 64 }).notNull().unique(),
    clientId: text('client_id').notNull(),
    scope: text('scope').notNull().default(''),
    ip: inet('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('access_tokens_user_idx').on(t.userId)],
);

/**
 * One-time codes: 6 digits, only a hash kept, short-lived, a few attempts each. A new code for the
 * same destination and purpose replaces the previous one.
 */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    purpose: varchar('purpose', { length: 32 }).notNull(),
    /** E-mail (lower-cased) or international phone number the code was sent to. */
    destination: text('destination').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Used, or replaced by a newer code. */
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [index('one_time_codes_lookup_idx').on(t.destination, t.purpose, t.createdAt)],
);

/** One official signature as a batch was launched with it. */
export interface SignatureSnapshot {
  kind: string;
  signerName: string;
  signerTitle: string;
  imageKey: string;
  imageSha256: string;
}

/** The official signatures placed on diplomas (spec: settings page), one per kind. */
export const officialSignatures = pgTable('official_signatures', {
  kind: varchar('kind', { length: 32 }).primaryKey(),
  signerName: text('signer_name').notNull(),
  signerTitle: text('signer_title').notNull(),
  /** Key of the processed PNG in file storage. */
  imageKey: text('image_key').notNull(),
  imageSha256: varchar('image_sha256', { length: 64 }).notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  updatedAt: updatedAt(),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

// ---------------------------------------------------------------- issuing

/** Diploma designs: the country's, and schools' custom ones derived from it. */
export const templates = pgTable(
  'templates',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** `country` or `institution`, with the owner's id (spec: `{id}_country`, `{id}_institution`). */
    ownerType: varchar('owner_type', { length: 16 }).notNull(),
    ownerId: integer('owner_id').notNull(),
    generationType: varchar('generation_type', { length: 32 }).notNull(),
    /** The page design (packages/pdf template model). */
    design: jsonb('design').$type<Record<string, unknown>>().notNull(),
    basedOnId: integer('based_on_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('templates_owner_idx').on(t.ownerType, t.ownerId)],
);

/** A generation batch: one list of candidates turned into diplomas together (spec section 3). */
export const generations = pgTable(
  'generations',
  {
    id: serial('id').primaryKey(),
    type: varchar('type', { length: 32 }).notNull(),
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
    status: varchar('status', { length: 32 }).notNull().default('created'),
    signatureStatus: varchar('signature_status', { length: 32 }).notNull().default('not_started'),
    /** The uploaded list, kept as sent (file storage key) until the import job has read it. */
    sourceFileKey: text('source_file_key'),
    /** The photos zip sent beside the list (file storage key), until the import job has extracted it. */
    sourcePhotosKey: text('source_photos_key'),
    /**
     * The official signatures (kinds) chosen at launch that its diplomas carry, and only those;
     * null for a batch launched before the choice existed (every signature configured).
     */
    signatureKinds: text('signature_kinds').array(),
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
    gender: varchar('gender', { length: 1 }).notNull(),
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
    photoStatus: varchar('photo_status', { length: 16 }).notNull().default('pending'),
    dataStatus: varchar('data_status', { length: 16 }).notNull().default('pending'),
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
    index('generation_items_filters_idx').on(t.generationId, t.institutionId, t.centreId, t.optionId),
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
    /** The signed credential document (packages/credential), as embedded in the PDF. */
    credential: jsonb('credential').$type<Record<string, unknown>>().notNull(),
    targetHash: varchar('target_hash', { length: 64 }).notNull(),
    qrPayload: text('qr_payload').notNull(),
    /** Set once the signed PDF is rendered and stored (generation writes the credential first). */
    pdfKey: text('pdf_key'),
    pdfSha256: varchar('pdf_sha256', { length: 64 }),
    pdfBytes: integer('pdf_bytes'),
    signingKeyId: varchar('signing_key_id', { length: 64 }).notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revocationReason: text('revocation_reason'),
    revokedBy: integer('revoked_by').references(() => users.id, { onDelete: 'set null' }),
    revocationTxHash: varchar('revocation_tx_hash', { length: 66 }),
    downloads: integer('downloads').notNull().default(0),
  },
  (t) => [
    index('diplomas_pending_pdf_idx').on(t.generationId).where(sql`${t.pdfKey} is null`),
    uniqueIndex('diplomas_item_key').on(t.itemId),
    uniqueIndex('diplomas_target_hash_key').on(t.targetHash),
    index('diplomas_generation_idx').on(t.generationId),
    index('diplomas_candidate_idx').on(t.candidateCode),
  ],
);

// ---------------------------------------------------------------- audit and counters

/** Every state change: who, what, when, from where. Append-only. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** What identified the actor when there is no account id (e.g. the login name of a failed sign-in). */
    actorLabel: text('actor_label'),
    action: varchar('action', { length: 64 }).notNull(),
    subjectType: varchar('subject_type', { length: 64 }),
    subjectId: text('subject_id'),
    ip: inet('ip'),
    userAgent: text('user_agent'),
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [index('audit_log_at_idx').on(t.at), index('audit_log_actor_idx').on(t.actorId), index('audit_log_action_idx').on(t.action)],
);

/** Rate-limit counters shared by every API process (the table rate-limiter-flexible's PostgreSQL store uses). */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
});

// ---------------------------------------------------------------- student list imports and the national results registry

/**
 * One import of a stored list into a batch, run by the durable `import.candidates` job (ADR 0060):
 * `list` is the batch's own list (created → pending_validation), `append` candidates added later.
 */
export const importations = pgTable(
  'importations',
  {
    id: serial('id').primaryKey(),
    generationId: integer('generation_id')
      .notNull()
      .references(() => generations.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 16 }).notNull(),
    /** queued → running → completed | failed (a failed attempt goes back to queued while retries remain). */
    status: varchar('status', { length: 16 }).notNull().default('queued'),
    fileKey: text('file_key').notNull(),
    photosKey: text('photos_key'),
    rowsTotal: integer('rows_total').notNull().default(0),
    rowsDone: integer('rows_done').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    /** Why it failed: a translation key of the `errors` namespace and its values. */
    errorKey: text('error_key'),
    errorParams: jsonb('error_params').$type<Record<string, unknown>>(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('importations_generation_idx').on(t.generationId),
    // One import at a time per batch.
    uniqueIndex('importations_active_key').on(t.generationId).where(sql`${t.status} in ('queued', 'running')`),
  ],
);

/** The national exam's results per session, as the exam authority exports them (the registry batches can be made from). */
export const nationalResults = pgTable(
  'national_results',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => examSessions.id),
    candidateCode: varchar('candidate_code', { length: 14 }).notNull(),
    lastName: text('last_name').notNull(),
    middleName: text('middle_name'),
    firstName: text('first_name'),
    birthDate: varchar('birth_date', { length: 10 }).notNull(),
    birthPlace: text('birth_place').notNull(),
    gender: varchar('gender', { length: 1 }).notNull(),
    /** Codes as the exam authority gives them (schools, centres and options of the reference data). */
    institutionCode: varchar('institution_code', { length: 16 }).notNull(),
    centreCode: varchar('centre_code', { length: 16 }).notNull(),
    optionCode: varchar('option_code', { length: 16 }).notNull(),
    percentageTenths: integer('percentage_tenths').notNull(),
    passed: boolean('passed').notNull(),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('national_results_session_code_key').on(t.sessionId, t.candidateCode),
    // Classmates: the candidates of a school in a session.
    index('national_results_school_idx').on(t.sessionId, t.institutionCode),
  ],
);

// ---------------------------------------------------------------- distribution (ADR 0080)

/** One broadcast of a published batch to its candidates, run by the `distribution.broadcast` job. */
export const broadcasts = pgTable(
  'broadcasts',
  {
    id: serial('id').primaryKey(),
    generationId: integer('generation_id')
      .notNull()
      .references(() => generations.id, { onDelete: 'cascade' }),
    /** queued → running → completed | failed. */
    status: varchar('status', { length: 16 }).notNull().default('queued'),
    /** The language of the messages. */
    locale: varchar('locale', { length: 2 }).notNull().default('fr'),
    /** Candidates to notify, and what became of them so far. */
    total: integer('total').notNull().default(0),
    sent: integer('sent').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('broadcasts_generation_idx').on(t.generationId, t.createdAt),
    // One broadcast at a time per batch.
    uniqueIndex('broadcasts_active_key').on(t.generationId).where(sql`${t.status} in ('queued', 'running')`),
  ],
);

/** What one broadcast did for one candidate: written once, so a retried job never notifies twice. */
export const broadcastDeliveries = pgTable(
  'broadcast_deliveries',
  {
    broadcastId: integer('broadcast_id')
      .notNull()
      .references(() => broadcasts.id, { onDelete: 'cascade' }),
    itemId: bigint('item_id', { mode: 'number' })
      .notNull()
      .references(() => generationItems.id, { onDelete: 'cascade' }),
    /** sent (at least one channel), skipped (no contact), failed (every channel failed). */
    status: varchar('status', { length: 16 }).notNull(),
    emailSent: boolean('email_sent').notNull().default(false),
    smsSent: boolean('sms_sent').notNull().default(false),
    error: text('error'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.broadcastId, t.itemId] })],
);

/** A batch's zip sent by e-mail (attached, or as an expiring link when large), by the `distribution.archive_mail` job. */
export const archiveMailings = pgTable(
  'archive_mailings',
  {
    id: serial('id').primaryKey(),
    generationId: integer('generation_id')
      .notNull()
      .references(() => generations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    locale: varchar('locale', { length: 2 }).notNull().default('fr'),
    /** queued → sent | failed. */
    status: varchar('status', { length: 16 }).notNull().default('queued'),
    /** attachment or link, once sent. */
    delivery: varchar('delivery', { length: 16 }),
    bytes: bigint('bytes', { mode: 'number' }),
    attempts: integer('attempts').notNull().default(0),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('archive_mailings_generation_idx').on(t.generationId)],
);

// ---------------------------------------------------------------- the public contact form

/** A message sent from the public contact form; also e-mailed to the provider's address (CONTACT_EMAIL). */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    /** An e-mail address or an international phone number (`+243…`), as the sender chose. */
    contact: text('contact').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    locale: varchar('locale', { length: 2 }).notNull(),
    ip: inet('ip'),
    userAgent: text('user_agent'),
    /** When the e-mail to the provider left; null while it has not (a mail relay down). */
    forwardedAt: timestamp('forwarded_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('contact_messages_created_idx').on(t.createdAt)],
);
