import { z } from 'zod';
import { envelope, pageMeta, pageQuery } from './api.ts';
import { GENDERS } from './constants.ts';
import { GENERATION_STATUSES, generationAbilities, ITEM_VALIDATION_STATES } from './generations.ts';

/**
 * Photo and data validation of a batch's candidates (spec section 7 "Validation", ADR 0070).
 * A candidate is validated when its photo and its data are; a batch is ready for generation when
 * none of its non-rejected candidates is pending (and at least one is left).
 */

/** The batch statuses in which candidates may be validated, rejected or reopened. */
export const VALIDATION_OPEN_STATUSES = ['pending_validation', 'ready_for_generation'] as const;

/** The image editor's limits (the browser's controls use the same). */
export const PHOTO_EDIT_LIMITS = {
  /** Percent, 100 = unchanged (CSS `brightness()`). */
  brightness: { min: 10, max: 300, default: 100 },
  /** Percent, 100 = unchanged (CSS `contrast()`). */
  contrast: { min: 10, max: 300, default: 100 },
  /** Degrees of hue rotation, 0 = unchanged (CSS `hue-rotate()`). */
  hue: { min: -360, max: 360, default: 0 },
  /** Output size in pixels; the stored photo is 300 × 400 by default (the diploma's photo box at 200 dpi). */
  width: { min: 150, max: 600, default: 300 },
  height: { min: 200, max: 800, default: 400 },
  /** The stored JPEG's ceiling. */
  maxBytes: 30_000,
  /** An edited image sent whole (data URL), before decoding. */
  maxUploadBytes: 5 * 1024 * 1024,
  /** At most this many candidates in one bulk call. */
  maxItems: 500,
} as const;

const id = z.coerce.number().int().positive();
const reason = z.string().trim().min(3).max(500);
const named = z.object({ id: z.number().int(), name: z.string() });

// ---------------------------------------------------------------- lists

/** Filters of the photo and data lists; both spellings of the spec (`centre`, `center`). */
export const validationItemsQuery = pageQuery
  .extend({
    search: z.string().trim().max(120).optional(),
    option: id.optional(),
    institution: id.optional(),
    centre: id.optional(),
    center: id.optional(),
    /** Ours: only the candidates whose photo (photo list) or data (data list) is in this state. */
    status: z.enum(ITEM_VALIDATION_STATES).optional(),
  })
  .transform(({ center, centre, ...rest }) => ({ ...rest, centre: centre ?? center }));
export type ValidationItemsQuery = z.infer<typeof validationItemsQuery>;

/**
 * `POST /validations/{photos|data}/{generationId}/validate-all` and `GET …/pending` (its count): every
 * pending candidate matching the list's filter (the same fields, without the page), validated in one
 * call. A rejected or already validated candidate is left alone; on the photo side, so is one without
 * a photo (counted in `without_photo`).
 */
export const validateAllFilter = z
  .object({
    search: z.string().trim().max(120).optional(),
    option: id.optional(),
    institution: id.optional(),
    centre: id.optional(),
    center: id.optional(),
    status: z.enum(ITEM_VALIDATION_STATES).optional(),
  })
  .strict()
  .transform(({ center, centre, ...rest }) => ({ ...rest, centre: centre ?? center }));
export type ValidateAllFilter = z.infer<typeof validateAllFilter>;

/** How many candidates a "validate all pending" would validate now (and, for photos, how many lack one). */
export const pendingCountResponse = envelope(z.object({ count: z.number().int(), without_photo: z.number().int() }));

export const rejectedItemsQuery = pageQuery
  .extend({
    search: z.string().trim().max(120).optional(),
    institution: id.optional(),
    centre: id.optional(),
    center: id.optional(),
  })
  .transform(({ center, centre, ...rest }) => ({ ...rest, centre: centre ?? center }));

export const validationsQuery = pageQuery.extend({
  search: z.string().trim().max(120).optional(),
  status: z.enum(VALIDATION_OPEN_STATUSES).optional(),
});

const stateCounts = z.object({ pending: z.number().int(), validated: z.number().int(), rejected: z.number().int() });

/** A batch as the validation screens show it: its status and where its candidates stand. */
export const validationBatchView = z.object({
  id: z.number().int(),
  title: z.string().nullable(),
  status: z.enum(GENERATION_STATUSES),
  session: named,
  province: named,
  institution: named.nullable(),
  centre: named.nullable(),
  created_at: z.string(),
  counts: z.object({
    items: z.number().int(),
    photos: stateCounts,
    data: stateCounts,
    /** Candidates: validated (photo and data), rejected, pending (the rest). */
    candidates: stateCounts,
  }),
  /** Whether the batch's status accepts validation changes. */
  open: z.boolean(),
  /** What the signed-in user may do on this batch now (the server's policy). */
  abilities: generationAbilities,
});
export type ValidationBatchView = z.infer<typeof validationBatchView>;

export const validationItemView = z.object({
  id: z.number().int(),
  generation_id: z.number().int(),
  candidate_code: z.string(),
  last_name: z.string(),
  middle_name: z.string().nullable(),
  first_name: z.string().nullable(),
  birth_date: z.string(),
  birth_place: z.string(),
  gender: z.enum(GENDERS),
  option: named,
  institution: named,
  centre: named,
  photo_status: z.enum(ITEM_VALIDATION_STATES),
  data_status: z.enum(ITEM_VALIDATION_STATES),
  /** pending, validated (photo and data) or rejected. */
  status: z.enum(ITEM_VALIDATION_STATES),
  /** `/api/validations/photos/{generation}/items/{item}/photo?v=…` (needs the bearer token), or null without a photo. */
  photo_url: z.string().nullable(),
  rejected: z.boolean(),
  rejection_reason: z.string().nullable(),
  rejected_by: named.nullable(),
  rejected_at: z.string().nullable(),
  updated_at: z.string(),
});
export type ValidationItemView = z.infer<typeof validationItemView>;

/** A page of a batch's candidates, with the batch itself (the screen's heading and counters). */
export const validationItemsResponse = z.object({
  data: z.array(validationItemView),
  meta: pageMeta,
  generation: validationBatchView,
});
export const validationsResponse = z.object({ data: z.array(validationBatchView), meta: pageMeta });

/** `GET /validations/{generationId}/filters`: the schools, centres and options of the batch's candidates, by name. */
export const validationFiltersResponse = envelope(z.object({ institutions: z.array(named), centres: z.array(named), options: z.array(named) }));
export type ValidationFilters = z.infer<typeof validationFiltersResponse>['data'];

export const imageToBase64Query = z.object({
  /** A candidate's id, or its `photo_url`. */
  image: z.string().trim().min(1).max(500),
});
export const imageToBase64Response = envelope(z.object({ base64: z.string() }));

// ---------------------------------------------------------------- changes

/**
 * Every change names one candidate (`item`) or several of one batch (`items`); `generation_id`
 * is optional (the batch of the first candidate) and, when sent, every candidate must be of it.
 */
const target = {
  generation_id: id.optional(),
  item: id.optional(),
  items: z.array(id).min(1).max(PHOTO_EDIT_LIMITS.maxItems).optional(),
};
type Target = { item?: number; items?: number[] };
function oneTarget(body: Target, ctx: z.RefinementCtx) {
  if ((body.item === undefined) === (body.items === undefined)) ctx.addIssue({ code: 'custom', message: 'field.validation_item_or_items', path: ['item'] });
}

const range = (r: { min: number; max: number }) => z.number().min(r.min).max(r.max);
const L = PHOTO_EDIT_LIMITS;
export const photoEdits = z
  .object({
    brightness: range(L.brightness).optional(),
    contrast: range(L.contrast).optional(),
    hue: range(L.hue).optional(),
    width: range(L.width).int().optional(),
    height: range(L.height).int().optional(),
    /**
     * What the crop is drawn on and the settings apply to: the stored photo (default), or the
     * candidate's original (`photo/original`, ADR 0147), in whose pixels the crop then is.
     */
    source: z.enum(['photo', 'original']).optional(),
    /** In pixels of the photo as served (`image-to-base64`), or of the original with `source: 'original'`. */
    crop: z
      .object({ x: z.number().int().min(0), y: z.number().int().min(0), w: z.number().int().min(50), h: z.number().int().min(50) })
      .strict()
      .optional(),
  })
  .strict();
export type PhotoEdits = z.infer<typeof photoEdits>;

const DATA_URL = /^data:image\/(jpeg|jpg|png|webp);base64,[A-Za-z0-9+/=\s]+$/;

/**
 * `POST /validations/photos/validate`:
 * - `{ items }` validates several photos unchanged, `{ item }` one;
 * - `{ item, edits }` applies the editor's settings to the stored photo and validates it;
 * - `{ item, image }` stores the editor's result (a data URL) and validates it;
 * - `{ item, reject: true, reason }` rejects it (the same as `POST /validations/photos/reject`).
 */
export const validatePhotosBody = z
  .object({
    ...target,
    edits: photoEdits.optional(),
    image: z
      .string()
      .max(Math.ceil((L.maxUploadBytes * 4) / 3) + 64)
      .regex(DATA_URL, { error: 'field.validation_image_data_url' })
      .optional(),
    reject: z.boolean().optional(),
    reason: reason.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    oneTarget(body, ctx);
    if (body.edits && body.image) ctx.addIssue({ code: 'custom', message: 'field.validation_edits_or_image', path: ['image'] });
    if ((body.edits || body.image || body.reject) && body.items) ctx.addIssue({ code: 'custom', message: 'field.validation_one_item_only', path: ['items'] });
    if (body.reject && (body.edits || body.image)) ctx.addIssue({ code: 'custom', message: 'field.validation_edits_or_image', path: ['reject'] });
    if (body.reject && !body.reason) ctx.addIssue({ code: 'custom', message: 'field.validation_reason_required', path: ['reason'] });
  });
export type ValidatePhotosBody = z.infer<typeof validatePhotosBody>;

/** `POST /validations/photos/reject` and `DELETE /validations/data/reject` (body): one candidate, with the reason. */
export const rejectItemBody = z.object({ generation_id: id.optional(), item: id, reason: z.string({ error: 'field.validation_reason_required' }).pipe(reason) }).strict();

/** Letters of any alphabet, spaces, apostrophes, hyphens and dots (as the list import accepts). */
const NAME = /^[\p{L}\p{M}][\p{L}\p{M} '’.-]*$/u;
const name = z.string().trim().min(1).max(80).regex(NAME, { error: 'field.validation_name' });
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `POST /validations/data/validate`: `{ items }` validates several unchanged; `{ item, ...fields }`
 * corrects the fields sent (the spec's data edit form) and validates.
 */
export const validateDataBody = z
  .object({
    ...target,
    last_name: name.optional(),
    /** Empty or null: none. */
    middle_name: z
      .string()
      .trim()
      .max(80)
      .refine((s) => s === '' || NAME.test(s), { error: 'field.validation_name' })
      .transform((s) => s || null)
      .nullable()
      .optional(),
    first_name: name.optional(),
    birth_place: z.string().trim().min(2).max(80).optional(),
    birth_date: z
      .string()
      .regex(ISO_DATE, { error: 'field.validation_birth_date_format' })
      .refine(
        (s) => {
          const d = new Date(`${s}T00:00:00Z`);
          return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
        },
        { error: 'field.validation_birth_date_invalid' },
      )
      .optional(),
    gender: z.enum(GENDERS).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    oneTarget(body, ctx);
    const edits = ['last_name', 'middle_name', 'first_name', 'birth_place', 'birth_date', 'gender'] as const;
    if (body.items && edits.some((k) => body[k] !== undefined)) ctx.addIssue({ code: 'custom', message: 'field.validation_one_item_only', path: ['items'] });
  });
export type ValidateDataBody = z.infer<typeof validateDataBody>;

/** `POST /validations/photos/reopen` and `/validations/data/reopen`: back to pending (and no longer rejected for it). */
export const reopenItemBody = z.object({ generation_id: id.optional(), item: id }).strict();

/** What every change answers: the candidates as they now are, and the batch. */
export const validationChangeResponse = envelope(
  z.object({
    message: z.string(),
    items: z.array(validationItemView),
    /** Bulk calls: candidates left as they were because they are rejected. */
    skipped: z.array(z.number().int()),
    generation: validationBatchView,
  }),
);
export type ValidationChangeResponse = z.infer<typeof validationChangeResponse>;

/** What "validate all pending" did: how many it validated (and, for photos, how many lack one), and the batch as it now stands. */
export const validateAllResponse = envelope(z.object({ message: z.string(), count: z.number().int(), without_photo: z.number().int(), generation: validationBatchView }));

export const generationIdParam = z.object({ generationId: id });
export const itemPhotoParams = z.object({ generationId: id, itemId: id });

/** `POST /validations/photos/{itemId}/upload` (multipart `photo`): a JPEG, PNG or WebP of at most this size. */
export const PHOTO_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
export const itemIdParam = z.object({ itemId: id });
/** `v` changes with the photo (the `photo_url` the lists give), so a private cache may keep each one. */
export const itemPhotoQuery = z.object({ v: z.string().optional() });
