import { endpoints } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { dynamicKey } from '../../lib/i18n.ts';
import { actorOf } from '../../policies/actor.ts';
import { PublicDiplomaService } from '../verification/public-diploma-service.ts';

/**
 * The holder's side (ADR 0132): my diplomas and results, my share links, and what a share link
 * opens. Share links answer `no-store` and `no-referrer`: their address is their secret.
 */
export const holderRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, services }) => {
  const { holder: defined } = endpoints;
  const { holder } = services;
  const photos = new PublicDiplomaService(db, services.storage, services.downloads);

  serve(app, defined.diplomas, async (request) => ({ data: await holder.diplomas(actorOf(request)) }));

  // The full credential, the holder's only (ADR 0134): not cached by anything between.
  serve(app, defined.credential, async (request, reply) => {
    const credential = await holder.credential(actorOf(request), request.params.id);
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="diplome-${request.params.id}.json"`)
      .header('cache-control', 'private, no-store')
      .send(JSON.stringify(credential, null, 2));
  });

  serve(app, defined.shares, async (request) => ({ data: await holder.shares(actorOf(request)) }));

  serve(app, defined.createShare, async (request, reply) => reply.code(201).send({ data: await holder.createShare(actorOf(request), request.body) }));

  serve(app, defined.revokeShare, async (request) => ({ data: await holder.revokeShare(actorOf(request), request.params.id) }));

  serve(app, defined.shared, async (request, reply) => {
    const view = await holder.openShare(request.params.token, (key) => request.t(dynamicKey(key as `verification:${string}`)));
    reply.header('cache-control', 'private, no-store').header('referrer-policy', 'no-referrer');
    return { data: view };
  });

  serve(app, defined.sharedPhoto, async (request, reply) => {
    const photo = await photos.photo(await holder.sharedPhotoDiploma(request.params.token));
    return reply
      .type('image/jpeg')
      .header('cache-control', 'private, no-store')
      .header('referrer-policy', 'no-referrer')
      .send(await photo.read());
  });

  // The chosen claims only, as an SD-JWT VC presentation a verifier checks by itself (ADR 0152).
  serve(app, defined.sharedSdJwt, async (request, reply) => {
    const presentation = await holder.sharedPresentation(request.params.token);
    return reply
      .type('application/dc+sd-jwt')
      .header('content-disposition', 'attachment; filename="diplome-partage.sd-jwt"')
      .header('cache-control', 'private, no-store')
      .header('referrer-policy', 'no-referrer')
      .send(presentation);
  });
};
