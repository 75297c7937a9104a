import { boolean, index, integer, pgTable, primaryKey, serial, text, varchar } from 'drizzle-orm/pg-core';

/** Reference data: countries, exam sessions, provinces, options, centres and schools. */

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
