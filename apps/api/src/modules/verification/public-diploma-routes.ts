import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { diplomas, generationItems, generations } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';

const tags = ['verification'];
const idParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{22}$/, { error: 'field.diploma_id' }) });

/**
 * What anyone holding a diploma's link may fetch besides its verification: the signed PDF (a
 * counted download) and the photo shown with the result. Only for a published diploma that is not
 * revoked, itself or with its batch; anything else is "not found", so these say no more than
 * `GET /verify/{id}` does.
 */
export const publicDiplomaRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, services }) => {
  const { downloads, storage } = services;
  app.addHook('onClose', async () => downloads.flush());

  async function publishedDiploma(id: string) {
    const [row] = await db
      .select({ pdfKey: diplomas.pdfKey, revokedAt: diplomas.revokedAt, status: generations.status, batchRevokedAt: generations.revokedAt, photoKey: generationItems.photoKey })
      .from(diplomas)
      .innerJoin(generations, eq(generations.id, diplomas.generationId))
      .innerJoin(generationItems, eq(generationItems.id, diplomas.itemId))
      .where(eq(diplomas.id, id));
    if (!row || row.status !== 'completed' || row.revokedAt || row.batchRevokedAt) throw new AppError('not_found');
    return row;
  }

  app.get(
    '/verify/:id/pdf',
    {
      config: { access: 'public' },
      schema: { tags, summary: "A published diploma's signed PDF (counted in the public downloads counter)", params: idParams },
    },
    async (request, reply) => {
      const { id } = request.params;
      const row = await publishedDiploma(id);
      const pdf = row.pdfKey ? await storage.get(row.pdfKey) : null;
      if (!pdf) throw new AppError('not_found');
      downloads.record(id, request.ip);
      return (
        reply
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="diplome-${id}.pdf"`)
          // Each download reaches the server (counted); nothing kept once a diploma is revoked.
          .header('cache-control', 'private, no-cache')
          .send(pdf)
      );
    },
  );

  app.get(
    '/verify/:id/photo',
    {
      config: { access: 'public' },
      schema: { tags, summary: "A published diploma's photo (JPEG), shown with its verification", params: idParams },
    },
    async (request, reply) => {
      const row = await publishedDiploma(request.params.id);
      if (!row.photoKey) throw new AppError('not_found');
      const etag = `"${createHash('sha256').update(row.photoKey).digest('base64url').slice(0, 16)}"`;
      // An hour in caches: a revocation shows on the result at once, the photo leaves caches within the hour.
      reply.header('cache-control', 'public, max-age=3600').header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      const photo = await storage.get(row.photoKey);
      if (!photo) throw new AppError('not_found');
      return reply.type('image/jpeg').send(photo);
    },
  );
};
