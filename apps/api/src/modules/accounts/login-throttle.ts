import type pg from 'pg';
import type { RateLimiterPostgres } from 'rate-limiter-flexible';
import { consumeAll, pgRateLimiter } from '../../lib/rate-limits.ts';

/**
 * Counts sign-in attempts per account and per address in the database, so every API process sees
 * the same counters (ADR 0006, amended by ADR 0112).
 *
 * An attempt is counted *before* the password is checked, by one atomic upsert per counter
 * (`consume`), so that N concurrent attempts cannot all read "under the limit": only the first
 * `maxFailures` get their password evaluated. A right password gives the attempt back (the
 * account's counter is cleared, the address's point refunded), so only failures add up.
 * Past the limit the answer is 429 until the window ends, even for the right password (otherwise
 * the limit would tell a guesser when it found it).
 */
export class LoginThrottle {
  private readonly byAccount: RateLimiterPostgres;
  private readonly byAddress: RateLimiterPostgres;

  constructor(pool: pg.Pool, limits: { maxFailures: number; windowMinutes: number }) {
    const durationSeconds = limits.windowMinutes * 60;
    // New prefixes: the keys are accounts now, no longer the typed login names of 'login'.
    this.byAccount = pgRateLimiter(pool, { keyPrefix: 'signin', points: limits.maxFailures, durationSeconds });
    this.byAddress = pgRateLimiter(pool, { keyPrefix: 'signin_ip', points: limits.maxFailures * 4, durationSeconds });
  }

  /**
   * Counts one attempt against each account key and the address; throws rate_limited (with
   * Retry-After) when any counter is past its limit, before any password is looked at.
   */
  async reserve(accountKeys: string[], ip: string): Promise<void> {
    await consumeAll([[this.byAddress, ip], ...accountKeys.map((key) => [this.byAccount, key] as const)]);
  }

  /** The attempt was right: the account's failures are forgotten and the address gets its point back. */
  async succeeded(accountKeys: string[], ip: string): Promise<void> {
    await Promise.all([this.byAddress.reward(ip, 1), ...accountKeys.map((key) => this.byAccount.delete(key))]);
  }
}
