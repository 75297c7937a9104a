import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { AppError } from '../lib/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Open to someone who must still change a temporary password (/me, the change itself, sign-out). */
    duringPasswordChange?: boolean;
  }
}

/**
 * A temporary password (an administrator's creation or reset) must be changed before the account
 * does anything else: the API enforces it, not only the web app (ADR 0113). Runs after the access
 * plugin's hook, which has identified the caller.
 */
export const passwordChangePlugin = fp(async (app: FastifyInstance, opts: { db: Db }) => {
  app.addHook('preValidation', async (request) => {
    if (!request.user || request.routeOptions.config?.duringPasswordChange) return;
    const [row] = await opts.db.select({ required: users.passwordResetRequired }).from(users).where(eq(users.id, request.user.id));
    if (row?.required) throw new AppError('password_change_required');
  });
});
