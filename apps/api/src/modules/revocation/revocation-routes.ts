import { endpoints } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { AppError } from '../../lib/errors.ts';
import { actorOf } from '../../policies/actor.ts';

export const revocationRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { services }) => {
  const revocation = () => {
    if (!services.revocation) throw new AppError('internal_error');
    return services.revocation;
  };

  serve(app, endpoints.revocation.revoke, async (request, reply) => {
    await revocation().revokeDiploma(actorOf(request), request.params.id, request.body.reason);
    return reply.code(202).send({ data: { message: request.t('messages:revocation_recorded') } });
  });

  serve(app, endpoints.revocation.revokeGeneration, async (request, reply) => {
    await revocation().revokeGeneration(actorOf(request), request.params.id, request.body.reason);
    return reply.code(202).send({ data: { message: request.t('messages:revocation_recorded') } });
  });
};
