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

// ---------------------------------------------------------------- reference data kept by national staff (ADR 0139)

/** Bounds on what national staff send: a school or centre, and an import file of them. */
export const REFERENCE_LIMITS = {
  codeMax: 16,
  nameMax: 160,
  cityMax: 80,
  /** The CSV of schools and centres. */
  importMaxBytes: 1024 * 1024,
  importMaxRows: 5_000,
  /** Row problems listed in one answer. */
  importErrorsListed: 200,
} as const;

/** A place's code: letters, digits and hyphens, upper-cased ("KIN-LUK-C1-E1"). */
export const placeCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9](?:[A-Z0-9-]{0,15})$/, { error: 'field.reference_code' });
const placeName = z.string().trim().min(3).max(REFERENCE_LIMITS.nameMax);
const placeCity = z.string().trim().min(2).max(REFERENCE_LIMITS.cityMax);
const refId = z.coerce.number().int().positive();

export const createCentreRequest = z.object({ code: placeCode, name: placeName, city: placeCity, educ_province_id: refId });
export const createSchoolRequest = z.object({ code: placeCode, name: placeName, city: placeCity, centre_id: refId, option_ids: z.array(refId).max(50).default([]) });
/** Renaming keeps the code (lists and batches name it); the city may change with it. */
export const renamePlaceRequest = z.object({ name: placeName, city: placeCity.optional() });
export type CreateCentreRequest = z.infer<typeof createCentreRequest>;
export type CreateSchoolRequest = z.infer<typeof createSchoolRequest>;
export type RenamePlaceRequest = z.infer<typeof renamePlaceRequest>;

/** `GET /reference-data/places?province=`: what a list of that province may name, within the caller's scope. */
export const provincePlacesQuery = z.object({ province: refId });
export const placeSchool = institution.extend({ centre_code: z.string(), option_codes: z.array(z.string()) });
export const provincePlaces = z.object({
  province: educProvince,
  centres: z.array(centre),
  schools: z.array(placeSchool),
  options: z.array(option),
  /** Whether the caller may add, rename and import schools and centres. */
  abilities: z.object({ manage: z.boolean() }),
});
export const provincePlacesResponse = envelope(provincePlaces);
export type PlaceSchool = z.infer<typeof placeSchool>;
export type ProvincePlaces = z.infer<typeof provincePlaces>;

/** The columns of a schools and centres CSV (`type` is `centre` or `ecole`; a known code renames). */
export const REFERENCE_IMPORT_COLUMNS = ['type', 'code', 'nom', 'ville', 'province', 'centre', 'options'] as const;
export const referenceImportResult = z.object({
  centres: z.object({ created: z.number().int(), renamed: z.number().int(), unchanged: z.number().int() }),
  schools: z.object({ created: z.number().int(), renamed: z.number().int(), unchanged: z.number().int() }),
});
export const referenceImportResponse = envelope(referenceImportResult);
export type ReferenceImportResult = z.infer<typeof referenceImportResult>;
