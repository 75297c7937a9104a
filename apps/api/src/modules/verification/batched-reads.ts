/**
 * Reads by key gathered into one statement (ADR 0153): the keys asked during one turn of the event
 * loop (every request whose bytes arrived together) are read by one named statement
 * (`… = any($1)`), instead of one round trip each. On results day a process receives dozens of
 * cold requests at once; one round trip for all of them saves PostgreSQL a statement's fixed cost
 * (wake-up, bind, executor start, reply) per request, and both sides a socket write per request.
 *
 * Nothing is kept: every read goes to the database (the answer is as current as a read of its own);
 * a read asked while a batch is in flight waits for the next one, never for a stale answer.
 */
import type pg from 'pg';

/** What the batch runs: a named statement whose one parameter is the array of keys. */
export interface BatchedStatement {
  name: string;
  /** A statement whose `$1` is a `text[]` of keys; each returned row has its key in `keyColumn`. */
  text: string;
  keyColumn: string;
}

export interface BatchedReader<Row> {
  /** The row of this key, or null when there is none. */
  read(key: string): Promise<Row | null>;
}

/** The most keys one statement carries (a bigger turn is split). */
export const MAX_BATCH = 128;

export function batchedReader<Row extends object>(pool: Pick<pg.Pool, 'query'>, statement: BatchedStatement): BatchedReader<Row> {
  type Waiting = Array<{ resolve: (row: Row | null) => void; reject: (error: unknown) => void }>;
  let pending = new Map<string, Waiting>();
  let scheduled = false;

  const run = async (batch: Map<string, Waiting>) => {
    const keys = [...batch.keys()];
    try {
      const { rows } = await pool.query<Row>({ name: statement.name, text: statement.text, values: [keys] });
      const byKey = new Map<string, Row>();
      for (const row of rows) byKey.set(String((row as Record<string, unknown>)[statement.keyColumn]), row);
      for (const [key, waiting] of batch) {
        const row = byKey.get(key) ?? null;
        for (const w of waiting) w.resolve(row);
      }
    } catch (error) {
      for (const waiting of batch.values()) for (const w of waiting) w.reject(error);
    }
  };

  const flush = () => {
    scheduled = false;
    const all = pending;
    pending = new Map();
    let batch = new Map<string, Waiting>();
    for (const [key, waiting] of all) {
      batch.set(key, waiting);
      if (batch.size === MAX_BATCH) {
        void run(batch);
        batch = new Map();
      }
    }
    if (batch.size) void run(batch);
  };

  return {
    read: (key) =>
      new Promise<Row | null>((resolve, reject) => {
        const waiting = pending.get(key);
        if (waiting) waiting.push({ resolve, reject });
        else pending.set(key, [{ resolve, reject }]);
        if (!scheduled) {
          scheduled = true;
          // After this turn's I/O callbacks: every request parsed in this turn joins the batch.
          setImmediate(flush);
        }
      }),
  };
}
