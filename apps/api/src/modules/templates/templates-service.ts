import type { TemplateOwnerType } from '@sceau/contracts';
import { and, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { countries, templates } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { Actor } from '../../policies/actor.ts';
import { templatePolicy } from '../../policies/template-policy.ts';
import { findTemplates, presentTemplates } from './templates-repository.ts';

/** The templates `actor` may use, of one owner or all. */
export async function listTemplates(db: Db, actor: Actor, owner: { type: TemplateOwnerType; id: number } | undefined, locale: string) {
  const scope = templatePolicy.visibleCondition(actor);
  const byOwner = owner ? and(eq(templates.ownerType, owner.type), eq(templates.ownerId, owner.id)) : undefined;
  return presentTemplates(db, await findTemplates(db, and(byOwner, scope)), locale);
}

/** One template with its design: by id, or 'country' for the country's Diplôme d'État template. */
export async function templateDetail(db: Db, actor: Actor, which: number | 'country', locale: string) {
  const where = which === 'country' ? await countryTemplate(db) : eq(templates.id, which);
  const scope = templatePolicy.visibleCondition(actor);
  const [row] = await findTemplates(db, and(where, scope));
  if (!row) throw new AppError('not_found');
  const [view] = await presentTemplates(db, [row], locale);
  return { ...view!, design: row.design };
}

async function countryTemplate(db: Db): Promise<SQL> {
  const [congo] = await db.select({ id: countries.id }).from(countries).where(eq(countries.code, 'CD'));
  const [row] = congo
    ? await db
        .select({ id: templates.id })
        .from(templates)
        .where(and(eq(templates.ownerType, 'country'), eq(templates.ownerId, congo.id), eq(templates.generationType, 'diplome_etat')))
        .orderBy(templates.id)
        .limit(1)
    : [];
  if (!row) throw new AppError('not_found');
  return eq(templates.id, row.id);
}
