import { envelope, idParam } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../lib/errors.ts';
import { actorOf } from '../../policies/actor.ts';

const tags = ['revocation'];
const revocationRequest = z.object({ reason: z.string().trim().min(5).max(500) });
const revocationResponse = envelope(z.object({ message: z.string() }));

export const revocationRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { services }) => {
  const queue = () => {
    if (!services.queue || !services.revocation) throw new AppError('internal_error');
    return { queue: services.queue, revocation: services.revocation };
  };

  app.post(
    '/diplomas/:id/revoke',
    {
      config: { access: { anyPermission: ['diplomas.revoke'] } },
      schema: {
        tags,
        summary: 'Revoke a published diploma, with a reason (written to the registry)',
        params: z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{22}$/, { error: 'field.diploma_id' }) }),
        body: revocationRequest,
        response: { 202: revocationResponse },
      },
    },
    async (request, reply) => {
      const { queue: q, revocation } = queue();
      await revocation.revokeDiploma(q, actorOf(request), request.params.id, request.body.reason);
      return reply.code(202).send({ data: { message: request.t('messages:revocation_recorded') } });
    },
  );

  app.post(
    '/generations/:id/revoke',
    {
      config: { access: { anyPermission: ['diplomas.revoke'] } },
      schema: { tags, summary: 'Revoke every diploma of a published batch, with a reason', params: idParam, body: revocationRequest, response: { 202: revocationResponse } },
    },
    async (request, reply) => {
      const { queue: q, revocation } = queue();
      await revocation.revokeGeneration(q, actorOf(request), request.params.id, request.body.reason);
      return reply.code(202).send({ data: { message: request.t('messages:revocation_recorded') } });
    },
  );
};
