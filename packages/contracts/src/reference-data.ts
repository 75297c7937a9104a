import { z } from 'zod';
import { envelope } from './api.ts';

export const country = z.object({
  id: z.number().int(),
  code: z.string().length(2),
  name: z.string(),
  dial_code: z.string(),
  is_default: z.boolean(),
});
export const examSession = z.object({
  id: z.number().int(),
  name: z.string(),
  year: z.number().int(),
  is_current: z.boolean(),
});
export const educProvince = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  province: z.string(),
});
export const option = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  section: z.string(),
});
export const centre = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  city: z.string(),
  educ_province_id: z.number().int(),
});
export const institution = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  city: z.string(),
  country_id: z.number().int(),
  centre_id: z.number().int(),
  educ_province_id: z.number().int(),
});

/** A query value that is either an id or a bare flag (`?centre`), the flag meaning "the path's id". */
const idOrFlag = z.union([z.literal(''), z.coerce.number().int().positive()]);

/** Both spellings of the spec are accepted: `centre` and `center`. */
export const institutionsQuery = z
  .object({ centre: idOrFlag.optional(), center: idOrFlag.optional(), option: z.coerce.number().int().positive().optional() })
  .transform(({ centre, center, option }) => ({ centre: centre ?? center, option }));

/** `GET /centres?province=`: the exam centres of an educational province. */
export const centresByProvinceQuery = z.object({ province: z.coerce.number().int().positive() });

/** `GET centres/{id}?option`: with the flag, `{id}` is an option and the answer its centres. */
export const centresQuery = z.object({ option: z.string().optional() });

export const countriesResponse = envelope(z.object({ data: z.array(country) }));
export const sessionsResponse = envelope(z.array(examSession));
export const educProvincesResponse = envelope(z.array(educProvince));
export const optionsResponse = envelope(z.array(option));
export const centreResponse = envelope(centre);
export const centresResponse = envelope(z.array(centre));
export const institutionResponse = envelope(institution);
export const institutionsResponse = envelope(z.array(institution));

export type Country = z.infer<typeof country>;
export type ExamSession = z.infer<typeof examSession>;
export type EducProvince = z.infer<typeof educProvince>;
export type Option = z.infer<typeof option>;
export type Centre = z.infer<typeof centre>;
export type Institution = z.infer<typeof institution>;
