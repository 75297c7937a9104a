import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { createdAt } from './columns.ts';
import { diplomas } from './issuing.ts';

/** The holder's side (ADR 0132). */

/**
 * A link a diploma's holder made to show it to someone, for a while: only the SHA-256 of its secret
 * is kept; it opens until `expires_at` (never when null) unless revoked, and only while its maker
 * still holds the diploma.
 */
export const shareLinks = pgTable(
  'share_links',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    diplomaId: varchar('diploma_id', { length: 22 })
      .notNull()
      .references(() => diplomas.id, { onDelete: 'cascade' }),
    tokenHash: varchar('token_hash', { length: 64 }).notNull().unique(),
    /** The holder's note (to whom it was given), at most 80 characters. */
    label: text('label'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    opens: integer('opens').notNull().default(0),
    lastOpenedAt: timestamp('last_opened_at', { withTimezone: true }),
    /** The optional fields the link shows, its maker's choice (ADR 0152); the others are kept back. */
    disclosed: text('disclosed').array().notNull().default(sql`ARRAY['birth_date', 'school', 'percentage', 'photo']::text[]`),
  },
  (t) => [
    index('share_links_user_idx').on(t.userId, t.createdAt),
    index('share_links_diploma_idx').on(t.diplomaId),
    check('share_links_label_length_check', sql`char_length(${t.label}) <= 80`),
    check('share_links_disclosed_check', sql`${t.disclosed} <@ ARRAY['birth_date', 'birth_place', 'school', 'percentage', 'photo']::text[]`),
  ],
);
