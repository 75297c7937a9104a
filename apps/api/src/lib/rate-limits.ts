import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from './errors.ts';

/**
 * A counter kept in PostgreSQL (`rate_limits`), so that every API process sees the same counts:
 * `points` per key in `durationSeconds`. Every limit of the platform is one of these.
 */
export function pgRateLimiter(pool: unknown, options: { keyPrefix: string; points: number; durationSeconds: number }): RateLimiterPostgres {
  return new RateLimiterPostgres({
    storeClient: pool as pg.Pool,
    storeType: 'pool',
    tableName: 'rate_limits',
    tableCreated: true,
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.durationSeconds,
  });
}

/** The 429 a caller sees, with how long to wait (Retry-After, and in the message). */
export function rateLimited(msBeforeNext: number): AppError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError('rate_limited', { params: { seconds }, headers: { 'retry-after': String(seconds) } });
}

/**
 * Counts one point against each (limiter, key) pair at once; past any limit, a 429 with the
 * longest wait. Every counter is counted, so an attempt refused by one still counts on the others.
 */
export async function consumeAll(counters: readonly (readonly [RateLimiterPostgres, string])[]): Promise<void> {
  const outcomes = await Promise.allSettled(counters.map(([limiter, key]) => limiter.consume(key)));
  const waits: number[] = [];
  for (const outcome of outcomes) {
    if (outcome.status === 'fulfilled') continue;
    if (!(outcome.reason instanceof RateLimiterRes)) throw outcome.reason;
    waits.push(outcome.reason.msBeforeNext);
  }
  if (waits.length) throw rateLimited(Math.max(...waits));
}
