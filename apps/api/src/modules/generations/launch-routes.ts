import { endpoints } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { actorOf } from '../../policies/actor.ts';
import { LaunchService } from './launch-service.ts';
import { SpecimenService } from './specimen-service.ts';

/**
 * Launching, following and publishing a batch (spec: /otp-generation, /generating-op); the rules
 * are the launch service's.
 */
export const launchRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, config, services }) => {
  const launch = new LaunchService(db, services);
  const specimens = new SpecimenService(db, services.storage, config);
  const { generations } = endpoints;

  serve(app, generations.sendLaunchCode, async (request) => {
    const sent = await launch.sendCode(actorOf(request), request.query.generation_id);
    return {
      data: {
        message: request.t('messages:code_sent_to_you', { minutes: Math.round(sent.expiresIn / 60) }),
        channel: sent.channel,
        destination: sent.destination,
        resend_in: sent.resendIn,
        expires_in: sent.expiresIn,
      },
    };
  });

  serve(app, generations.verifyLaunchCode, async (request) => {
    await launch.verifyCode(actorOf(request), request.body.generation_id, request.body.code);
    return { data: { message: request.t('messages:launch_code_accepted') } };
  });

  for (const definition of [generations.start, generations.startUnderGenerations]) {
    serve(app, definition, async (request) => {
      await launch.start(actorOf(request), request.body.generation_id, request.body.signatures);
      return { data: { message: request.t('messages:generation_started') } };
    });
  }

  serve(app, generations.launchSignatures, async (request) => ({ data: await launch.signatures(actorOf(request), request.params.id) }));

  serve(app, generations.specimen, async (request, reply) => {
    const { pdf, candidateCode } = await specimens.render(actorOf(request), request.params.id, request.query.item, request.query.signatures);
    return reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="specimen-${candidateCode}.pdf"`)
      .header('cache-control', 'private, no-store')
      .send(Buffer.from(pdf));
  });

  serve(app, generations.statusByQuery, async (request) => ({ data: await launch.status(actorOf(request), request.query.generation_id) }));
  serve(app, generations.status, async (request) => ({ data: await launch.status(actorOf(request), request.params.id) }));

  serve(app, generations.applySignature, async (request, reply) => {
    await launch.applySignature(actorOf(request), request.params.id);
    return reply.code(202).send({ data: { message: request.t('messages:signature_started') } });
  });

  serve(app, generations.cancel, async (request) => {
    await launch.cancel(actorOf(request), request.params.id);
    return { data: { message: request.t('messages:generation_cancelled') } };
  });
};
