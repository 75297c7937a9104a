import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  inet,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

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
