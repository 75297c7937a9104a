import type { TemplateOwnerType, TemplateView } from '@sceau/contracts';
import { asc, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { countries, institutions, templates } from '../../db/schema.ts';

type TemplateRow = typeof templates.$inferSelect;

export async function findTemplates(db: Db, where: SQL | undefined): Promise<TemplateRow[]> {
  return db.select().from(templates).where(where).orderBy(asc(templates.ownerType), asc(templates.id));
}

/** Owners' names, in the request's language for countries. */
export async function presentTemplates(db: Db, rows: TemplateRow[], locale: string): Promise<TemplateView[]> {
  const ids = (type: TemplateOwnerType) => [...new Set(rows.filter((r) => r.ownerType === type).map((r) => r.ownerId))];
  const countryIds = ids('country');
  const schoolIds = ids('institution');
  const countryRows = countryIds.length ? await db.select().from(countries).where(inArray(countries.id, countryIds)) : [];
  const schoolRows = schoolIds.length ? await db.select({ id: institutions.id, name: institutions.name }).from(institutions).where(inArray(institutions.id, schoolIds)) : [];
  const name = (type: string, id: number) =>
    type === 'country'
      ? (() => {
          const c = countryRows.find((x) => x.id === id);
          return c ? (locale === 'en' ? c.nameEn : c.nameFr) : '';
        })()
      : (schoolRows.find((x) => x.id === id)?.name ?? '');
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    owner: { type: r.ownerType as TemplateOwnerType, id: r.ownerId, name: name(r.ownerType, r.ownerId), key: `${r.ownerId}_${r.ownerType}` },
    generation_type: r.generationType,
    based_on_id: r.basedOnId,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }));
}
