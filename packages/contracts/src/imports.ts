import { z } from 'zod';
import { envelope } from './api.ts';
import { CANDIDATE_CODE_LENGTH, GENDERS } from './constants.ts';
import { GENERATION_TYPES } from './generations.ts';

/**
 * Student lists (spec section 7, step 2): the file's columns, the limits, the checks' codes and the
 * calls' shapes. ADR 0060 explains the choices.
 */

export const IMPORT_LIMITS = {
  /** The list (CSV or XLSX). */
  listMaxBytes: 20 * 1024 * 1024,
  /** The photos zip beside it. */
  photosMaxBytes: 200 * 1024 * 1024,
  /** One photo inside the zip. */
  photoMaxBytes: 10 * 1024 * 1024,
  maxRows: 20_000,
  /** Errors listed in one answer (the count says how many there are in all). */
  maxErrorsListed: 1_000,
} as const;

/**
 * The list's columns, in the example's order. Headers are matched without case, accents,
 * spaces, punctuation or a part in brackets (`Prénom(s)`, `Sexe (M/F)`; `%` reads `pourcent`);
 * the aliases are other spellings met in real lists, French and English. Unknown columns are ignored.
 */
export const IMPORT_COLUMNS = [
  {
    key: 'code_candidat',
    required: true,
    aliases: [
      'code',
      'matricule',
      'candidate_code',
      'code_du_candidat',
      'n_candidat',
      'n_du_candidat',
      'no_candidat',
      'num_candidat',
      'numero_candidat',
      'numero_du_candidat',
      'code_eleve',
      'code_de_l_eleve',
      'matricule_candidat',
      'candidate_number',
      'candidate_id',
      'student_code',
    ],
  },
  { key: 'nom', required: true, aliases: ['last_name', 'nom_de_famille', 'surname', 'family_name', 'lastname'] },
  { key: 'postnom', required: false, aliases: ['post_nom', 'middle_name', 'postnoms', 'post_noms', 'middle_names'] },
  { key: 'prenom', required: true, aliases: ['first_name', 'prenoms', 'first_names', 'firstname', 'given_name', 'given_names'] },
  {
    key: 'date_naissance',
    required: true,
    aliases: ['date_de_naissance', 'birth_date', 'ne_le', 'nee_le', 'naissance', 'date_naiss', 'date_de_naiss', 'date_of_birth', 'birthdate', 'dob'],
  },
  { key: 'lieu_naissance', required: true, aliases: ['lieu_de_naissance', 'birth_place', 'ne_a', 'nee_a', 'lieu_de_naiss', 'place_of_birth', 'birthplace'] },
  { key: 'sexe', required: true, aliases: ['genre', 'gender', 'sex'] },
  { key: 'option', required: true, aliases: ['code_option', 'filiere', 'option_suivie'] },
  { key: 'ecole', required: true, aliases: ['code_ecole', 'etablissement', 'institution', 'school', 'nom_ecole', 'nom_de_l_ecole', 'ecole_d_origine'] },
  { key: 'centre', required: true, aliases: ['code_centre', 'center', 'centre_examen', 'centre_d_examen', 'exam_centre', 'exam_center'] },
  {
    key: 'pourcentage',
    required: true,
    aliases: ['percentage', 'pourcent', 'resultat', 'points', 'pourcentage_obtenu', 'pourcent_obtenu', 'resultat_en_pourcent', 'percent', 'score'],
  },
  { key: 'photo', required: false, aliases: ['fichier_photo', 'image', 'nom_photo', 'photo_file'] },
  { key: 'telephone', required: false, aliases: ['phone', 'tel', 'numero_telephone', 'numero_de_telephone', 'portable', 'gsm', 'mobile', 'phone_number'] },
  { key: 'email', required: false, aliases: ['e_mail', 'mail', 'courriel', 'adresse_email', 'adresse_e_mail', 'email_address', 'adresse_electronique'] },
] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number]['key'];

/** What a problem in a list is called; each has its message (`errors:field.import_<code>`). */
export const IMPORT_ERROR_CODES = [
  'missing_columns',
  'empty_file',
  'too_many_rows',
  'code_required',
  'code_format',
  'code_scientific',
  'code_duplicate_in_file',
  'code_already_imported',
  'last_name_required',
  'first_name_required',
  'name_invalid',
  'birth_date_required',
  'birth_date_format',
  'birth_date_invalid',
  'birth_date_implausible',
  'birth_place_required',
  'gender_required',
  'gender_invalid',
  'option_required',
  'option_unknown',
  'option_ambiguous',
  'school_required',
  'school_unknown',
  'school_ambiguous',
  'school_outside_province',
  'school_outside_scope',
  'centre_required',
  'centre_unknown',
  'centre_ambiguous',
  'centre_mismatch',
  'percentage_required',
  'percentage_invalid',
  'percentage_too_precise',
  'photo_not_in_zip',
  'photo_unreadable',
  'photo_too_large',
  'phone_digits_only',
  'phone_too_short',
  'phone_too_long',
  'phone_length_exact',
  'phone_length_range',
  'email_invalid',
] as const;
export type ImportErrorCode = (typeof IMPORT_ERROR_CODES)[number];

export const PHOTO_WARNINGS = ['photo_too_small', 'photo_landscape'] as const;
export type PhotoWarningCode = (typeof PHOTO_WARNINGS)[number];

/** A usable photo that will print poorly or cropped (ADR 0147): said, never refused. */
export const photoWarningView = z.object({
  row: z.number().int(),
  candidate_code: z.string(),
  file: z.string(),
  code: z.enum(PHOTO_WARNINGS),
  /** In the request's language. */
  message: z.string(),
});
export type PhotoWarningView = z.infer<typeof photoWarningView>;

/** Why a file of a photos zip added to a batch was not used (ADR 0147). */
export const PHOTO_REFUSALS = ['photo_unreadable', 'photo_too_large', 'candidate_rejected', 'photo_duplicate'] as const;
export type PhotoRefusal = (typeof PHOTO_REFUSALS)[number];

/**
 * `POST /generations/:id/photos`' report: each file of the zip given to a candidate of the batch
 * (with its warnings), matched to none, or refused and why. Lists hold the first
 * IMPORT_LIMITS.maxErrorsListed; the counts say how many in all.
 */
export const photoZipReport = z.object({
  message: z.string(),
  generation_id: z.number().int(),
  files: z.number().int(),
  added: z.array(
    z.object({
      file: z.string(),
      candidate_code: z.string(),
      item_id: z.number().int(),
      warnings: z.array(z.object({ code: z.enum(['photo_too_small', 'photo_landscape']), message: z.string() })),
    }),
  ),
  added_count: z.number().int(),
  /** No candidate of this batch has the file's name as its code. */
  unmatched: z.array(z.object({ file: z.string(), message: z.string() })),
  unmatched_count: z.number().int(),
  refused: z.array(z.object({ file: z.string(), candidate_code: z.string().nullable(), code: z.enum(PHOTO_REFUSALS), message: z.string() })),
  refused_count: z.number().int(),
  /** The batch's candidates (not rejected) still without a photo afterwards. */
  without_photo: z.number().int(),
});
export const photoZipResponse = envelope(photoZipReport);
export type PhotoZipReport = z.infer<typeof photoZipReport>;

export const importRowError = z.object({
  /** The line in the file (the header is line 1). */
  row: z.number().int(),
  /** The column's key (see IMPORT_COLUMNS), or null for a problem of the whole file. */
  column: z.string().nullable(),
  code: z.enum(IMPORT_ERROR_CODES),
  /** In the request's language. */
  message: z.string(),
});
export type ImportRowError = z.infer<typeof importRowError>;

const id = z.coerce.number().int().positive();

/**
 * `POST /check-import-file` multipart fields (beside `file` and optional `photos`). The template
 * comes as `template`, `template_id` or `generate_id` (all seen in the spec). With `generation_id`
 * the file replaces the one of that draft (a re-upload after fixing the list).
 */
export const checkImportFields = z
  .object({
    template: id.optional(),
    template_id: id.optional(),
    generate_id: id.optional(),
    generation_type: z.enum(GENERATION_TYPES).optional(),
    session_id: id,
    province_id: id,
    generation_id: id.optional(),
  })
  .transform(({ template, template_id, generate_id, ...rest }, ctx) => {
    const templateId = template ?? template_id ?? generate_id;
    if (templateId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['template'], message: 'field.required' });
      return z.NEVER;
    }
    return { ...rest, template_id: templateId };
  });

export const importCheckResult = z.object({
  generation_id: z.number().int(),
  /** Data lines read (blank lines skipped). */
  rows: z.number().int(),
  valid_rows: z.number().int(),
  /** Every problem, up to IMPORT_LIMITS.maxErrorsListed; `error_count` says how many in all. */
  errors: z.array(importRowError),
  error_count: z.number().int(),
  format: z.enum(['csv', 'xlsx', 'ods']),
  /** The sheet read (null for a CSV), and every sheet of the workbook in order: another can be asked for with the form's `sheet`. */
  sheet: z.string().nullable(),
  sheets: z.array(z.string()),
  /** Lines under the header left out as not being candidates (totals, signatures, notes, a repeated header), with their text (the first 100). */
  ignored: z.array(z.object({ row: z.number().int(), text: z.string() })),
  /**
   * With a zip: its files, the rows it gives a photo, every row left without one (named, not
   * counted), and the photos that will print poorly (ADR 0147: warnings, the row is imported).
   */
  photos: z
    .object({
      files: z.number().int(),
      matched: z.number().int(),
      missing: z.array(z.object({ row: z.number().int(), candidate_code: z.string() })),
      warnings: z.array(photoWarningView),
    })
    .nullable(),
  /** The stored list this check is of (a list check's answer): sent back with the start, which refuses a draft holding another list since (ADR 0143). */
  list_id: z.string().optional(),
});
export const importCheckResponse = envelope(importCheckResult);

/** `start-import-process`: `title` or `titre`; `list_id`, the check's, when the page has it. */
export const startImportRequest = z
  .object({ generation_id: id, title: z.string().trim().optional(), titre: z.string().trim().optional(), list_id: z.string().max(64).optional() })
  .transform(({ generation_id, title, titre, list_id }) => ({ generation_id, title: title || titre || '', ...(list_id === undefined ? {} : { list_id }) }))
  .pipe(z.object({ generation_id: z.number().int(), title: z.string().min(3).max(200), list_id: z.string().max(64).optional() }));

export const startImportResponse = envelope(z.object({ importation_id: z.number().int() }));

export const IMPORTATION_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ImportationStatus = (typeof IMPORTATION_STATUSES)[number];

export const importationTracking = z.object({
  id: z.number().int(),
  generation_id: z.number().int(),
  status: z.enum(IMPORTATION_STATUSES),
  rows_total: z.number().int(),
  rows_done: z.number().int(),
  /** 100 only once completed. */
  percent: z.number().int().min(0).max(100),
  /** Why it failed (or why the last attempt failed, while it is retried), translated. */
  error: z.string().nullable(),
});
export const importationTrackingResponse = envelope(importationTracking);

/** `GET /importations`: the signed-in user's imports, newest first; `active=true`: only those queued or running. */
export const importationsQuery = z.object({ active: z.enum(['true', 'false']).optional() });
export const importationSummary = importationTracking.extend({
  kind: z.enum(['list', 'append']),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  /** The batch it fills: its template leads back to the step 2 page. */
  generation: z.object({ id: z.number().int(), title: z.string().nullable(), template_id: z.number().int(), status: z.string() }),
});
export type ImportationSummary = z.infer<typeof importationSummary>;
export const importationsResponse = envelope(z.array(importationSummary));
/** At most this many in one answer (the most recent). */
export const IMPORTATIONS_LISTED = 20;
/** Finished imports stay listed this long. */
export const IMPORTATIONS_RECENT_DAYS = 7;

/** `POST import/candidates` multipart fields (beside `file` and optional `photos`). */
export const importCandidatesFields = z.object({ generation_id: id });
/** The check's answer; `importation_id` is set when the rows were accepted and their import queued. */
export const importCandidatesResponse = envelope(importCheckResult.extend({ importation_id: z.number().int().nullable() }));

export const importExampleQuery = z.object({ format: z.enum(['csv', 'xlsx']).default('csv') });
/** An export back to schools (a list check's errors, a batch's rejected candidates): XLSX, or a CSV for French Excel (ADR 0143). */
export const exportFormatQuery = z.object({ format: z.enum(['xlsx', 'csv']).default('xlsx') });

// ---------------------------------------------------------------- national results registry

export const candidateCode = z
  .string()
  .trim()
  .regex(new RegExp(`^\\d{${CANDIDATE_CODE_LENGTH}}$`), { error: 'field.candidate_code' });

/** A session by id, by year (2026) or by name ("Session 2026"). */
export const sessionRef = z.union([z.number().int().positive(), z.string().trim().min(1).max(40)]);

/**
 * The national exam's short name in the registry's paths (`/generations/find-{product}`,
 * `/generations/import/from-{product}cd`): the API serves its configured one only (`PRODUCT`).
 */
export const productParam = z.object({ product: z.string() });
/** The registry's name in `from-{registry}`: the product and `cd` (`exetatcd`). */
export const registryParam = z.object({ registry: z.string() });
export const registryName = (product: string) => `${product}cd`;

export const findResultRequest = z.object({ matricule: candidateCode, session: sessionRef });

const coded = z.object({ code: z.string(), name: z.string().nullable() });

export const nationalResultView = z.object({
  candidate_code: z.string(),
  last_name: z.string(),
  middle_name: z.string().nullable(),
  first_name: z.string().nullable(),
  birth_date: z.string(),
  birth_place: z.string(),
  gender: z.enum(GENDERS),
  school: coded,
  centre: coded,
  option: coded,
  percentage: z.number(),
  passed: z.boolean(),
  session: z.object({ id: z.number().int(), name: z.string(), year: z.number().int() }),
});
export const nationalResultResponse = envelope(nationalResultView);

export const fromRegistryRequest = z
  .object({ template_id: id, session_id: id, province_id: id, title: z.string().trim().max(200).optional(), titre: z.string().trim().max(200).optional() })
  .transform(({ title, titre, ...rest }) => ({ ...rest, title: title || titre || null }));
/** `skipped`: passed candidates left out because the platform does not know their school, centre or option. */
export const fromRegistryResponse = envelope(z.object({ generation_id: z.number().int(), importation_id: z.number().int(), rows: z.number().int(), skipped: z.number().int() }));
