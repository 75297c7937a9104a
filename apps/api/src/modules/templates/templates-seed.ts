import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { educProvinces, institutions, templates } from '../../db/schema.ts';

/** The school that holds the demo's custom template (the demo batch's school: the first of Kinshasa-Funa). */
async function demoSchool(db: Db) {
  const [province] = await db.select().from(educProvinces).where(eq(educProvinces.code, 'KIN-FUN'));
  if (!province) return null;
  const [school] = await db.select().from(institutions).where(eq(institutions.educProvinceId, province.id)).orderBy(institutions.id).limit(1);
  return school ?? null;
}

/**
 * A school's custom template made from the country's (demo data): the same design with the
 * school's name in the title and its own colour. Idempotent.
 */
export async function seedSchoolTemplate(db: Db, countryTemplateId: number): Promise<number | null> {
  const school = await demoSchool(db);
  if (!school) return null;
  const [existing] = await db
    .select({ id: templates.id })
    .from(templates)
    .where(and(eq(templates.ownerType, 'institution'), eq(templates.ownerId, school.id), eq(templates.basedOnId, countryTemplateId)));
  if (existing) return existing.id;
  const [country] = await db.select().from(templates).where(eq(templates.id, countryTemplateId));
  if (!country) return null;
  const name = `Diplôme d'État — ${school.name}`;
  // The country's navy becomes the school's burgundy; the design is otherwise the same.
  const design = JSON.parse(JSON.stringify(country.design).replaceAll('#1d3461', '#6d1f33')) as Record<string, unknown>;
  design.id = `${school.code.toLowerCase()}-diplome-etat`;
  design.name = name;
  const [created] = await db
    .insert(templates)
    .values({ name, ownerType: 'institution', ownerId: school.id, generationType: country.generationType, design, basedOnId: country.id })
    .returning({ id: templates.id });
  return created!.id;
}
