import type { ErrorCode } from '@sceau/contracts';

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  validation_failed: 422,
  unauthenticated: 401,
  invalid_credentials: 401,
  invalid_client: 401,
  unsupported_grant_type: 400,
  forbidden_permission: 403,
  forbidden_role: 403,
  forbidden_section: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  too_many_codes: 429,
  password_change_required: 403,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal_error: 500,
  service_unavailable: 503,
};

/** A translation key of the `errors` namespace, with its interpolation values when it has some. */
export type FieldMessage = string | { key: string; params: Record<string, unknown> };

/** A 422 naming one field. */
export function fieldError(field: string, message: FieldMessage): AppError {
  return new AppError('validation_failed', { fields: { [field]: [message] } });
}

/**
 * A failure the client should see as it is: a stable code, translated when presented.
 * `fields` maps a field to translation keys of the `errors` namespace.
 */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    readonly options: {
      fields?: Record<string, FieldMessage[]>;
      params?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(code);
    this.statusCode = STATUS[code];
  }
}

export function statusOf(code: ErrorCode): number {
  return STATUS[code];
}
