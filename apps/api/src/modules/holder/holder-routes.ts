import { endpoints, type SharedDiplomaView } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { dynamicKey } from '../../lib/i18n.ts';
import { actorOf } from '../../policies/actor.ts';
import { PublicDiplomaService } from '../verification/public-diploma-service.ts';
import { presentResult } from '../verification/verification-service.ts';

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
    const { verification, expiresAt } = await holder.openShare(request.params.token);
    const presented = presentResult(verification.result, (key) => request.t(dynamicKey(key as `verification:${string}`)), { explorerTxUrl: null });
    // Not the diploma's permanent id: the link gives a view that ends when the link does.
    const { id: _id, ...diploma } = presented.diploma ?? { id: '' };
    const view: SharedDiplomaView = {
      verdict: presented.verdict,
      verdict_label: presented.verdict_label,
      checks: presented.checks.map(({ name, status, title, message }) => ({ name, status, title, message })),
      diploma: presented.diploma ? diploma : null,
      diploma_kind: verification.kind ?? null,
      expires_at: expiresAt?.toISOString() ?? null,
      checked_at: new Date().toISOString(),
    };
    reply.header('cache-control', 'private, no-store').header('referrer-policy', 'no-referrer');
    return { data: view };
  });

  serve(app, defined.sharedPhoto, async (request, reply) => {
    const { diplomaId } = await holder.liveShare(request.params.token);
    const photo = await photos.photo(diplomaId);
    return reply
      .type('image/jpeg')
      .header('cache-control', 'private, no-store')
      .header('referrer-policy', 'no-referrer')
      .send(await photo.read());
  });
};
