import { endpoints } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { listAuditLog } from './audit-service.ts';

export const auditRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db }) => {
  serve(app, endpoints.audit.log, async (request) => listAuditLog(db, request.query));
};
