import { GENDERS, IMPORTATION_STATUSES } from '@sceau/contracts';
import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { createdAt, oneOf, updatedAt } from './columns.ts';
import { generations } from './issuing.ts';
import { examSessions } from './reference-data.ts';

/** Student list imports and the national results registry. */

/** An importation's kind: the batch's own list, or candidates added to it later. */
export const IMPORTATION_KINDS = ['list', 'append'] as const;

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
    kind: varchar('kind', { length: 16, enum: IMPORTATION_KINDS }).notNull(),
    /** queued → running → completed | failed (a failed attempt goes back to queued while retries remain). */
    status: varchar('status', { length: 16, enum: IMPORTATION_STATUSES }).notNull().default('queued'),
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
    oneOf('importations_kind_check', t.kind, IMPORTATION_KINDS),
    oneOf('importations_status_check', t.status, IMPORTATION_STATUSES),
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
    gender: varchar('gender', { length: 1, enum: GENDERS }).notNull(),
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
    oneOf('national_results_gender_check', t.gender, GENDERS),
  ],
);
