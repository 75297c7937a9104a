import type { TokenRequest } from '@sceau/contracts';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { recordAudit, requestOrigin } from '../audit/audit-service.ts';
import { findSignInAccount, passwordMatches, signInThrottleKeys } from './auth-service.ts';
import { LoginThrottle } from './login-throttle.ts';
import { revokeToken, issueAccessToken } from './token-service.ts';

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Signing in with a password (the OAuth 2 password grant) and out; failures counted by LoginThrottle. */
export class SignInService {
  private readonly throttle: LoginThrottle;

  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, 'oauth' | 'login' | 'tokenTtlMinutes'>,
  ) {
    this.throttle = new LoginThrottle(db.$client, config.login);
  }

  async withPassword(input: TokenRequest, request: FastifyRequest): Promise<{ token: string; expiresIn: number }> {
    const { grant_type, client_id, client_secret, username, password, scope } = input;
    if (grant_type !== 'password') throw new AppError('unsupported_grant_type');
    if (client_id !== this.config.oauth.clientId || !sameSecret(client_secret, this.config.oauth.clientSecret)) {
      throw new AppError('invalid_client');
    }
    // The account is resolved first so that every spelling of a login shares one counter, and
    // the attempt is counted before the password is checked (atomic; see LoginThrottle).
    const account = await findSignInAccount(this.db, username);
    const keys = signInThrottleKeys(username, account);
    await this.throttle.reserve(keys, request.ip);
    if (!(await passwordMatches(account, password))) {
      await recordAudit(this.db, { action: 'auth.sign_in_failed', actorLabel: username.slice(0, 254) }, request);
      throw new AppError('invalid_credentials');
    }
    const user = { id: account!.id };
    await this.throttle.succeeded(keys, request.ip);
    const origin = requestOrigin(request);
    return this.db.transaction(async (tx) => {
      const issued = await issueAccessToken(tx, { userId: user.id, clientId: client_id, scope, ttlMinutes: this.config.tokenTtlMinutes, ...origin });
      await recordAudit(tx, { action: 'auth.signed_in', actorId: user.id, subjectType: 'user', subjectId: user.id }, request);
      return issued;
    });
  }

  /** Revokes the token the request came with. */
  async signOut(request: FastifyRequest): Promise<void> {
    await revokeToken(this.db, request.user!.tokenId);
    await recordAudit(this.db, { action: 'auth.signed_out', subjectType: 'user', subjectId: request.user!.id }, request);
  }
}
