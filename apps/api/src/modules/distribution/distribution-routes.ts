import {
  archiveByMailRequest,
  broadcastResponse,
  directAuthRequest,
  directAuthResponse,
  errorResponse,
  idParam,
  itemByMailRequest,
  latestBroadcastResponse,
  messageResponse,
  type ErrorResponse,
} from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../lib/errors.ts';
import { archiveFileName, newBatchArchive } from './batch-archive.ts';
import { actorOf } from '../../policies/actor.ts';

const tags = ['distribution'];

/**
 * Distribution of published batches (spec section 7): broadcast to candidates, one diploma or the
 * batch's zip by e-mail, the zip's download link, and the exchange of one-time sign-in links.
 */
export const distributionRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { services }) => {
  const { distribution } = services;

  app.post(
    '/generations/:id/broadcast',
    {
      config: { access: { anyPermission: ['broadcast.send'], section: 'broadcast' } },
      schema: {
        tags,
        summary: 'Notify every candidate of a published batch (SMS and/or e-mail) with their verification link',
        params: idParam,
        response: { 202: broadcastResponse, 503: errorResponse },
      },
    },
    async (request, reply) => {
      try {
        const broadcast = await distribution.requestBroadcast(actorOf(request), request.params.id, services.queue);
        return reply.code(202).send({ data: { message: request.t('messages:broadcast_sent'), broadcast } });
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'service_unavailable') throw error;
        const body: ErrorResponse = { code: 'service_unavailable', message: request.t('messages:broadcast_not_sent') };
        return reply.code(503).send(body);
      }
    },
  );

  app.get(
    '/generations/:id/broadcast',
    {
      config: { access: { anyPermission: ['generation.view', 'broadcast.send'] } },
      schema: { tags, summary: "A batch's latest broadcast and its counts (null before the first)", params: idParam, response: { 200: latestBroadcastResponse } },
    },
    async (request) => ({ data: await distribution.latestBroadcast(actorOf(request), request.params.id) }),
  );

  app.post(
    '/items/by-mail',
    {
      config: { access: { anyPermission: ['generation.share.email'] } },
      schema: { tags, summary: "E-mail a candidate's signed diploma (PDF attached)", body: itemByMailRequest, response: { 200: messageResponse } },
    },
    async (request) => {
      await distribution.sendDiploma(actorOf(request), request.body.item_id, request.body.email);
      return { data: { message: request.t('messages:diploma_by_mail_sent', { email: request.body.email }) } };
    },
  );

  app.post(
    '/generations/archive-by-mail',
    {
      config: { access: { anyPermission: ['generation.share.email'] } },
      schema: {
        tags,
        summary: "E-mail a published batch's zip (attached up to 10 MB, else a download link valid 7 days)",
        body: archiveByMailRequest,
        response: { 202: messageResponse },
      },
    },
    async (request, reply) => {
      await distribution.requestArchiveMailing(actorOf(request), request.body.generation_id, request.body.email, services.queue);
      return reply.code(202).send({ data: { message: request.t('messages:archive_by_mail_queued', { email: request.body.email }) } });
    },
  );

  app.get(
    '/archive-downloads/:token',
    {
      config: { access: 'public' },
      schema: { tags, summary: "A batch's zip from the link an e-mail carried (streamed; the link expires)", params: z.object({ token: z.string().max(200) }) },
    },
    async (request, reply) => {
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
    },
  );

  app.post(
    '/direct-auth',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: "Exchange a one-time sign-in link's token: a candidate's diploma, or a staff session (like the password grant)",
        body: directAuthRequest,
        response: { 200: directAuthResponse },
      },
    },
    async (request) => distribution.exchangeDirectLink(request.body.token, request),
  );
};
