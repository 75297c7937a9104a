import { LOCALES } from '@sceau/contracts';
import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, inet, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, oneOf, updatedAt } from './columns.ts';
import { foldedOf } from './folded.ts';
import { centres, educProvinces, institutions } from './reference-data.ts';

/** People and access: accounts, roles, tokens and one-time codes. */

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
    locale: varchar('locale', { length: 2, enum: LOCALES }).notNull().default('fr'),
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
    // User management searches accounts by name, accents and case aside (ADR 0139).
    index('users_search_idx').using('gin', sql`${foldedOf(t.name, t.firstName)} gin_trgm_ops`),
    oneOf('users_locale_check', t.locale, LOCALES),
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
