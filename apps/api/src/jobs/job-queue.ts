import { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { jobsRun } from '../prometheus/metrics.ts';

/**
 * A background job: a name, a zod payload and a handler. Handlers must be idempotent: after a
 * crash, or on a retry, the same job may run again and must neither duplicate nor lose work.
 */
export interface JobDefinition<P extends z.ZodType = z.ZodType> {
  name: string;
  payload: P;
  /** Retries after a failure (exponential backoff from `retryDelaySeconds`). */
  retryLimit: number;
  retryDelaySeconds: number;
  /** Ceiling of the backoff between retries (default 10 minutes). */
  retryDelayMaxSeconds?: number;
  /** How long one run may take before pg-boss considers it lost and runs it again. */
  expireInSeconds: number;
  /** Jobs of this name one process runs at the same time (default 1). */
  concurrency?: number;
  /** A periodic job: queued on this cron schedule (UTC) by whichever process's clock comes first. */
  cron?: string;
  /** `queue` lets a handler queue follow-up jobs (e.g. a batch's chunks, ADR 0105). */
  handle(payload: z.infer<P>, job: { id: string; queue?: JobQueue }): Promise<void>;
}

export function defineJob<P extends z.ZodType>(definition: JobDefinition<P>): JobDefinition<P> {
  return definition;
}

/**
 * The durable queue (pg-boss, in the platform's own PostgreSQL): jobs survive restarts and crashes,
 * several worker processes share them without running one twice at the same time.
 */
export class JobQueue {
  private boss: PgBoss | null = null;
  private readonly definitions = new Map<string, JobDefinition>();

  constructor(
    private readonly connectionString: string,
    private readonly log: Pick<Logger, 'info' | 'warn' | 'error'>,
  ) {}

  define(...definitions: JobDefinition[]): this {
    for (const d of definitions) this.definitions.set(d.name, d);
    return this;
  }

  /** Whether `start` has run (and `stop` not since): jobs can be sent. */
  get started(): boolean {
    return this.boss !== null;
  }

  /** Whether this queue was given that job (a handler may fall back to doing the work itself). */
  has(definition: JobDefinition): boolean {
    return this.definitions.get(definition.name) === definition;
  }

  /** Creates the queues; with `work`, this process also runs the jobs. */
  async start(options: { work: boolean; pollingIntervalSeconds?: number }): Promise<void> {
    // LISTEN/NOTIFY: a queued job wakes the workers at once (polling stays as the fallback), so the
    // steps of a batch (import, generation chunks, anchoring) follow one another without a poll's wait.
    const boss = new PgBoss({ connectionString: this.connectionString, schema: 'pgboss', max: 4, useListenNotify: true });
    boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
    await boss.start();
    this.boss = boss;
    for (const d of this.definitions.values()) {
      const queue = {
        retryLimit: d.retryLimit,
        retryDelay: d.retryDelaySeconds,
        retryBackoff: true,
        retryDelayMax: d.retryDelayMaxSeconds ?? 600,
        expireInSeconds: d.expireInSeconds,
        notify: true,
      };
      if (await boss.getQueue(d.name)) await boss.updateQueue(d.name, queue);
      else await boss.createQueue(d.name, queue);
      if (d.cron) await boss.schedule(d.name, d.cron);
      if (!options.work) continue;
      // NOTIFY wakes a worker at once; the poll stays at its interval too (jobs queued in bulk notify no one).
      const every = options.pollingIntervalSeconds ?? 1;
      const work = { batchSize: 1, pollingIntervalSeconds: every, notifyPollingIntervalSeconds: every, localConcurrency: Math.max(1, d.concurrency ?? 1) };
      await boss.work(d.name, work, async ([job]) => {
        if (!job) return;
        try {
          await d.handle(d.payload.parse(job.data), { id: job.id, queue: this });
        } catch (error) {
          jobsRun.inc({ job: d.name, outcome: 'failed' });
          this.log.warn({ err: error, job: d.name, id: job.id }, 'job failed; it will be retried if retries remain');
          throw error;
        }
        jobsRun.inc({ job: d.name, outcome: 'completed' });
      });
    }
  }

  /** Queues a job. With `singletonKey`, a job with the same key already waiting is not queued twice. */
  async send<P extends z.ZodType>(definition: JobDefinition<P>, payload: z.infer<P>, options: { singletonKey?: string; startAfterSeconds?: number } = {}): Promise<string | null> {
    if (!this.boss) throw new Error('the job queue is not started');
    const data = definition.payload.parse(payload) as object;
    return this.boss.send(definition.name, data, {
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
    });
  }

  /** Queues many jobs of one definition in one statement (duplicates of a waiting singletonKey are skipped). */
  async sendMany<P extends z.ZodType>(definition: JobDefinition<P>, jobs: { payload: z.infer<P>; singletonKey?: string }[]): Promise<void> {
    if (!this.boss) throw new Error('the job queue is not started');
    if (jobs.length === 0) return;
    await this.boss.insert(
      definition.name,
      jobs.map((j) => ({ data: definition.payload.parse(j.payload) as object, ...(j.singletonKey ? { singletonKey: j.singletonKey } : {}) })),
    );
  }

  /** Jobs waiting and running per queue of this platform, as pg-boss last counted them (metrics). */
  async depths(): Promise<{ name: string; ready: number; deferred: number; active: number }[]> {
    if (!this.boss) return [];
    const queues = await this.boss.getQueues([...this.definitions.keys()]);
    return queues.map((q) => ({ name: q.name, ready: q.readyCount, deferred: q.deferredCount, active: q.activeCount }));
  }

  /** Fails unless the queue is started and its database answers (readiness, ADR 0112). */
  async check(): Promise<void> {
    if (!this.boss) throw new Error('the job queue is not started');
    await this.boss.getDb().executeSql('select 1');
  }

  async stop(): Promise<void> {
    await this.boss?.stop({ graceful: true, timeout: 20_000 });
    this.boss = null;
  }
}
