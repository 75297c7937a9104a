import { describe, expect, it } from 'vitest';
import { batchedReader, MAX_BATCH } from './batched-reads.ts';

const statement = { name: 'rows_by_id', text: 'select id, value from rows where id = any($1::varchar[])', keyColumn: 'id' };

/** A pool that answers from a table and records each statement's keys. */
function fakePool(table: Map<string, { id: string; value: number }>, fail?: () => Error | null) {
  const calls: string[][] = [];
  return {
    calls,
    pool: {
      query: async (config: { name: string; values: [string[]] }) => {
        expect(config.name).toBe('rows_by_id');
        const keys = config.values[0];
        calls.push(keys);
        await new Promise((resolve) => setTimeout(resolve, 5));
        const error = fail?.();
        if (error) throw error;
        return { rows: keys.flatMap((k) => (table.has(k) ? [{ ...table.get(k)! }] : [])) };
      },
    },
  };
}

describe('batchedReader', () => {
  const table = new Map(Array.from({ length: 300 }, (_, i) => [`id${i}`, { id: `id${i}`, value: i }]));

  it('reads the keys asked in one turn with one statement, each its own row, null for an unknown key', async () => {
    const { pool, calls } = fakePool(table);
    const reader = batchedReader<{ id: string; value: number }>(pool as never, statement);
    const answers = await Promise.all([reader.read('id1'), reader.read('id2'), reader.read('nope'), reader.read('id1')]);
    expect(answers).toEqual([{ id: 'id1', value: 1 }, { id: 'id2', value: 2 }, null, { id: 'id1', value: 1 }]);
    expect(calls).toEqual([['id1', 'id2', 'nope']]);
  });

  it('keeps nothing: a key asked again later is read again, with what the database says then', async () => {
    const rows = new Map(table);
    const { pool, calls } = fakePool(rows);
    const reader = batchedReader<{ id: string; value: number }>(pool as never, statement);
    expect(await reader.read('id5')).toEqual({ id: 'id5', value: 5 });
    rows.set('id5', { id: 'id5', value: 55 });
    expect(await reader.read('id5')).toEqual({ id: 'id5', value: 55 });
    rows.delete('id5');
    expect(await reader.read('id5')).toBeNull();
    expect(calls).toEqual([['id5'], ['id5'], ['id5']]);
  });

  it('splits a turn bigger than MAX_BATCH keys', async () => {
    const { pool, calls } = fakePool(table);
    const reader = batchedReader<{ id: string; value: number }>(pool as never, statement);
    const keys = Array.from({ length: MAX_BATCH + 10 }, (_, i) => `id${i}`);
    const answers = await Promise.all(keys.map((k) => reader.read(k)));
    expect(answers.map((a) => a?.value)).toEqual(keys.map((_, i) => i));
    expect(calls.map((c) => c.length)).toEqual([MAX_BATCH, 10]);
  });

  it('a failed statement fails every read of its batch, and the next turn reads again', async () => {
    let broken = true;
    const { pool } = fakePool(table, () => (broken ? new Error('connection lost') : null));
    const reader = batchedReader<{ id: string; value: number }>(pool as never, statement);
    const results = await Promise.allSettled([reader.read('id1'), reader.read('id2')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    broken = false;
    expect(await reader.read('id1')).toEqual({ id: 'id1', value: 1 });
  });
});
