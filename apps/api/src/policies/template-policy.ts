import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { institutions, templates } from '../db/schema.ts';
import type { Actor } from './actor.ts';
import type { Decision } from './policy.ts';
import { isWithin, withinCondition, type Scope } from './scope.ts';

/** What the template rule reads: a country template, or a school's own, with the school's place. */
export interface TemplateFacts {
  ownerType: string;
  /** The owning school's place, for a school's template. */
  school: Scope | null;
}

/**
 * Diploma templates: every country template is everyone's; a school's own template is seen and
 * used only by staff whose scope holds that school.
 */
export const templatePolicy = {
  visibleCondition(actor: Actor): SQL | undefined {
    const schools = withinCondition(actor.scope, { institutionId: institutions.id, centreId: institutions.centreId, educProvinceId: institutions.educProvinceId });
    if (!schools) return undefined;
    return or(
      eq(templates.ownerType, 'country'),
      and(eq(templates.ownerType, 'institution'), inArray(templates.ownerId, sql`(select ${institutions.id} from ${institutions} where ${schools})`)),
    );
  },

  use(actor: Actor, template: TemplateFacts): Decision {
    if (template.ownerType !== 'institution') return true;
    return template.school && isWithin(actor.scope, template.school) ? true : 'hidden';
  },
};
