import { endpoints } from '@sceau/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { actorOf } from '../../policies/actor.ts';
import type { VcService } from './vc-service.ts';

/** The holder's W3C VC / Open Badges 3.0 download (ADR 0144): the holder's only, never cached between. */
export const vcHolderRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { services }) => {
  serve(app, endpoints.holder.vc, async (request, reply) => {
    const credential = await services.vc.forHolder(actorOf(request), request.params.id);
    return reply
      .type('application/vc+ld+json; charset=utf-8')
      .header('content-disposition', `attachment; filename="diplome-${request.params.id}.vc.json"`)
      .header('cache-control', 'private, no-store')
      .send(JSON.stringify(credential, null, 2));
  });
};

/**
 * Who issues the ministry's credentials, at the root of the ministry's domain (ADR 0144): its
 * `did:web` document (every key, active and retired) and its Open Badges 3.0 issuer Profile.
 */
export async function vcPublicRoutes(app: FastifyInstance, opts: { vc: VcService; publicUrl: string }) {
  const { vc } = opts;
  const did = vc.did;
  if (!did) return;
  const open = (reply: FastifyReply, maxAge: number) => reply.header('cache-control', `public, max-age=${maxAge}`).header('access-control-allow-origin', '*');
  const didDocument = async (_: FastifyRequest, reply: FastifyReply) => {
    open(reply, 300).type('application/did+ld+json');
    return JSON.stringify(await did.didDocument());
  };
  app.get(
    '/.well-known/did.json',
    { config: { access: 'public' }, schema: { tags: ['identity'], summary: "The ministry's did:web document: every key that ever signed, as Multikey" } },
    didDocument,
  );
  // A platform under a path is `did:web:host:path`, whose document is `<path>/did.json`: served at
  // `/did.json` for a proxy that strips the path, and at `<path>/did.json` for one that passes it.
  const path = new URL(opts.publicUrl).pathname.replace(/\/+$/, '');
  if (path !== '') {
    for (const url of ['/did.json', `${path}/did.json`]) {
      app.get(url, { config: { access: 'public' }, schema: { tags: ['identity'], summary: "The ministry's did:web document (platform under a path)" } }, didDocument);
    }
  }

  app.get(
    '/credentials/issuer',
    { config: { access: 'public' }, schema: { tags: ['identity'], summary: 'The ministry as an Open Badges 3.0 issuer Profile (JSON-LD)' } },
    async (_, reply) => {
      open(reply, 300).type('application/ld+json');
      return JSON.stringify(vc.profileDocument());
    },
  );
}
