import { z } from 'zod';

/** Stable error codes. The message that goes with each is translated (`errors.<code>` in the catalogues). */
export const ERROR_CODES = [
  'bad_request',
  'validation_failed',
  'unauthenticated',
  'invalid_credentials',
  'invalid_client',
  'unsupported_grant_type',
  'forbidden_permission',
  'forbidden_role',
  'forbidden_section',
  'not_found',
  'conflict',
  'rate_limited',
  /** Too many one-time codes sent to one contact today (OTP_DAILY_MAX). */
  'too_many_codes',
  /** A temporary password must be changed before anything else (ADR 0113). */
  'password_change_required',
  'payload_too_large',
  'unsupported_media_type',
  'internal_error',
  'service_unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The one error shape every failing call answers with. */
export const errorResponse = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  /** Per field: the field's path (dots for nesting) to its translated messages. */
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

/** Bodies wrap their payload in `data` (the spec's `data.data`). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ data });
}

export const pageMeta = z.object({
  current_page: z.number().int(),
  last_page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
});
export type PageMeta = z.infer<typeof pageMeta>;

export function paged<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: pageMeta });
}

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).optional(),
});

/** A positive integer id in a path. */
export const idParam = z.object({ id: z.coerce.number().int().positive() });

/** `GET /health`: liveness, the process answers; no dependency is checked (ADR 0112). */
export const healthResponse = z.object({
  status: z.literal('ok'),
  version: z.string(),
});

export const readinessCheck = z.enum(['ok', 'failing']);

/**
 * `GET /health/ready`: whether this process can serve, each dependency checked. `not_ready` (503)
 * when the database or the job queue fails; `degraded` (200) when only the chain does (unreachable,
 * or this process's revocation index behind by more than its bound): the process still answers, and
 * its verifications say "could not check" rather than "authentic" (ADR 0137).
 */
export const readinessResponse = z.object({
  status: z.enum(['ready', 'degraded', 'not_ready']),
  checks: z.object({ database: readinessCheck, chain: readinessCheck, jobs: readinessCheck }),
  /** The chain as this process sees it. */
  chain: z.object({
    /** Its RPC answered the readiness probe. */
    reachable: z.boolean(),
    /** The newest block seen: the probe's answer, else the revocation watcher's last. */
    last_block: z.number().int().nullable(),
    /** The last block whose revocations this process has read. */
    indexed_block: z.number().int().nullable(),
    /** Seconds since its revocation index was last brought up to the chain's head (null: never). */
    index_lag_seconds: z.number().nullable(),
    /** Past this lag, answers no longer say "not revoked" without reading the chain (`REVOCATION_MAX_STALENESS_SECONDS`). */
    max_staleness_seconds: z.number().nullable(),
  }),
  version: z.string(),
});
export type ReadinessResponse = z.infer<typeof readinessResponse>;

/** `GET /metrics`: the home page's public counters (spec: `data.data`). */
export const metricsResponse = envelope(
  z.object({
    data: z.object({
      /** Diplomas published and not revoked. */
      documents: z.number().int(),
      /** Distinct candidates holding one. */
      students: z.number().int(),
      /** Schools with at least one. */
      schools: z.number().int(),
      /** Diploma PDFs downloaded. */
      downloads: z.number().int(),
    }),
  }),
);
export type Metrics = z.infer<typeof metricsResponse>['data']['data'];

/** `GET /dev/outbox` (development only): what would have been sent by e-mail and SMS. */
export const outboxMessage = z.object({
  id: z.string(),
  channel: z.enum(['email', 'sms']),
  to: z.string(),
  subject: z.string().nullable(),
  text: z.string(),
  html: z.string().nullable(),
  created_at: z.string(),
  /** An e-mail's attachments, kept as files in the outbox folder. */
  attachments: z.array(z.object({ filename: z.string(), content_type: z.string(), size: z.number().int(), file: z.string() })).optional(),
});
export type OutboxMessage = z.infer<typeof outboxMessage>;
export const outboxQuery = z.object({ to: z.string().trim().optional(), limit: z.coerce.number().int().min(1).max(200).default(50) });
export const outboxResponse = envelope(z.array(outboxMessage));
