import { endpoints } from '@sceau/contracts';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.ts';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { recordAudit, requestOrigin } from '../audit/audit-service.ts';
import { findSignInAccount, passwordMatches, signInThrottleKeys } from './auth-service.ts';
import { LoginThrottle } from './login-throttle.ts';
import { loadProfile } from './profile.ts';
import { issueAccessToken, revokeToken } from './token-service.ts';

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export const authRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, config }) => {
  const throttle = new LoginThrottle(db.$client, config.login);

  serve(app, endpoints.accounts.token, async (request) => {
    const { grant_type, client_id, client_secret, username, password, scope } = request.body;
    if (grant_type !== 'password') throw new AppError('unsupported_grant_type');
    if (client_id !== config.oauth.clientId || !sameSecret(client_secret, config.oauth.clientSecret)) {
      throw new AppError('invalid_client');
    }
    // The account is resolved first so that every spelling of a login shares one counter, and
    // the attempt is counted before the password is checked (atomic; see LoginThrottle).
    const account = await findSignInAccount(db, username);
    const keys = signInThrottleKeys(username, account);
    await throttle.reserve(keys, request.ip);
    if (!(await passwordMatches(account, password))) {
      await recordAudit(db, { action: 'auth.sign_in_failed', actorLabel: username.slice(0, 254) }, request);
      throw new AppError('invalid_credentials');
    }
    const user = { id: account!.id };
    await throttle.succeeded(keys, request.ip);
    const origin = requestOrigin(request);
    const { token, expiresIn } = await db.transaction(async (tx) => {
      const issued = await issueAccessToken(tx, { userId: user.id, clientId: client_id, scope, ttlMinutes: config.tokenTtlMinutes, ...origin });
      await recordAudit(tx, { action: 'auth.signed_in', actorId: user.id, subjectType: 'user', subjectId: user.id }, request);
      return issued;
    });
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
      await revokeToken(db, request.user!.tokenId);
      await recordAudit(db, { action: 'auth.signed_out', subjectType: 'user', subjectId: request.user!.id }, request);
      return { data: { message: request.t('errors:logged_out') } };
    },
    { config: { duringPasswordChange: true } },
  );
};
