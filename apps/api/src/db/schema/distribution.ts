import { BROADCAST_STATUSES, LOCALES } from '@sceau/contracts';
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { createdAt, oneOf } from './columns.ts';
import { generationItems, generations } from './issuing.ts';

/** Distribution of published batches (ADR 0080). */

/** What became of one candidate in a broadcast. */
export const DELIVERY_STATUSES = ['sent', 'skipped', 'failed'] as const;

/** A batch's zip by e-mail: queued → sent | failed; sent attached, or as a link when large. */
export const ARCHIVE_MAILING_STATUSES = ['queued', 'sent', 'failed'] as const;
export const ARCHIVE_DELIVERIES = ['attachment', 'link'] as const;

/** One broadcast of a published batch to its candidates, run by the `distribution.broadcast` job. */
export const broadcasts = pgTable(
  'broadcasts',
  {
    id: serial('id').primaryKey(),
    generationId: integer('generation_id')
      .notNull()
      .references(() => generations.id, { onDelete: 'cascade' }),
    /** queued → running → completed | failed. */
    status: varchar('status', { length: 16, enum: BROADCAST_STATUSES }).notNull().default('queued'),
    /** The language of the messages. */
    locale: varchar('locale', { length: 2, enum: LOCALES }).notNull().default('fr'),
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
    oneOf('broadcasts_status_check', t.status, BROADCAST_STATUSES),
    oneOf('broadcasts_locale_check', t.locale, LOCALES),
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
    status: varchar('status', { length: 16, enum: DELIVERY_STATUSES }).notNull(),
    emailSent: boolean('email_sent').notNull().default(false),
    smsSent: boolean('sms_sent').notNull().default(false),
    error: text('error'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.broadcastId, t.itemId] }), oneOf('broadcast_deliveries_status_check', t.status, DELIVERY_STATUSES)],
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
    locale: varchar('locale', { length: 2, enum: LOCALES }).notNull().default('fr'),
    /** queued → sent | failed. */
    status: varchar('status', { length: 16, enum: ARCHIVE_MAILING_STATUSES }).notNull().default('queued'),
    /** attachment or link, once sent. */
    delivery: varchar('delivery', { length: 16, enum: ARCHIVE_DELIVERIES }),
    bytes: bigint('bytes', { mode: 'number' }),
    attempts: integer('attempts').notNull().default(0),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('archive_mailings_generation_idx').on(t.generationId),
    oneOf('archive_mailings_status_check', t.status, ARCHIVE_MAILING_STATUSES),
    // Null until sent; a CHECK lets null through.
    oneOf('archive_mailings_delivery_check', t.delivery, ARCHIVE_DELIVERIES),
    oneOf('archive_mailings_locale_check', t.locale, LOCALES),
  ],
);
