import { errorResponse } from '../api.ts';
import { contactRequest, contactResponse } from '../public-site.ts';
import { endpoint } from '../endpoint.ts';

export const contactEndpoints = {
  /** The public contact form (spec sections 1 and 8). */
  send: endpoint({
    method: 'POST',
    path: '/contact',
    access: 'public',
    tags: ['contact'],
    summary: "Sends a message to the platform's team (stored, and e-mailed to the provider's address)",
    body: contactRequest,
    responses: { 201: contactResponse, 429: errorResponse },
  }),
} as const;
