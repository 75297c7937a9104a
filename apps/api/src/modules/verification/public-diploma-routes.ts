import { endpoints } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { PublicDiplomaService } from './public-diploma-service.ts';

/**
 * `GET /verify/{id}/pdf` and `/photo`: what anyone holding a diploma's link may fetch besides its
 * verification, for a published and valid diploma only (public-diploma-service.ts).
 */
export const publicDiplomaRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, services }) => {
  const { downloads, storage } = services;
  const diplomas = new PublicDiplomaService(db, storage, downloads);
  app.addHook('onClose', async () => downloads.flush());

  serve(app, endpoints.verification.pdf, async (request, reply) => {
    const { id } = request.params;
    const pdf = await diplomas.pdf(id, request.ip);
    return (
      reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="diplome-${id}.pdf"`)
        // Each download reaches the server (counted); nothing kept once a diploma is revoked.
        .header('cache-control', 'private, no-cache')
        .send(pdf)
    );
  });

  serve(app, endpoints.verification.photo, async (request, reply) => {
    const photo = await diplomas.photo(request.params.id);
    // An hour in caches: a revocation shows on the result at once, the photo leaves caches within the hour.
    reply.header('cache-control', 'public, max-age=3600').header('etag', photo.etag);
    if (request.headers['if-none-match'] === photo.etag) return reply.code(304).send();
    return reply.type('image/jpeg').send(await photo.read());
  });
};
