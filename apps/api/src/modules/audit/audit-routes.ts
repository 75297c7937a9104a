import { auditLogQuery, auditLogResponse } from '@sceau/contracts';
import { and, count, desc, eq, like, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { auditLog, users } from '../../db/schema.ts';

export const auditRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db }) => {
  app.get(
    '/audit-log',
    {
      config: { access: { anyRole: ['root'] } },
      schema: { tags: ['audit'], summary: 'The audit log, newest first (root only)', querystring: auditLogQuery, response: { 200: auditLogResponse } },
    },
    async (request) => {
      const { page, per_page: perPage = 50, actor, action } = request.query;
      const conditions: SQL[] = [];
      if (actor) conditions.push(eq(auditLog.actorId, actor));
      // An action or a family of actions: `user` matches user.created, user.archived, …
      if (action) conditions.push(action.includes('.') ? eq(auditLog.action, action) : like(auditLog.action, `${action.replace(/[\\%_]/g, '')}.%`));
      const where = conditions.length ? and(...conditions) : undefined;
      const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(auditLog).where(where);
      const rows = await db
        .select({ entry: auditLog, name: users.name, firstName: users.firstName, email: users.email })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorId))
        .where(where)
        .orderBy(desc(auditLog.id))
        .limit(perPage)
        .offset((page - 1) * perPage);
      return {
        data: rows.map(({ entry, name, firstName, email }) => ({
          id: entry.id,
          at: entry.at.toISOString(),
          actor_id: entry.actorId,
          actor: name ? `${[firstName, name].filter(Boolean).join(' ')}${email ? ` <${email}>` : ''}` : entry.actorLabel,
          action: entry.action,
          subject_type: entry.subjectType,
          subject_id: entry.subjectId,
          ip: entry.ip,
          user_agent: entry.userAgent,
          details: entry.details ?? null,
        })),
        meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total },
      };
    },
  );
};
