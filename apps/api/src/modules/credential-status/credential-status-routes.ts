import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { STATUS_LIST_MAX_AGE_SECONDS, type CredentialStatusService } from './credential-status-service.ts';

/**
 * The ministry's revocation status lists, public, at the root of its domain (ADR 0144): the W3C
 * BitstringStatusListCredential and the same bits as an IETF token status list. Cached 60 s by
 * anyone between, with an ETag (a conditional request answers 304).
 */
export async function credentialStatusRoutes(app: FastifyInstance, opts: { status: CredentialStatusService }) {
  const { status } = opts;
  const open = (reply: FastifyReply, maxAge: number) => reply.header('cache-control', `public, max-age=${maxAge}`).header('access-control-allow-origin', '*');
  const listParam = (request: FastifyRequest): number | null => {
    const raw = (request.params as { list?: string }).list ?? '';
    return /^\d{1,6}$/.test(raw) ? Number(raw) : null;
  };
  const notModified = (request: FastifyRequest, etag: string) => request.headers['if-none-match']?.split(',').some((t) => t.trim() === etag) ?? false;

  app.get(
    '/credentials/status/:list',
    { config: { access: 'public' }, schema: { tags: ['identity'], summary: 'A revocation status list of the ministry (W3C BitstringStatusListCredential, Data Integrity proof)' } },
    async (request, reply) => {
      const list = listParam(request);
      if (list === null || !(await status.hasList(list))) throw new AppError('not_found');
      const { credential, etag } = await status.bitstringCredential(list);
      open(reply, STATUS_LIST_MAX_AGE_SECONDS).header('etag', etag);
      if (notModified(request, etag)) return reply.code(304).send();
      return reply.type('application/vc+ld+json').send(JSON.stringify(credential));
    },
  );
  app.get(
    '/credentials/status/:list/token',
    { config: { access: 'public' }, schema: { tags: ['identity'], summary: 'The same revocation status list as an IETF OAuth Token Status List (statuslist+jwt, ES256)' } },
    async (request, reply) => {
      const list = listParam(request);
      if (list === null || !(await status.hasList(list))) throw new AppError('not_found');
      const { token, etag } = await status.tokenStatusList(list);
      open(reply, STATUS_LIST_MAX_AGE_SECONDS).header('etag', etag);
      if (notModified(request, etag)) return reply.code(304).send();
      return reply.type('application/statuslist+jwt').send(token);
    },
  );
}
