import { endpoints } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { actorOf } from '../../policies/actor.ts';
import { archiveFileName, newBatchArchive } from './batch-archive.ts';
import { GenerationsService } from './generations-service.ts';

export const generationsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, services }) => {
  const batches = new GenerationsService(db, services.storage);
  const { generations } = endpoints;

  serve(app, generations.byUser, async (request) => {
    const { page, per_page: perPage = 10, search, session } = request.query;
    const { views, total } = await batches.listOwn(actorOf(request), { page, perPage, search, session });
    return { data: views, meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total } };
  });

  serve(app, generations.one, async (request) => {
    const { page, per_page: perPage = 20, search, institution, centre } = request.query;
    const { view, items, total } = await batches.detail(actorOf(request), request.params.id, { page, perPage, search, institution, centre });
    return { data: { ...view, items }, meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total } };
  });

  serve(app, generations.exportZip, async (request, reply) => {
    const actor = actorOf(request);
    const id = await batches.exportableBatch(actor, request.params.id);
    const archive = newBatchArchive();
    batches.fillExport(actor, id, archive).catch((error: unknown) => archive.destroy(error as Error));
    return reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${archiveFileName(id)}"`)
      .header('cache-control', 'private, no-store')
      .send(archive);
  });

  serve(app, generations.itemPdf, async (request, reply) => {
    const { pdf, candidateCode } = await batches.itemPdf(actorOf(request), request.params.id);
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="diplome-${candidateCode}.pdf"`)
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });
};
