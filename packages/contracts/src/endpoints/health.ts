import { healthResponse, readinessResponse } from '../api.ts';
import { endpoint } from '../endpoint.ts';

/** Liveness and readiness (ADR 0112). */
export const healthEndpoints = {
  live: endpoint({
    method: 'GET',
    path: '/health',
    access: 'public',
    tags: ['health'],
    summary: 'Liveness: the process answers (no dependency checked)',
    responses: { 200: healthResponse },
  }),
  ready: endpoint({
    method: 'GET',
    path: '/health/ready',
    access: 'public',
    tags: ['health'],
    summary: 'Readiness: database, chain and job queue each ok or failing; 503 when not ready',
    responses: { 200: readinessResponse, 503: readinessResponse },
  }),
} as const;
