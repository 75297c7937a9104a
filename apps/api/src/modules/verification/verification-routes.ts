import multipart from '@fastify/multipart';
import { DIPLOMA_ID_PATTERN, endpoints, verificationResponse } from '@sceau/contracts';
import { PdfParserBusy, PdfTooComplex, type VerificationResult } from '@sceau/verifier';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LRUCache } from 'lru-cache';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { apiProcessCount } from '../../cluster.ts';
import { answerUncompressed, compressionOptions, HOT_ROUTE_BROTLI_QUALITY, processCompressionLoad } from '../../lib/compression.ts';
import { serve } from '../../lib/endpoints.ts';
import { fixedSecurityHeaders, quieter } from '../../lib/hot-routes.ts';
import { keptText } from '../../lib/i18n.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { countVerification } from '../../prometheus/metrics.ts';
import { MAX_PORTABLE_BYTES, PortableVerification, portableForm, presentPortable } from './portable-verification.ts';
import { presentResult, type Translate, type VerificationInput, type VerificationService } from './verification-service.ts';

const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;
/** Every PDF parser thread busy and its queue full: a parse takes at most a few seconds. */
const PARSER_BUSY_RETRY_SECONDS = 5;

/** A link to a diploma (`…/verify/{id}`) or its id, as typed or scanned. */
function diplomaIdFromLink(value: string): string | null {
  const trimmed = value.trim();
  if (DIPLOMA_ID_PATTERN.test(trimmed)) return trimmed;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  const id = /\/verify\/([^/]+)\/?$/.exec(url.pathname)?.[1];
  return id && DIPLOMA_ID_PATTERN.test(id) ? id : null;
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

/**
 * Requests that cost work (a database or chain read, a document to parse) per client address and
 * per minute, across every API process (ADR 0100). Each process counts in its own memory the
 * share it receives (`VERIFY_LIMIT_PER_MINUTE / processes`, processes = API processes behind one
 * port, each receiving about an equal share of an address's requests): no database write per
 * request. Documents are always counted; links and ids only when their answer is not cached
 * (a cached answer costs microseconds, and counting it would cost more than answering it).
 */
export const VERIFY_LIMIT_PER_MINUTE = 120;

export interface VerificationRouteOptions {
  verification: VerificationService;
  /** How many API processes share the limit (default: `API_PROCESSES`, ADR 0106). */
  apiProcesses?: number;
}

export const verificationRoutes: FastifyPluginAsyncZod<AppContext & VerificationRouteOptions> = async (
  app,
  { config, services, verification, apiProcesses = apiProcessCount() },
) => {
  // The portable forms (ADR 0145), against the platform's own keys and status lists.
  const portable = services.identity ? new PortableVerification(config, services.identity.keys, services.credentialStatus) : null;
  await app.register(multipart, { limits: { fileSize: MAX_DOCUMENT_BYTES, files: 1, fields: 5, fieldSize: 4096 } });
  app.addHook('onClose', async () => verification.closeParsers());
  const limiter = new RateLimiterMemory({ keyPrefix: 'verify', points: Math.max(1, Math.ceil(VERIFY_LIMIT_PER_MINUTE / Math.max(1, apiProcesses))), duration: 60 });
  const consume = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      await limiter.consume(request.ip);
    } catch (rejection) {
      const ms = (rejection as { msBeforeNext?: number }).msBeforeNext;
      if (ms === undefined) throw rejection;
      const seconds = Math.max(1, Math.ceil(ms / 1000));
      reply.header('retry-after', String(seconds));
      throw new AppError('rate_limited', { params: { seconds } });
    }
  };

  // The serialised answer (through the response schema, exactly as Fastify would) per answer,
  // language and form: a cached answer costs a map look-up, not a translation and a serialisation.
  // Tied to the answer object: once an answer is invalidated and computed again, its text is too.
  // Kept as bytes: a cached answer is written as is, not encoded again.
  const bodies = new LRUCache<string, { result: VerificationResult; body: Buffer }>({
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (entry) => entry.body.length + 100,
  });
  // The texts of verdicts, checks and codes (fixed, without parameters), kept per language.
  const translate =
    (request: FastifyRequest): Translate =>
    (key) =>
      keptText(request.locale, key);
  const serialise = (result: VerificationResult, request: FastifyRequest, credential?: unknown | null, kind?: string | null) =>
    Buffer.from(
      JSON.stringify(
        z.encode(verificationResponse, {
          data: {
            ...presentResult(result, translate(request), { explorerTxUrl: config.chain.explorerTxUrl }),
            ...(credential !== undefined ? { credential: credential as Record<string, unknown> | null, diploma_kind: kind ?? null } : {}),
          },
        }),
      ),
    );
  // By id: the answer without its credential through the response schema, then the credential's
  // JSON text kept with the answer, and the kind: the last two fields of the schema, so the bytes are
  // those of the whole answer through the schema, without walking and writing the credential again
  // on each request (ADR 0153).
  const serialiseById = (result: VerificationResult, request: FastifyRequest, credentialJson: string, kind: string | null) => {
    const rest = JSON.stringify(z.encode(verificationResponse, { data: presentResult(result, translate(request), { explorerTxUrl: config.chain.explorerTxUrl }) }));
    return Buffer.from(`${rest.slice(0, -2)},"credential":${credentialJson},"diploma_kind":${JSON.stringify(kind)}}}`);
  };
  const send = (reply: FastifyReply, body: Buffer) => reply.type('application/json; charset=utf-8').send(body);

  const secure = fixedSecurityHeaders();

  const answer = async (request: FastifyRequest, reply: FastifyReply, input: VerificationInput) => {
    // A document is always work (read, hashed); a link or QR text only when not answered from the cache.
    if ('pdf' in input || 'credential' in input || !verification.isCached(input)) await consume(request, reply);
    let result: VerificationResult;
    try {
      result = await verification.verify(input);
    } catch (error) {
      // A PDF past the parser's limits (ADR 0114): answered, never retried, never cached.
      if (error instanceof PdfTooComplex) throw fieldError('cert_document', 'field.document_too_complex');
      if (error instanceof PdfParserBusy) throw new AppError('service_unavailable', { headers: { 'retry-after': String(PARSER_BUSY_RETRY_SECONDS) } });
      throw error;
    }
    countVerification(result.verdict, 'pdf' in input ? 'pdf' : 'credential' in input ? 'credential' : 'qr' in input ? 'qr' : 'id');
    return send(reply, serialise(result, request));
  };

  serve(
    app,
    endpoints.verification.verify,
    async (request, reply) => {
      const { id } = request.params;
      const key = `${request.locale}|${id}`;
      const kept = bodies.get(key);
      // Saturated, this answer goes out as it is: compressing it would cost a quarter of its CPU for 3 KB.
      if (processCompressionLoad.saturated()) answerUncompressed(request, reply);
      if (kept && verification.isCurrent({ diplomaId: id }, kept.result)) {
        countVerification(kept.result.verdict, 'id');
        return send(reply, kept.body);
      }
      if (!verification.isCached({ diplomaId: id })) await consume(request, reply);
      const found = await verification.verifyById(id);
      const { result } = found;
      countVerification(result.verdict, 'id');
      const body = serialiseById(result, request, found.credentialJson ?? JSON.stringify(found.credential), found.kind ?? null);
      if (verification.isCurrent({ diplomaId: id }, result)) bodies.set(key, { result, body });
      return send(reply, body);
    },
    {
      helmet: false,
      onRequest: secure,
      // Results day's hot route: its two lines per request at `info` cost about a quarter of a cached
      // answer (ADR 0102). Its warnings and errors are still logged; the access log of these requests
      // is the reverse proxy's.
      logLevel: quieter(config.logLevel, 'warn'),
      // Written anew for nearly every request that day, mostly hashes and signatures: brotli at the
      // quality that costs least for the same bytes, and none while the process is saturated
      // (lib/compression.ts).
      compress: compressionOptions(HOT_ROUTE_BROTLI_QUALITY),
    },
  );

  serve(
    app,
    endpoints.verification.verifyDocument,
    async (request, reply) => {
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
            file = await part.toBuffer(); // a Buffer is a Uint8Array: no copy
          } catch (error) {
            if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
              throw fieldError('cert_document', { key: 'field.file_too_large', params: { size: MAX_DOCUMENT_BYTES / 1024 / 1024 } });
            throw error;
          }
        } else if (part.fieldname === 'cert_url' && typeof part.value === 'string' && part.value.trim()) {
          link = part.value.trim();
        }
      }
      if (file && file.length > 0) {
        const isPdf = file.length >= 5 && Buffer.from(file.subarray(0, 5)).toString('latin1') === '%PDF-';
        const text = isPdf ? '' : new TextDecoder('utf-8', { fatal: false }).decode(file);
        const form = isPdf ? null : portableForm(text);
        if (form === 'too_large') throw fieldError('cert_document', { key: 'field.portable_too_large', params: { size: MAX_PORTABLE_BYTES / 1024 } });
        if (form && portable) {
          await consume(request, reply);
          let result: Awaited<ReturnType<PortableVerification['verify']>>;
          try {
            result = await portable.verify(text);
          } catch (error) {
            // A stranger's document that made a library fail (not a verdict): said unreadable, logged.
            request.log.warn({ err: error }, 'portable form not verifiable');
            throw fieldError('cert_document', 'field.document_type');
          }
          if (result) {
            countVerification(result.verdict, result.form);
            return send(reply, Buffer.from(JSON.stringify(z.encode(verificationResponse, { data: presentPortable(result, translate(request)) }))));
          }
        }
        return answer(request, reply, inputFromFile(file));
      }
      if (link) {
        if (/^SC1:/.test(link)) return answer(request, reply, { qr: link });
        const id = diplomaIdFromLink(link);
        if (!id) throw fieldError('cert_url', link.startsWith('http') ? 'field.not_a_diploma_link' : 'field.invalid_url');
        return answer(request, reply, { diplomaId: id });
      }
      throw fieldError('cert_document', 'field.document_or_link_required');
    },
    { helmet: false, onRequest: secure },
  );
};
