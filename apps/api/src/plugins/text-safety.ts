import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.ts';
import { unstorableTextFields } from '../lib/text-safety.ts';

/**
 * Every route at once: a path parameter, query string or JSON body holding unstorable text (NUL,
 * other control characters, lone surrogates) is refused with a translated 422 on its fields,
 * before validation and before any query (ADR 0113). Multipart fields go through parseOrThrow,
 * which applies the same check.
 */
export const textSafetyPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    const fields = [...unstorableTextFields(request.params), ...unstorableTextFields(request.query), ...unstorableTextFields(request.body)];
    if (fields.length === 0) return;
    throw new AppError('validation_failed', { fields: Object.fromEntries(fields.map((field) => [field, ['field.unstorable_text']])) });
  });
});
