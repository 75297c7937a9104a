import { endpoints, GENERATION_TYPES } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { actorOf } from '../../policies/actor.ts';
import { listTemplates, templateDetail } from './templates-service.ts';

export const templatesRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db }) => {
  serve(app, endpoints.templates.list, async (request) => ({ data: await listTemplates(db, actorOf(request), request.query.owner, request.locale) }));

  serve(app, endpoints.templates.country, async (request) => ({ data: await templateDetail(db, actorOf(request), 'country', request.locale) }));

  serve(app, endpoints.templates.one, async (request) => ({ data: await templateDetail(db, actorOf(request), request.params.id, request.locale) }));

  serve(app, endpoints.templates.generationTypes, async (request) => ({
    data: GENERATION_TYPES.map((code) => ({ code, label: request.t(`messages:generation_types.${code}`) })),
  }));
};
