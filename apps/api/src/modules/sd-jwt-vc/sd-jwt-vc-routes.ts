import { endpoints } from '@sceau/contracts';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { AppError } from '../../lib/errors.ts';
import { actorOf } from '../../policies/actor.ts';
import { holderPolicy } from '../../policies/holder-policy.ts';
import { authorize } from '../../policies/policy.ts';
import { factsOf, findDiploma, findHolderAccount } from '../holder/holder-repository.ts';
import type { SdJwtVcService } from './sd-jwt-vc-service.ts';

/**
 * The holder's SD-JWT VC download (ADR 0145), under the rule of the diploma's PDF. The rule is
 * read first, so a platform without its keys (503) tells nobody whether a diploma is theirs.
 */
export const sdJwtVcRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, services }) => {
  serve(app, endpoints.holder.sdJwt, async (request, reply) => {
    const actor = actorOf(request);
    const [account, row] = await Promise.all([findHolderAccount(db, actor.id), findDiploma(db, request.params.id)]);
    if (!account) throw new AppError('unauthenticated');
    if (!row) throw new AppError('not_found');
    authorize(holderPolicy.download(account, factsOf(row)));
    const sdJwtVc = services.sdJwtVc;
    if (!sdJwtVc) throw new AppError('service_unavailable');
    const credential = await sdJwtVc.issue(row.id);
    return reply
      .type('application/dc+sd-jwt')
      .header('content-disposition', `attachment; filename="diplome-${row.id}.sd-jwt"`)
      .header('cache-control', 'private, no-store')
      .send(credential);
  });
};

/**
 * At the root, like /.well-known: the SD-JWT VC issuer metadata (its keys, SD-JWT VC draft §5)
 * and the diploma type's Type Metadata at its `vct` address. Public, cached five minutes.
 * With a path in PUBLIC_URL (https://host/diplomes): the issuer metadata also where the draft puts
 * it, the well-known name then the path (`/.well-known/jwt-vc-issuer/diplomes`), and the type
 * metadata at the `vct` address with its path too (`/diplomes/vct/diploma`, for a proxy that passes
 * the path; `/vct/diploma` for one that strips it). `@sd-jwt/sd-jwt-vc` reads the type metadata at
 * the `vct` URL itself (draft 09 §6.3.1): there is no `/.well-known/vct` address to serve.
 */
export async function sdJwtVcWellKnownRoutes(app: FastifyInstance, opts: { sdJwtVc: SdJwtVcService }) {
  const cache = (reply: { header(name: string, value: string): unknown }) => {
    reply.header('cache-control', 'public, max-age=300');
    reply.header('access-control-allow-origin', '*');
  };
  const path = new URL(opts.sdJwtVc.issuer).pathname.replace(/\/+$/, '');
  for (const suffix of path ? ['', path] : ['']) {
    app.get(
      `/.well-known/jwt-vc-issuer${suffix}`,
      { config: { access: 'public' }, schema: { tags: ['identity'], summary: 'SD-JWT VC issuer metadata: the issuer identifier and its keys (JWKS), every key that ever signed' } },
      async (_, reply) => {
        cache(reply);
        return opts.sdJwtVc.issuerMetadata();
      },
    );
  }
  for (const prefix of path ? ['', path] : ['']) {
    app.get(
      `${prefix}/vct/diploma`,
      { config: { access: 'public' }, schema: { tags: ['identity'], summary: "The diploma's SD-JWT VC Type Metadata (its vct): names and claim labels in French and English" } },
      async (_, reply) => {
        cache(reply);
        return opts.sdJwtVc.typeMetadata();
      },
    );
  }
}
