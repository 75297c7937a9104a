import { LOCALE_HEADER, type ErrorCode, type ErrorResponse } from '@sceau/contracts';
import { dynamicKey, negotiateLocale, translator } from '../lib/i18n.ts';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, statusOf } from '../lib/errors.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

/** What a 503 of an unavailable database asks clients to wait: about one restart of the embedded server. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Fastify's own error codes that are the client's fault, and what we call them. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_REQ_FILE_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'bad_request',
  FST_ERR_CTP_INVALID_JSON_BODY: 'bad_request',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'unsupported_media_type',
};

/** Every failure leaves as `{ code, message, errors? }`, its message in the request's language. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const t = request.t ?? translator(negotiateLocale(request.headers[LOCALE_HEADER], request.headers['accept-language']));
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
        (errors[field] ??= []).push(t(dynamicKey(`errors:${issue.message}`), flattenParams(issue.params)));
      }
      const body: ErrorResponse = { code: 'validation_failed', message: t('errors:validation_failed'), errors };
      return reply.code(422).send(body);
    }
    if (error instanceof AppError) {
      const errors = error.options.fields
        ? Object.fromEntries(
            Object.entries(error.options.fields).map(([field, messages]) => [
              field,
              messages.map((m) => (typeof m === 'string' ? t(dynamicKey(`errors:${m}`)) : t(dynamicKey(`errors:${m.key}`), m.params))),
            ]),
          )
        : undefined;
      if (error.options.headers) reply.headers(error.options.headers);
      const body: ErrorResponse = {
        code: error.code,
        message: t(`errors:${error.code}`, error.options.params ?? {}),
        ...(errors ? { errors } : {}),
      };
      return reply.code(error.statusCode).send(body);
    }
    if (isDatabaseUnavailable(error)) {
      // Hung, lost or restarting database (ADR 0112): the client may try again; nothing is wrong with the request.
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ code: 'service_unavailable', message: t('errors:database_unavailable') });
    }
    const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (mapped) return reply.code(statusOf(mapped)).send({ code: mapped, message: t(`errors:${mapped}`) });
    if (isResponseSerializationError(error)) request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its contract');
    else request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ code: 'internal_error', message: t('errors:internal_error') });
  });
});

function flattenParams(params: unknown): Record<string, unknown> {
  if (!params || typeof params !== 'object') return {};
  const raw = params as Record<string, unknown>;
  // A custom issue carries its interpolation values under `params`.
  const nested = raw.params && typeof raw.params === 'object' ? (raw.params as Record<string, unknown>) : {};
  const out: Record<string, unknown> = { ...raw, ...nested };
  if (Array.isArray(out.keys)) out.keys = out.keys.join(', ');
  return out;
}
