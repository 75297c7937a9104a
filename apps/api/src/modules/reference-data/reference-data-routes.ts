import { endpoints } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { AppError } from '../../lib/errors.ts';
import * as repo from './reference-data-repository.ts';

export const referenceDataRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db }) => {
  const { referenceData } = endpoints;
  // Reference data changes between exam sessions, not between requests: let browsers and CDNs keep it.
  app.addHook('onSend', async (request, reply) => {
    if (request.method === 'GET' && reply.statusCode === 200) reply.header('cache-control', 'public, max-age=300');
  });

  serve(app, referenceData.countries, async (request) => ({ data: { data: await repo.listCountries(db, request.locale) } }));

  serve(app, referenceData.sessions, async () => ({ data: await repo.listSessions(db) }));

  serve(app, referenceData.educProvinces, async () => ({ data: await repo.listEducProvinces(db) }));

  serve(app, referenceData.options, async () => ({ data: await repo.listOptions(db) }));

  serve(app, referenceData.centresOfProvince, async (request) => ({ data: await repo.listCentresOfProvince(db, request.query.province) }));

  serve(app, referenceData.centre, async (request) => {
    if (request.query.option !== undefined) return { data: await repo.listCentresOfferingOption(db, request.params.id) };
    const centre = await repo.findCentre(db, request.params.id);
    if (!centre) throw new AppError('not_found');
    return { data: centre };
  });

  serve(app, referenceData.institution, async (request) => {
    const { centre, option } = request.query;
    if (centre !== undefined || option !== undefined) {
      const centreId = centre === '' ? request.params.id : centre;
      return { data: await repo.listInstitutions(db, { centre: centreId, option }) };
    }
    const institution = await repo.findInstitution(db, request.params.id);
    if (!institution) throw new AppError('not_found');
    return { data: institution };
  });

  serve(app, referenceData.institutionsOfCountry, async (request) => ({ data: await repo.listInstitutions(db, { country: request.params.id }) }));
};
