import { auditLogQuery, auditLogResponse } from '../accounts.ts';
import { endpoint } from '../endpoint.ts';

export const auditEndpoints = {
  log: endpoint({
    method: 'GET',
    path: '/audit-log',
    access: { anyRole: ['root'] },
    tags: ['audit'],
    summary: 'The audit log, newest first (root only)',
    query: auditLogQuery,
    responses: { 200: auditLogResponse },
  }),
} as const;
