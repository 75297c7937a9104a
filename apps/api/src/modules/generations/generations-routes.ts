import { endpoints } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { attachment, EXPORT_CONTENT_TYPES, tableStream } from '../../lib/table-export.ts';
import { actorOf } from '../../policies/actor.ts';
import { archiveFileName, newBatchArchive } from './batch-archive.ts';
import { batchHistory } from './batch-history.ts';
import { GenerationsService } from './generations-service.ts';
import { REJECTED_COLUMNS, rejectedExport } from './rejected-export.ts';

export const generationsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, services }) => {
  const batches = new GenerationsService(db, services.storage, services.identity?.keys ?? null);
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

  serve(app, generations.history, async (request) => {
    const { page, per_page: perPage = 50, kind } = request.query;
    return batchHistory(db, actorOf(request), request.params.id, { page, perPage, kind });
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

  /** The rejected candidates as a file for the school (ADR 0143), streamed page by page. */
  serve(app, generations.rejectedExport, async (request, reply) => {
    const format = request.query.format;
    const { generationId, rows } = await rejectedExport(db, actorOf(request), request.params.id);
    return reply
      .type(EXPORT_CONTENT_TYPES[format])
      .header('content-disposition', attachment(`${request.t('messages:exports.rejected.file', { id: generationId })}.${format}`))
      .header('cache-control', 'private, no-store')
      .send(
        tableStream(
          format,
          request.t('messages:exports.rejected.sheet'),
          REJECTED_COLUMNS.map((key) => request.t(`messages:exports.rejected.${key}`)),
          rows,
        ),
      );
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
