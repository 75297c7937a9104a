import { idParam } from '../api.ts';
import {
  centreResponse,
  centresByProvinceQuery,
  centresQuery,
  centresResponse,
  countriesResponse,
  educProvincesResponse,
  institutionResponse,
  institutionsQuery,
  institutionsResponse,
  optionsResponse,
  sessionsResponse,
} from '../reference-data.ts';
import { endpoint } from '../endpoint.ts';

const tags = ['reference-data'] as const;

/** Public reference data (spec section 7). */
export const referenceDataEndpoints = {
  countries: endpoint({ method: 'GET', path: '/countries', access: 'public', tags, summary: 'Countries with dial codes', responses: { 200: countriesResponse } }),
  sessions: endpoint({ method: 'GET', path: '/sessions', access: 'public', tags, summary: 'Exam sessions', responses: { 200: sessionsResponse } }),
  educProvinces: endpoint({ method: 'GET', path: '/educ-provinces', access: 'public', tags, summary: 'Educational provinces', responses: { 200: educProvincesResponse } }),
  options: endpoint({ method: 'GET', path: '/options', access: 'public', tags, summary: 'Options (study tracks)', responses: { 200: optionsResponse } }),
  centresOfProvince: endpoint({
    method: 'GET',
    path: '/centres',
    access: 'public',
    tags,
    summary: 'The exam centres of an educational province',
    query: centresByProvinceQuery,
    responses: { 200: centresResponse },
  }),
  centre: endpoint({
    method: 'GET',
    path: '/centres/:id',
    access: 'public',
    tags,
    summary: 'An exam centre; with `?option`, the centres offering option {id}',
    params: idParam,
    query: centresQuery,
    responses: { 200: centreResponse.or(centresResponse) },
  }),
  institution: endpoint({
    method: 'GET',
    path: '/institutions/:id',
    access: 'public',
    tags,
    summary: 'A school; with `?centre&option`, the schools of that centre offering that option',
    params: idParam,
    query: institutionsQuery,
    responses: { 200: institutionResponse.or(institutionsResponse) },
  }),
  institutionsOfCountry: endpoint({
    method: 'GET',
    path: '/institutions/country/:id',
    access: 'public',
    tags,
    summary: 'The schools of a country',
    params: idParam,
    responses: { 200: institutionsResponse },
  }),
} as const;
