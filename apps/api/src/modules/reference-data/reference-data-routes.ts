import {
  centreResponse,
  centresByProvinceQuery,
  centresQuery,
  centresResponse,
  countriesResponse,
  educProvincesResponse,
  idParam,
  institutionResponse,
  institutionsQuery,
  institutionsResponse,
  optionsResponse,
  sessionsResponse,
} from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../lib/errors.ts';
import * as repo from './reference-data-repository.ts';

const tags = ['reference-data'];

export const referenceDataRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db }) => {
  // Reference data changes between exam sessions, not between requests: let browsers and CDNs keep it.
  app.addHook('onSend', async (request, reply) => {
    if (request.method === 'GET' && reply.statusCode === 200) reply.header('cache-control', 'public, max-age=300');
  });

  app.get('/countries', { config: { access: 'public' }, schema: { tags, summary: 'Countries with dial codes', response: { 200: countriesResponse } } }, async (request) => ({
    data: { data: await repo.listCountries(db, request.locale) },
  }));

  app.get('/sessions', { config: { access: 'public' }, schema: { tags, summary: 'Exam sessions', response: { 200: sessionsResponse } } }, async () => ({
    data: await repo.listSessions(db),
  }));

  app.get('/educ-provinces', { config: { access: 'public' }, schema: { tags, summary: 'Educational provinces', response: { 200: educProvincesResponse } } }, async () => ({
    data: await repo.listEducProvinces(db),
  }));

  app.get('/options', { config: { access: 'public' }, schema: { tags, summary: 'Options (study tracks)', response: { 200: optionsResponse } } }, async () => ({
    data: await repo.listOptions(db),
  }));

  app.get(
    '/centres',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'The exam centres of an educational province', querystring: centresByProvinceQuery, response: { 200: centresResponse } },
    },
    async (request) => ({ data: await repo.listCentresOfProvince(db, request.query.province) }),
  );

  app.get(
    '/centres/:id',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'An exam centre; with `?option`, the centres offering option {id}',
        params: idParam,
        querystring: centresQuery,
        response: { 200: centreResponse.or(centresResponse) },
      },
    },
    async (request) => {
      if (request.query.option !== undefined) return { data: await repo.listCentresOfferingOption(db, request.params.id) };
      const centre = await repo.findCentre(db, request.params.id);
      if (!centre) throw new AppError('not_found');
      return { data: centre };
    },
  );

  app.get(
    '/institutions/:id',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'A school; with `?centre&option`, the schools of that centre offering that option',
        params: idParam,
        querystring: institutionsQuery,
        response: { 200: institutionResponse.or(institutionsResponse) },
      },
    },
    async (request) => {
      const { centre, option } = request.query;
      if (centre !== undefined || option !== undefined) {
        const centreId = centre === '' ? request.params.id : centre;
        return { data: await repo.listInstitutions(db, { centre: centreId, option }) };
      }
      const institution = await repo.findInstitution(db, request.params.id);
      if (!institution) throw new AppError('not_found');
      return { data: institution };
    },
  );

  app.get(
    '/institutions/country/:id',
    { config: { access: 'public' }, schema: { tags, summary: 'The schools of a country', params: idParam, response: { 200: institutionsResponse } } },
    async (request) => ({ data: await repo.listInstitutions(db, { country: request.params.id }) }),
  );
};
