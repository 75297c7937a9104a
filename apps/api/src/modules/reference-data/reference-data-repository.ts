import { and, asc, eq, exists, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { byName } from '../../db/schema/folded.ts';
import { centres, countries, educProvinces, examSessions, institutionOptions, institutions, options } from '../../db/schema.ts';

export async function listCountries(db: Db, locale: 'fr' | 'en') {
  const rows = await db
    .select()
    .from(countries)
    .orderBy(sql`${countries.isDefault} desc`, asc(byName(locale === 'fr' ? countries.nameFr : countries.nameEn)));
  return rows.map((c) => ({
    id: c.id,
    code: c.code,
    name: locale === 'fr' ? c.nameFr : c.nameEn,
    dial_code: c.dialCode,
    is_default: c.isDefault,
  }));
}

export async function listSessions(db: Db) {
  const rows = await db.select().from(examSessions).orderBy(sql`${examSessions.year} desc`);
  return rows.map((s) => ({ id: s.id, name: s.name, year: s.year, is_current: s.isCurrent }));
}

export async function listEducProvinces(db: Db) {
  return db
    .select({ id: educProvinces.id, code: educProvinces.code, name: educProvinces.name, province: educProvinces.province })
    .from(educProvinces)
    .orderBy(asc(byName(educProvinces.name)));
}

export async function listOptions(db: Db) {
  return db
    .select({ id: options.id, code: options.code, name: options.name, section: options.section })
    .from(options)
    .orderBy(asc(byName(options.section)), asc(byName(options.name)));
}

const centreColumns = {
  id: centres.id,
  code: centres.code,
  name: centres.name,
  city: centres.city,
  educ_province_id: centres.educProvinceId,
};

export async function findCentre(db: Db, id: number) {
  const [row] = await db.select(centreColumns).from(centres).where(eq(centres.id, id)).limit(1);
  return row ?? null;
}

export async function listCentresOfProvince(db: Db, provinceId: number) {
  return db
    .select(centreColumns)
    .from(centres)
    .where(eq(centres.educProvinceId, provinceId))
    .orderBy(asc(byName(centres.name)));
}

/** The centres where at least one school presents candidates in the option. */
export async function listCentresOfferingOption(db: Db, optionId: number) {
  return db
    .select(centreColumns)
    .from(centres)
    .where(
      exists(
        db
          .select({ one: sql`1` })
          .from(institutions)
          .innerJoin(institutionOptions, eq(institutionOptions.institutionId, institutions.id))
          .where(and(eq(institutions.centreId, centres.id), eq(institutionOptions.optionId, optionId))),
      ),
    )
    .orderBy(asc(byName(centres.name)));
}

const institutionColumns = {
  id: institutions.id,
  code: institutions.code,
  name: institutions.name,
  city: institutions.city,
  country_id: institutions.countryId,
  centre_id: institutions.centreId,
  educ_province_id: institutions.educProvinceId,
};

export async function findInstitution(db: Db, id: number) {
  const [row] = await db.select(institutionColumns).from(institutions).where(eq(institutions.id, id)).limit(1);
  return row ?? null;
}

/** The schools of a centre, optionally only those teaching an option. */
export async function listInstitutions(db: Db, filter: { centre?: number; option?: number; country?: number }) {
  const conditions = [];
  if (filter.centre !== undefined) conditions.push(eq(institutions.centreId, filter.centre));
  if (filter.country !== undefined) conditions.push(eq(institutions.countryId, filter.country));
  if (filter.option !== undefined)
    conditions.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(institutionOptions)
          .where(and(eq(institutionOptions.institutionId, institutions.id), eq(institutionOptions.optionId, filter.option))),
      ),
    );
  return db
    .select(institutionColumns)
    .from(institutions)
    .where(and(...conditions))
    .orderBy(asc(byName(institutions.name)));
}
