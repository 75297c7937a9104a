import { GENERATION_STATUSES } from '@sceau/contracts';
import { sql } from 'drizzle-orm';
import { Gauge } from 'prom-client';
import type { Db } from '../db/client.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { registry } from './metrics.ts';

/** Issuing progress is read at most this often: a scrape every few seconds must not count 800,000 diplomas each time. */
const REFRESH_MS = 30_000;
/** A scrape never waits on a slow database longer than this (the figures are then left out). */
const QUERY_TIMEOUT_MS = 2_000;

interface Progress {
  batches: Map<string, number>;
  diplomas: { issued: number; published: number; revoked: number };
}

/**
 * Queue depth and issuing progress, read from the database when Prometheus scrapes. Registered by
 * one process only (the single process, or a cluster's primary), so the cluster's sum counts them
 * once. Every label comes from a fixed list (queue names, batch statuses), never from the data.
 */
export function trackPlatform(db: Db, jobs: JobQueue | null, log: { warn(obj: object, msg: string): void }): void {
  let progress: { at: number; value: Promise<Progress | null> } | null = null;
  const read = async (): Promise<Progress | null> => {
    try {
      return await db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local statement_timeout = ${QUERY_TIMEOUT_MS}`));
        const batches = await tx.execute<{ status: string; n: number }>(sql`select status, count(*)::int as n from generations group by status`);
        const [d] =
          // A revoked batch revokes each of its diplomas (as the dashboard counts them).
          (
            await tx.execute<{ issued: number; published: number; revoked: number }>(sql`
            select count(*)::int as issued,
                   count(*) filter (where g.status = 'completed')::int as published,
                   count(*) filter (where d.revoked_at is not null or g.revoked_at is not null)::int as revoked
              from diplomas d join generations g on g.id = d.generation_id`)
          ).rows;
        return { batches: new Map(batches.rows.map((r) => [r.status, r.n])), diplomas: d ?? { issued: 0, published: 0, revoked: 0 } };
      });
    } catch (error) {
      log.warn({ err: error }, 'metrics: issuing progress could not be read');
      return null;
    }
  };
  const current = () => {
    if (!progress || Date.now() - progress.at > REFRESH_MS) progress = { at: Date.now(), value: read() };
    return progress.value;
  };

  new Gauge({
    name: 'sceau_batches',
    help: 'Diploma batches by status (read at most every 30 s)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const p = await current();
      if (!p) return;
      for (const status of GENERATION_STATUSES) this.set({ status }, p.batches.get(status) ?? 0);
    },
  });
  new Gauge({
    name: 'sceau_diplomas',
    help: 'Diplomas issued (credential made), published (batch anchored and published) and revoked, in total (read at most every 30 s)',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const p = await current();
      if (!p) return;
      for (const state of ['issued', 'published', 'revoked'] as const) this.set({ state }, p.diplomas[state]);
    },
  });
  if (!jobs) return;
  new Gauge({
    name: 'sceau_job_queue_depth',
    help: "Jobs per queue: ready (waiting to run now), deferred (waiting for a later time or a retry's backoff), active (running), as pg-boss counts them",
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      try {
        for (const q of await jobs.depths()) {
          this.set({ queue: q.name, state: 'ready' }, q.ready);
          this.set({ queue: q.name, state: 'deferred' }, q.deferred);
          this.set({ queue: q.name, state: 'active' }, q.active);
        }
      } catch (error) {
        log.warn({ err: error }, 'metrics: the job queue could not be read');
      }
    },
  });
}
