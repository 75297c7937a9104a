import { pino } from 'pino';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../../test/helpers.ts';
import { CacheInvalidation } from './cache-invalidation.ts';

let database: { url: string; drop(): Promise<void> };
let pool: pg.Pool;
const log = pino({ level: 'silent' });

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
});
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

describe('cache invalidation as a service', () => {
  it('delivers at once to this process without a bus, and a failing listener does not stop the others', () => {
    const invalidation = new CacheInvalidation(log);
    const seen: string[] = [];
    invalidation.subscribe(() => {
      throw new Error('broken listener');
    });
    const unsubscribe = invalidation.subscribe((key) => seen.push(key));
    invalidation.invalidate('aa');
    expect(seen).toEqual(['aa']);
    unsubscribe();
    invalidation.invalidate('bb');
    expect(seen).toEqual(['aa']);
  });

  it('once shared, reaches every process on the database, and no longer after stop', async () => {
    const a = new CacheInvalidation(log);
    const b = new CacheInvalidation(log);
    const seenA: string[] = [];
    const seenB: string[] = [];
    a.subscribe((key) => seenA.push(key));
    b.subscribe((key) => seenB.push(key));
    await a.share(database.url, pool);
    await b.share(database.url, pool);

    a.invalidate('ab'.repeat(32));
    expect(seenA).toEqual(['ab'.repeat(32)]); // at once, before the notification
    await vi.waitFor(() => expect(seenB).toEqual(['ab'.repeat(32)]), { timeout: 5_000, interval: 20 });
    await vi.waitFor(() => expect(seenA).toHaveLength(2), { timeout: 5_000, interval: 20 }); // its own notification too

    await b.stop();
    a.invalidate('cd'.repeat(32));
    await vi.waitFor(() => expect(seenA).toContain('cd'.repeat(32)), { timeout: 5_000, interval: 20 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seenB).toHaveLength(1);
    await a.stop();
  });
});
