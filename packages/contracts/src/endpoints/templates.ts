import { idParam } from '../api.ts';
import { generationTypesResponse, templateResponse, templatesQuery, templatesResponse } from '../templates.ts';
import { endpoint } from '../endpoint.ts';

const tags = ['templates'] as const;
const access = { anyPermission: ['generation.create', 'generation.view'], section: 'generation' } as const;

/** Diploma templates, and the kinds of documents a batch can issue. */
export const templatesEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/templates',
    access,
    tags,
    summary: 'Diploma templates, of an owner (`{id}_country` or `{id}_institution`) or all the user may use',
    query: templatesQuery,
    responses: { 200: templatesResponse },
  }),
  country: endpoint({
    method: 'GET',
    path: '/templates/drc',
    access,
    tags,
    summary: "The country's Diplôme d'État template, with its design",
    responses: { 200: templateResponse },
  }),
  one: endpoint({ method: 'GET', path: '/templates/:id', access, tags, summary: 'A template with its design', params: idParam, responses: { 200: templateResponse } }),
  generationTypes: endpoint({
    method: 'GET',
    path: '/generations/types',
    access,
    tags,
    summary: 'The kinds of documents a batch can issue',
    responses: { 200: generationTypesResponse },
  }),
} as const;
