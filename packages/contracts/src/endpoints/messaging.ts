import { outboxQuery, outboxResponse } from '../api.ts';
import { endpoint } from '../endpoint.ts';

export const messagingEndpoints = {
  /** Development only, and only to the machine itself: elsewhere the route does not exist. */
  outbox: endpoint({
    method: 'GET',
    path: '/dev/outbox',
    access: 'public',
    tags: ['development'],
    summary: 'Messages written to the development outbox, newest first',
    query: outboxQuery,
    responses: { 200: outboxResponse },
  }),
} as const;
