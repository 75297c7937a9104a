import { MAX_TIME_STAMP_REQUEST_BYTES } from '@sceau/pdf';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { consumeAll, pgRateLimiter } from '../../lib/rate-limits.ts';
import type { TimestampingService } from './timestamping-service.ts';

/** Time-stamps one address may ask of the local TSA per minute (issuing does not go through HTTP). */
export const TSA_REQUESTS_PER_MINUTE = 120;

/**
 * The platform's trust services over HTTP (ADR 0135), at the root like /.well-known: the local
 * RFC 3161 TSA (`POST /tsa`, not served when TSA_URL names another), the CA's CRL (the CRL
 * distribution point of the development certificates) and the CA's and TSA's certificates.
 */
export async function timestampingRoutes(app: FastifyInstance, opts: { db: Db; timestamping: TimestampingService | null }) {
  const service = () => {
    if (!opts.timestamping) throw new AppError('not_found');
    return opts.timestamping;
  };
  const limiter = pgRateLimiter(opts.db.$client, { keyPrefix: 'tsa', points: TSA_REQUESTS_PER_MINUTE, durationSeconds: 60 });
  const binary = (reply: FastifyReply, type: string, bytes: Uint8Array, maxAge: number) => {
    reply.header('content-type', type);
    reply.header('cache-control', maxAge ? `public, max-age=${maxAge}` : 'no-store');
    reply.header('access-control-allow-origin', '*');
    return reply.send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  };

  // RFC 3161 over HTTP: the request's DER as it is, nothing larger than a request can be.
  app.addContentTypeParser('application/timestamp-query', { parseAs: 'buffer', bodyLimit: MAX_TIME_STAMP_REQUEST_BYTES }, (_request, body, done) => done(null, body));

  app.post(
    '/tsa',
    {
      config: { access: 'public' },
      bodyLimit: MAX_TIME_STAMP_REQUEST_BYTES,
      schema: {
        tags: ['trust services'],
        summary: "The platform's RFC 3161 time-stamping authority (application/timestamp-query in, application/timestamp-reply out)",
      },
    },
    async (request, reply) => {
      const tsa = await service().localAuthority();
      if (!tsa) throw new AppError('not_found');
      if (!request.headers['content-type']?.toLowerCase().startsWith('application/timestamp-query') || !Buffer.isBuffer(request.body)) {
        throw new AppError('unsupported_media_type');
      }
      await consumeAll([[limiter, request.ip]]);
      return binary(reply, 'application/timestamp-reply', await tsa.respond(request.body), 0);
    },
  );

  app.get(
    '/pki/ca.crl',
    { config: { access: 'public' }, schema: { tags: ['trust services'], summary: "The CA's current certificate revocation list (DER, application/pkix-crl)" } },
    async (_request, reply) => {
      const crl = await service().crl();
      if (!crl) throw new AppError('not_found');
      return binary(reply, 'application/pkix-crl', crl, 3600);
    },
  );

  app.get(
    '/pki/ca.crt',
    { config: { access: 'public' }, schema: { tags: ['trust services'], summary: "The CA's certificate (DER, application/pkix-cert)" } },
    async (_request, reply) => {
      const ca = service().caCertificateDer();
      if (!ca) throw new AppError('not_found');
      return binary(reply, 'application/pkix-cert', ca, 3600);
    },
  );

  app.get(
    '/pki/tsa.crt',
    { config: { access: 'public' }, schema: { tags: ['trust services'], summary: "The local time-stamping authority's certificate (DER, application/pkix-cert)" } },
    async (_request, reply) => {
      const chain = await service().tsaCertificateChainDer();
      if (!chain) throw new AppError('not_found');
      return binary(reply, 'application/pkix-cert', chain[0]!, 3600);
    },
  );
}
