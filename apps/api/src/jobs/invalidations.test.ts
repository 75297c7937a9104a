import { pino } from 'pino';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helpers.ts';
import { Invalidations } from './invalidations.ts';

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

async function until(check: () => boolean) {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
}

describe('invalidations between processes', () => {
  it('delivers a published key to every listener, the publisher included, and none after stop', async () => {
    const a = new Invalidations(database.url, log);
    const b = new Invalidations(database.url, log);
    const seenA: string[] = [];
    const seenB: string[] = [];
    await a.start((k) => seenA.push(k));
    await b.start((k) => seenB.push(k));
    await a.publish(pool, 'ab'.repeat(32));
    await until(() => seenA.length > 0 && seenB.length > 0);
    expect(seenA).toEqual(['ab'.repeat(32)]);
    expect(seenB).toEqual(['ab'.repeat(32)]);

    await b.stop();
    await a.publish(pool, 'cd'.repeat(32));
    await until(() => seenA.length > 1);
    expect(seenA).toEqual(['ab'.repeat(32), 'cd'.repeat(32)]);
    expect(seenB).toHaveLength(1);
    await a.stop();
  });
});
