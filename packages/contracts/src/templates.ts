import { z } from 'zod';
import { envelope } from './api.ts';
import { GENERATION_TYPES } from './generations.ts';

/**
 * Diploma templates (spec section 7, step 1): the country's and schools' custom ones.
 * An owner is spelled `{id}_country` / `{id}_institution` (the spec) or `country_{id}` / `institution_{id}`.
 */
export const TEMPLATE_OWNER_TYPES = ['country', 'institution'] as const;
export type TemplateOwnerType = (typeof TEMPLATE_OWNER_TYPES)[number];

const OWNER = /^(?:(\d+)_(country|institution)|(country|institution)_(\d+))$/;

export const templateOwner = z
  .string()
  .trim()
  .regex(OWNER, { error: 'field.template_owner' })
  .transform((value) => {
    const m = OWNER.exec(value)!;
    return m[1] ? { type: m[2] as TemplateOwnerType, id: Number(m[1]) } : { type: m[3] as TemplateOwnerType, id: Number(m[4]) };
  });

export const templatesQuery = z.object({ owner: templateOwner.optional() });

export const templateView = z.object({
  id: z.number().int(),
  name: z.string(),
  owner: z.object({ type: z.enum(TEMPLATE_OWNER_TYPES), id: z.number().int(), name: z.string(), key: z.string() }),
  generation_type: z.string(),
  based_on_id: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TemplateView = z.infer<typeof templateView>;

/** With its design: the page model of packages/pdf (texts, colours, positions). */
export const templateDetail = templateView.extend({ design: z.record(z.string(), z.unknown()) });

export const templatesResponse = envelope(z.array(templateView));
export const templateResponse = envelope(templateDetail);

export const generationTypeView = z.object({ code: z.enum(GENERATION_TYPES), label: z.string() });
export const generationTypesResponse = envelope(z.array(generationTypeView));
