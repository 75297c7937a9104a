import { z } from 'zod';
import { envelope, paged, pageMeta, pageQuery } from './api.ts';
import { SIGNATURE_KINDS } from './accounts.ts';
import { DIPLOMA_ID_PATTERN, GENDERS } from './constants.ts';

/**
 * Generation batches (spec sections 3 and 4): their statuses, the signature statuses, and the only
 * transitions allowed between them. The server refuses any other move; the web app reads the same
 * table to know which actions to offer.
 */

export const GENERATION_STATUSES = ['created', 'pending_validation', 'ready_for_generation', 'in_progress', 'ready_for_signature', 'completed', 'failed', 'cancelled'] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];

export const SIGNATURE_STATUSES = ['not_started', 'in_progress', 'finished'] as const;
export type SignatureStatus = (typeof SIGNATURE_STATUSES)[number];

/**
 * created             the list is stored; candidates are being imported
 * pending_validation  candidates imported; photos and data being validated
 * ready_for_generation every candidate validated or rejected
 * in_progress         launched with a one-time code; credentials and PDFs being generated
 * ready_for_signature generated; waiting for the official signature (anchoring)
 * completed           signed and anchored: published, verifiable
 * failed              import or generation failed; may be retried
 * cancelled           withdrawn before publication
 */
export const GENERATION_TRANSITIONS: Record<GenerationStatus, readonly GenerationStatus[]> = {
  created: ['pending_validation', 'failed', 'cancelled'],
  pending_validation: ['ready_for_generation', 'cancelled'],
  ready_for_generation: ['pending_validation', 'in_progress', 'cancelled'],
  in_progress: ['ready_for_signature', 'failed'],
  ready_for_signature: ['completed', 'cancelled'],
  completed: [],
  failed: ['created', 'in_progress', 'cancelled'],
  cancelled: [],
};

export const SIGNATURE_TRANSITIONS: Record<SignatureStatus, readonly SignatureStatus[]> = {
  not_started: ['in_progress'],
  // Anchoring retries stay "in progress": only a mined transaction moves it to finished. Back to not
  // started only when the batch's signing key was retired before its root was written (ADR 0148).
  in_progress: ['finished', 'not_started'],
  finished: [],
};

export function canMoveGeneration(from: GenerationStatus, to: GenerationStatus): boolean {
  return GENERATION_TRANSITIONS[from].includes(to);
}

export function canMoveSignature(from: SignatureStatus, to: SignatureStatus): boolean {
  return SIGNATURE_TRANSITIONS[from].includes(to);
}

/** The status of a published batch: signed and anchored, its diplomas verify as issued. */
export const PUBLISHED_STATUS = 'completed' satisfies GenerationStatus;

/** A batch is published (its diplomas verify as issued) only once completed. */
export function isPublished(status: GenerationStatus): boolean {
  return status === PUBLISHED_STATUS;
}

export const ITEM_VALIDATION_STATES = ['pending', 'validated', 'rejected'] as const;
export type ItemValidationState = (typeof ITEM_VALIDATION_STATES)[number];

export const GENERATION_TYPES = ['diplome_etat', 'attestation_reussite'] as const;
export type GenerationType = (typeof GENERATION_TYPES)[number];

// ---------------------------------------------------------------- API shapes

const named = z.object({ id: z.number().int(), name: z.string() });

export const generationAbilities = z.object({
  view: z.boolean(),
  import_list: z.boolean(),
  /** Add a photos zip to its candidates (ADR 0147): until launch. */
  add_photos: z.boolean(),
  validate_photos: z.boolean(),
  validate_data: z.boolean(),
  view_rejected: z.boolean(),
  launch: z.boolean(),
  sign: z.boolean(),
  cancel: z.boolean(),
  download_all: z.boolean(),
  download_one: z.boolean(),
  share_by_email: z.boolean(),
  broadcast: z.boolean(),
  revoke: z.boolean(),
  /** Open a "SPÉCIMEN" preview PDF of any of its candidates (those who may launch, before and after). */
  preview: z.boolean(),
  /** Read the batch's history: who did what, when (its staff). */
  view_history: z.boolean(),
});
export type GenerationAbilities = z.infer<typeof generationAbilities>;

/** A refused action's reason: a key of the `errors` catalogue (`field.…`) and its interpolation values. */
export const abilityRefusal = z.object({ key: z.string(), params: z.record(z.string(), z.unknown()) });
export type AbilityRefusal = z.infer<typeof abilityRefusal>;

export const generationView = z.object({
  id: z.number().int(),
  type: z.string(),
  title: z.string().nullable(),
  template_id: z.number().int(),
  session: named,
  province: named,
  institution: named.nullable(),
  centre: named.nullable(),
  option: named.nullable(),
  status: z.enum(GENERATION_STATUSES),
  signature_status: z.enum(SIGNATURE_STATUSES),
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
  counts: z.object({ items: z.number().int(), rejected: z.number().int(), diplomas: z.number().int() }),
  merkle_root: z.string().nullable(),
  anchor: z.object({ chain_id: z.number().int(), contract: z.string(), tx_hash: z.string(), block_number: z.number().int(), anchored_at: z.string() }).nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  published_at: z.string().nullable(),
  /** When the whole batch was revoked (its root revoked on the registry), with the reason. */
  revoked_at: z.string().nullable(),
  revocation_reason: z.string().nullable(),
  /** What the signed-in user may do on this batch now (the server's policy, scope and state included). */
  abilities: generationAbilities,
  /**
   * Why an ability is refused when the policy says why (a message of the `errors` catalogue and its
   * values), for the web to show in place of the action: `sign` of a batch made with a signing key
   * since retired (ADR 0148).
   */
  refusals: z.partialRecord(generationAbilities.keyof(), abilityRefusal),
});
export type GenerationView = z.infer<typeof generationView>;

export const generationItemView = z.object({
  id: z.number().int(),
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
  percentage: z.number(),
  photo_status: z.enum(ITEM_VALIDATION_STATES),
  data_status: z.enum(ITEM_VALIDATION_STATES),
  rejected: z.boolean(),
  rejection_reason: z.string().nullable(),
  diploma: z
    .object({
      id: z.string(),
      /** The serial printed on it (`DE-2026-0428715-8`); null for a diploma issued before serials. */
      serial: z.string().nullable(),
      has_pdf: z.boolean(),
      revoked: z.boolean(),
      downloads: z.number().int(),
    })
    .nullable(),
});
export type GenerationItemView = z.infer<typeof generationItemView>;

export const generationsByUserQuery = pageQuery.extend({
  search: z.string().trim().max(120).optional(),
  session: z.coerce.number().int().positive().optional(),
});
export const generationsResponse = z.object({ data: z.array(generationView), meta: pageMeta });

/** Both spellings of the spec: `centre` and `center`. */
export const generationItemsQuery = pageQuery
  .extend({
    search: z.string().trim().max(120).optional(),
    institution: z.coerce.number().int().positive().optional(),
    centre: z.coerce.number().int().positive().optional(),
    center: z.coerce.number().int().positive().optional(),
  })
  .transform(({ center, centre, ...rest }) => ({ ...rest, centre: centre ?? center }));

export const generationDetailResponse = z.object({
  data: generationView.extend({ items: z.array(generationItemView) }),
  meta: pageMeta,
});
export const generationResponse = envelope(generationView);

// ---------------------------------------------------------------- what a scope has issued (the dashboard's charts)

export const generationStatsQuery = z.object({ session: z.coerce.number().int().positive().optional() });

/**
 * Batches, and diplomas generated (a cancelled batch keeps none): published (of a completed batch,
 * not revoked), revoked (one by one or with their batch); the rest are not published yet.
 */
const issuedCounts = z.object({
  batches: z.number().int(),
  diplomas: z.number().int(),
  published: z.number().int(),
  revoked: z.number().int(),
});
export type IssuedCounts = z.infer<typeof issuedCounts>;

export const generationStats = z.object({
  /** The session the figures are limited to, or null for every session. */
  session: named.nullable(),
  totals: issuedCounts,
  by_session: z.array(issuedCounts.extend({ session: named.extend({ year: z.number().int() }) })),
  by_province: z.array(issuedCounts.extend({ province: named })),
  /** Every status, in the order of GENERATION_STATUSES, even at zero. */
  by_status: z.array(issuedCounts.extend({ status: z.enum(GENERATION_STATUSES) })),
});
export type GenerationStats = z.infer<typeof generationStats>;
export const generationStatsResponse = envelope(generationStats);

// ---------------------------------------------------------------- the launch: which official signatures

/**
 * `POST /start-generation-process` and `POST /generations/start`: `signatures` are the official
 * signatures (kinds, each active on /settings) the batch's diplomas carry, and only those; omitted:
 * the batch's earlier choice (a relaunch), else every active signature.
 */
export const startGenerationRequest = z.object({
  generation_id: z.coerce.number().int().positive(),
  signatures: z
    .array(z.enum(SIGNATURE_KINDS))
    .min(1, { error: 'field.launch_signatures_required' })
    .max(SIGNATURE_KINDS.length)
    .refine((kinds) => new Set(kinds).size === kinds.length, { error: 'field.launch_signatures_duplicate' })
    .optional(),
});
export type StartGenerationRequest = z.infer<typeof startGenerationRequest>;

/** What the launch page offers: the active signatures, the batch's choice, and whether it may still change. */
export const launchSignatures = z.object({
  available: z.array(z.object({ kind: z.enum(SIGNATURE_KINDS), name: z.string(), title: z.string() })),
  /** The batch's choice (an earlier launch), or null. */
  chosen: z.array(z.enum(SIGNATURE_KINDS)).nullable(),
  /** Some diplomas were already printed with `chosen` (a relaunch after a failure): it cannot change. */
  locked: z.boolean(),
  /**
   * The signed-in user's launch code for this batch, so that the step survives a reload: `sent` (a
   * code waits: where it went, masked, and the seconds before it expires and before another may be
   * asked for), `verified` (the launch is allowed for `expires_in` more seconds), or null.
   */
  launch_code: z
    .object({
      state: z.enum(['sent', 'verified']),
      channel: z.enum(['sms', 'email']),
      destination: z.string(),
      expires_in: z.number().int(),
      resend_in: z.number().int(),
    })
    .nullable(),
});
export type LaunchSignatures = z.infer<typeof launchSignatures>;

/**
 * `GET /generations/:id/specimen?item=&signatures=`: the candidate (an item of the batch; the first
 * one when absent) and, before the launch, the signatures being chosen (comma-separated kinds; the
 * batch's choice or every registered signature when absent).
 */
export const specimenQuery = z.object({
  item: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  signatures: z
    .string()
    .max(100)
    .transform((text) => (text === '' ? [] : text.split(',')))
    .pipe(z.array(z.enum(SIGNATURE_KINDS)).max(SIGNATURE_KINDS.length))
    .optional(),
});
export const launchSignaturesResponse = envelope(launchSignatures);

// ---------------------------------------------------------------- the launch: one-time code, progress

const generationId = z.coerce.number().int().positive();
export const generationIdQuery = z.object({ generation_id: generationId });

/** `GET /generations/send-otp`: where the launch code went (masked) and when another may be asked for. */
export const launchCodeSentResponse = envelope(
  z.object({ message: z.string(), channel: z.enum(['sms', 'email']), destination: z.string(), resend_in: z.number().int(), expires_in: z.number().int() }),
);
export type LaunchCodeSent = z.infer<typeof launchCodeSentResponse>['data'];

/** `POST /generations/verify-otp`. */
export const verifyLaunchCodeRequest = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, { error: 'field.otp_format' }),
  generation_id: generationId,
});

/** A batch's status and progress (the generating page follows it). */
export const generationProgress = z.object({
  id: z.number().int(),
  status: z.enum(GENERATION_STATUSES),
  signature_status: z.enum(SIGNATURE_STATUSES),
  progress: z.object({ done: z.number().int(), total: z.number().int(), percent: z.number() }),
  last_error: z.string().nullable(),
});
export type GenerationProgress = z.infer<typeof generationProgress>;
export const generationProgressResponse = envelope(generationProgress);

// ---------------------------------------------------------------- revocation

/** A diploma's public id in a path (22 URL-safe characters). */
export const revocationDiplomaParams = z.object({ id: z.string().regex(DIPLOMA_ID_PATTERN, { error: 'field.diploma_id' }) });
export const revocationRequest = z.object({ reason: z.string().trim().min(5).max(500) });

/** Which part of a batch's history: the batch itself, its candidates' validation, its diplomas. */
export const BATCH_HISTORY_KINDS = ['batch', 'validation', 'diploma'] as const;
export type BatchHistoryKind = (typeof BATCH_HISTORY_KINDS)[number];

export const batchHistoryQuery = pageQuery.extend({ kind: z.enum(BATCH_HISTORY_KINDS).optional() });

/**
 * One line of a batch's history (ADR 0149): when, who (a name, never an address), what (the audit
 * action, which the page words in the reader's language), about which candidate, and the few facts
 * that word it (statuses, counts, a reason). No address, browser or e-mail: that stays in the
 * national audit log.
 */
export const batchHistoryEntryView = z.object({
  id: z.number().int(),
  at: z.string(),
  actor: z.string().nullable(),
  /** Who acted when no account did: the platform itself, or the candidate through their link. */
  actor_kind: z.enum(['staff', 'system', 'candidate']),
  action: z.string(),
  candidate_code: z.string().nullable(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
});
export type BatchHistoryEntryView = z.infer<typeof batchHistoryEntryView>;
export const batchHistoryResponse = paged(batchHistoryEntryView);
