import { endpoints } from '@sceau/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { AppError } from '../../lib/errors.ts';
import { loadProfile } from './profile.ts';
import { SignInService } from './sign-in-service.ts';

export const authRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, config }) => {
  const signIn = new SignInService(db, config);

  serve(app, endpoints.accounts.token, async (request) => {
    const { token, expiresIn } = await signIn.withPassword(request.body, request);
    return { token_type: 'Bearer' as const, access_token: token, expires_in: expiresIn };
  });

  serve(
    app,
    endpoints.accounts.me,
    async (request) => {
      const profile = await loadProfile(db, request.user!.id);
      if (!profile) throw new AppError('unauthenticated');
      return { data: { data: profile } };
    },
    { config: { duringPasswordChange: true } },
  );

  serve(
    app,
    endpoints.accounts.logout,
    async (request) => {
      await signIn.signOut(request);
      return { data: { message: request.t('errors:logged_out') } };
    },
    { config: { duringPasswordChange: true } },
  );
};
