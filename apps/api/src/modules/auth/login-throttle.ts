import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type pg from 'pg';
import { AppError } from '../../lib/errors.ts';

/**
 * Counts failed sign-ins per login name and per address in the database, so every API process
 * sees the same counters. Past the limit, sign-in answers 429 until the window ends, even with the
 * right password (otherwise the limit would tell a guesser when it found it).
 */
export class LoginThrottle {
  private readonly byLogin: RateLimiterPostgres;
  private readonly byAddress: RateLimiterPostgres;

  constructor(pool: pg.Pool, limits: { maxFailures: number; windowMinutes: number }) {
    const common = { storeClient: pool, storeType: 'pool', tableName: 'rate_limits', tableCreated: true, duration: limits.windowMinutes * 60 };
    this.byLogin = new RateLimiterPostgres({ ...common, keyPrefix: 'login', points: limits.maxFailures });
    this.byAddress = new RateLimiterPostgres({ ...common, keyPrefix: 'login_ip', points: limits.maxFailures * 4 });
  }

  private static loginKey(login: string) {
    return login.trim().toLowerCase();
  }

  /** Throws rate_limited when either counter is exhausted. */
  async assertAllowed(login: string, ip: string): Promise<void> {
    const [forLogin, forAddress] = await Promise.all([this.byLogin.get(LoginThrottle.loginKey(login)), this.byAddress.get(ip)]);
    const blocked = [
      [forLogin, this.byLogin.points],
      [forAddress, this.byAddress.points],
    ].filter(([res, points]) => res && (res as RateLimiterRes).consumedPoints >= (points as number));
    if (blocked.length === 0) return;
    const waitMs = Math.max(...blocked.map(([res]) => (res as RateLimiterRes).msBeforeNext));
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    throw new AppError('rate_limited', { params: { seconds }, headers: { 'retry-after': String(seconds) } });
  }

  async recordFailure(login: string, ip: string): Promise<void> {
    await Promise.all([
      this.byLogin.penalty(LoginThrottle.loginKey(login), 1),
      this.byAddress.penalty(ip, 1),
    ]);
  }

  async recordSuccess(login: string): Promise<void> {
    await this.byLogin.delete(LoginThrottle.loginKey(login));
  }
}
