import { idParam } from '../api.ts';
import { messageResponse } from '../distribution.ts';
import { endpoint } from '../endpoint.ts';
import { revocationDiplomaParams, revocationRequest } from '../generations.ts';

const tags = ['revocation'];
const revoke = { anyPermission: ['diplomas.revoke'] } as const;

export const revocationEndpoints = {
  revoke: endpoint({
    method: 'POST',
    path: '/diplomas/:id/revoke',
    access: revoke,
    tags,
    summary: 'Revoke a published diploma, with a reason (written to the registry)',
    params: revocationDiplomaParams,
    body: revocationRequest,
    responses: { 202: messageResponse },
  }),
  revokeGeneration: endpoint({
    method: 'POST',
    path: '/generations/:id/revoke',
    access: revoke,
    tags,
    summary: 'Revoke every diploma of a published batch, with a reason',
    params: idParam,
    body: revocationRequest,
    responses: { 202: messageResponse },
  }),
} as const;
