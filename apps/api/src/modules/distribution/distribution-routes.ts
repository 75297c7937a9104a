import { endpoints, type ErrorResponse } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { AppError } from '../../lib/errors.ts';
import { actorOf } from '../../policies/actor.ts';
import { archiveFileName, newBatchArchive } from '../generations/batch-archive.ts';

/**
 * Distribution of published batches (spec section 7): broadcast to candidates, one diploma or the
 * batch's zip by e-mail, the zip's download link, and the exchange of one-time sign-in links.
 */
export const distributionRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { services }) => {
  const { distribution } = services;
  const { distribution: defined } = endpoints;

  serve(app, defined.broadcast, async (request, reply) => {
    try {
      const broadcast = await distribution.requestBroadcast(actorOf(request), request.params.id);
      return reply.code(202).send({ data: { message: request.t('messages:broadcast_sent'), broadcast } });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'service_unavailable') throw error;
      const body: ErrorResponse = { code: 'service_unavailable', message: request.t('messages:broadcast_not_sent') };
      return reply.code(503).send(body);
    }
  });

  serve(app, defined.latestBroadcast, async (request) => ({ data: await distribution.latestBroadcast(actorOf(request), request.params.id) }));

  serve(app, defined.itemByMail, async (request) => {
    await distribution.sendDiploma(actorOf(request), request.body.item_id, request.body.email);
    return { data: { message: request.t('messages:diploma_by_mail_sent', { email: request.body.email }) } };
  });

  serve(app, defined.archiveByMail, async (request, reply) => {
    await distribution.requestArchiveMailing(actorOf(request), request.body.generation_id, request.body.email);
    return reply.code(202).send({ data: { message: request.t('messages:archive_by_mail_queued', { email: request.body.email }) } });
  });

  serve(app, defined.archiveDownload, async (request, reply) => {
    const generationId = await distribution.archiveOfLink(request.params.token);
    if (generationId === null) throw new AppError('not_found', { fields: { token: ['field.archive_link_invalid'] } });
    const archive = newBatchArchive();
    distribution.fillLinkedArchive(generationId, archive, request).catch((error: unknown) => archive.destroy(error as Error));
    return reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${archiveFileName(generationId)}"`)
      .header('cache-control', 'private, no-store')
      .header('referrer-policy', 'no-referrer')
      .send(archive);
  });

  serve(app, defined.directAuth, async (request) => distribution.exchangeDirectLink(request.body.token, request));
};
