import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client.ts';

/**
 * Counts public downloads of diploma PDFs into `diplomas.downloads` (what `GET /metrics` sums)
 * without a write per download: increments are added up in memory and written every few seconds
 * in one statement, and when the process stops (ADR 0091). The same address downloading the same
 * diploma again within the hour counts once, so reloads and retries on a slow network do not
 * inflate the counter.
 */
export class DownloadCounter {
  private pending = new Map<string, number>();
  private readonly recent = new LRUCache<string, true>({ max: 100_000, ttl: 60 * 60_000 });
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly options: { flushMs?: number; log?: { warn(obj: unknown, msg?: string): void } } = {},
  ) {}

  /** One download of a diploma by an address; whether it was counted (not a repeat). */
  record(diplomaId: string, address: string): boolean {
    const key = `${address}\u0000${diplomaId}`;
    if (this.recent.has(key)) return false;
    this.recent.set(key, true);
    this.pending.set(diplomaId, (this.pending.get(diplomaId) ?? 0) + 1);
    this.timer ??= setTimeout(() => void this.flush(), this.options.flushMs ?? 5_000).unref();
    return true;
  }

  /** Writes what was counted so far (one UPDATE for every diploma downloaded since the last one). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    if (batch.size === 0) return this.flushing;
    this.pending = new Map();
    const values = sql.join(
      [...batch].map(([id, n]) => sql`(${id}::varchar, ${n}::int)`),
      sql`, `,
    );
    this.flushing = this.flushing.then(async () => {
      try {
        await this.db.execute(sql`update diplomas d set downloads = d.downloads + v.n from (values ${values}) as v(id, n) where d.id = v.id`);
      } catch (error) {
        // Given back, to be written with the next batch.
        for (const [id, n] of batch) this.pending.set(id, (this.pending.get(id) ?? 0) + n);
        this.timer ??= setTimeout(() => void this.flush(), this.options.flushMs ?? 5_000).unref();
        this.options.log?.warn({ err: error, diplomas: batch.size }, 'download counts not written; kept for the next attempt');
      }
    });
    return this.flushing;
  }
}
