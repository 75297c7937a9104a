import multipart from '@fastify/multipart';
import { candidateCheckRequest, endpoints } from '@sceau/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { AppError } from '../../lib/errors.ts';
import { parseOrThrow } from '../../lib/validation.ts';
import { fixedSecurityHeaders, quieter } from '../../lib/hot-routes.ts';
import { CandidateCheckService } from './candidate-check-service.ts';

/** Text fields only; a file sent along is read to the end and ignored. */
async function readFields(request: FastifyRequest): Promise<Record<string, string>> {
  if (!request.isMultipart()) {
    const body = request.body;
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, string>;
    throw new AppError('unsupported_media_type');
  }
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') part.file.resume();
      else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
  } catch (error) {
    // Too many parts (the multipart limits): the client's fault, said as such.
    if ((error as { statusCode?: number }).statusCode === 413) throw new AppError('payload_too_large');
    throw error;
  }
  return fields;
}

/**
 * `POST /v2/verify-candidate` (spec section 7, the "external v2 verification endpoint", which the
 * platform implements against its national results registry; ADR 0090). Multipart (or JSON):
 * fullname, api-token, code, birthdate, fullname_collegue_1, fullname_collegue_2, session_id.
 */
export const candidateCheckRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, config }) => {
  await app.register(multipart, { limits: { files: 2, fileSize: 1024, fields: 16, fieldSize: 1024 } });
  const service = new CandidateCheckService(db, config.candidateCheck);
  app.addHook('onClose', async () => service.close());
  const tokens = new Set(config.candidateCheck.acceptedTokens);

  serve(
    app,
    endpoints.verification.candidateCheck,
    async (request) => {
      const fields = await readFields(request);
      const token = typeof fields['api-token'] === 'string' ? fields['api-token'].trim() : '';
      if (!tokens.has(token)) throw new AppError('invalid_client');
      const input = parseOrThrow(candidateCheckRequest, fields);
      // The address's failures are read in the check's one statement: 429 past the limit (ADR 0130).
      return { data: await service.check(input, request.ip) };
    },
    // Results day's other hot route: no line per request at `info` (its warnings and errors are
    // logged; the access log is the reverse proxy's), as GET /verify/{id} (ADR 0102, 0130).
    { logLevel: quieter(config.logLevel, 'warn'), helmet: false, onRequest: fixedSecurityHeaders() },
  );
};
