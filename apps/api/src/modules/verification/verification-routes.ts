import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { z } from 'zod';
import type { AppContext } from '../../app.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { presentResult, type VerificationInput, type VerificationService } from './verification-service.ts';

const tags = ['verification'];
const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;
const DIPLOMA_ID = /^[A-Za-z0-9_-]{22}$/;

const checkView = z.object({
  name: z.string(),
  status: z.enum(['passed', 'failed', 'not-checked']),
  code: z.string(),
  title: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
  link: z.string().optional(),
});
const publicDiploma = z.object({
  id: z.string(),
  last_name: z.string().optional(),
  middle_name: z.string().optional(),
  first_name: z.string().optional(),
  birth_date: z.string().optional(),
  option: z.string().optional(),
  option_code: z.string().optional(),
  school: z.string().optional(),
  school_code: z.string().optional(),
  centre: z.string().optional(),
  centre_code: z.string().optional(),
  session: z.string().optional(),
  session_year: z.number().optional(),
  percentage: z.number().optional(),
  issue_date: z.string().optional(),
  issuer: z.object({ id: z.string(), name: z.string() }).optional(),
  hidden_fields: z.array(z.string()).optional(),
});

export const verificationResponse = z.object({
  data: z.object({
    verdict: z.enum(['authentic', 'revoked', 'altered', 'unknown', 'unpublished', 'incomplete']),
    verdict_label: z.string(),
    source: z.enum(['pdf', 'credential', 'qr', 'link']),
    checks: z.array(checkView),
    diploma: publicDiploma.nullable(),
    credential: z.record(z.string(), z.unknown()).nullable().optional(),
  }),
});

/** A link to a diploma (`…/verify/{id}`) or its id, as typed or scanned. */
function diplomaIdFromLink(value: string): string | null {
  const trimmed = value.trim();
  if (DIPLOMA_ID.test(trimmed)) return trimmed;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  const match = url.pathname.match(/\/verify\/([A-Za-z0-9_-]{22})\/?$/);
  return match ? match[1]! : null;
}

/** What an uploaded file is, by its content: our PDF, a credential JSON, or the text of a QR code. */
function inputFromFile(bytes: Uint8Array): VerificationInput {
  if (bytes.length >= 5 && Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-') return { pdf: bytes };
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes).trim();
  if (text.startsWith('{')) {
    try {
      return { credential: JSON.parse(text) };
    } catch {
      throw fieldError('cert_document', 'field.document_type');
    }
  }
  if (/^SC1:/.test(text)) return { qr: text };
  const id = diplomaIdFromLink(text);
  if (id) return { diplomaId: id };
  throw fieldError('cert_document', 'field.document_type');
}

export const verificationRoutes: FastifyPluginAsyncZod<AppContext & { verification: VerificationService }> = async (app, { db, config, verification }) => {
  await app.register(multipart, { limits: { fileSize: MAX_DOCUMENT_BYTES, files: 1, fields: 5, fieldSize: 4096 } });
  // Per address, shared by every API process (ADR 0006's store).
  const limiter = new RateLimiterPostgres({ storeClient: db.$client, storeType: 'pool', tableName: 'rate_limits', tableCreated: true, keyPrefix: 'verify', points: 120, duration: 60 });
  app.addHook('preHandler', async (request, reply) => {
    try {
      await limiter.consume(request.ip);
    } catch (rejection) {
      const ms = (rejection as { msBeforeNext?: number }).msBeforeNext;
      if (ms === undefined) throw rejection;
      const seconds = Math.max(1, Math.ceil(ms / 1000));
      reply.header('retry-after', String(seconds));
      throw new AppError('rate_limited', { params: { seconds } });
    }
  });

  const answer = async (input: VerificationInput, t: Parameters<typeof presentResult>[1], withCredential = false) => {
    const result = await verification.verify(input);
    const credential = withCredential && 'diplomaId' in input ? ((await verification.credentialOf(input.diplomaId)) as Record<string, unknown> | null) : undefined;
    return { data: { ...presentResult(result, t, { explorerTxUrl: config.chain.explorerTxUrl }), ...(credential !== undefined ? { credential } : {}) } };
  };

  app.get(
    '/verify/:id',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Verify a diploma by its id (the /verify/{id} page); also gives its full credential to independent verifiers',
        params: z.object({ id: z.string().regex(DIPLOMA_ID, { error: 'field.diploma_id' }) }),
        response: { 200: verificationResponse },
      },
    },
    async (request) => answer({ diplomaId: request.params.id }, request.t, true),
  );

  app.post(
    '/generations/verify',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Verify a document (multipart: cert_document = our PDF, the credential JSON or the QR text; and/or cert_url = a link)',
        consumes: ['multipart/form-data'],
        response: { 200: verificationResponse },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw new AppError('unsupported_media_type');
      let file: Uint8Array | null = null;
      let link: string | null = null;
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== 'cert_document') {
            part.file.resume();
            continue;
          }
          try {
            file = new Uint8Array(await part.toBuffer());
          } catch (error) {
            if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fieldError('cert_document', { key: 'field.file_too_large', params: { size: MAX_DOCUMENT_BYTES / 1024 / 1024 } });
            throw error;
          }
        } else if (part.fieldname === 'cert_url' && typeof part.value === 'string' && part.value.trim()) {
          link = part.value.trim();
        }
      }
      if (file && file.length > 0) return answer(inputFromFile(file), request.t);
      if (link) {
        if (/^SC1:/.test(link)) return answer({ qr: link }, request.t);
        const id = diplomaIdFromLink(link);
        if (!id) throw fieldError('cert_url', link.startsWith('http') ? 'field.not_a_diploma_link' : 'field.invalid_url');
        return answer({ diplomaId: id }, request.t);
      }
      throw fieldError('cert_document', 'field.document_or_link_required');
    },
  );
};
