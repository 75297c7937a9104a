import { metricsResponse } from '../api.ts';
import { endpoint } from '../endpoint.ts';

export const metricsEndpoints = {
  counters: endpoint({
    method: 'GET',
    path: '/metrics',
    access: 'public',
    tags: ['metrics'],
    summary: 'Public counters: diplomas, students, schools, downloads',
    responses: { 200: metricsResponse },
  }),
} as const;
