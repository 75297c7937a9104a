import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, inet, integer, jsonb, pgTable, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

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
    /**
     * The batch the change belongs to, when there is one (the batch itself, one of its candidates or
     * diplomas): its history screen reads by it. No foreign key: the log outlives swept drafts.
     */
    generationId: integer('generation_id'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_actor_idx').on(t.actorId),
    index('audit_log_action_idx').on(t.action),
    index('audit_log_generation_idx').on(t.generationId, t.id).where(sql`${t.generationId} is not null`),
  ],
);

/** Rate-limit counters shared by every API process (the table rate-limiter-flexible's PostgreSQL store uses). */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
});
