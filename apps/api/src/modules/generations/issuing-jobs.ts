import { and, eq, or } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { generations } from '../../db/schema.ts';
import { defineJob, type JobQueue } from '../../jobs/job-queue.ts';
import { RENDER_RANGE, type IssuingService } from './issuing-service.ts';

const batch = z.object({ generationId: z.number().int().positive() });
const range = batch.extend({ fromItemId: z.number().int().positive(), toItemId: z.number().int().positive() });

/**
 * The issuing steps as durable jobs (their handlers are idempotent: see IssuingService). A batch's
 * PDFs are rendered by chunk jobs, so every worker process shares a large batch (ADR 0105).
 */
export function issuingJobs(issuing: IssuingService, options: { rangeSize?: number; renderConcurrency?: number } = {}) {
  const render = defineJob({
    name: 'generation.render',
    payload: range,
    retryLimit: 5,
    retryDelaySeconds: 10,
    expireInSeconds: 30 * 60,
    // Two chunks at a time per process keep its render pool busy while the other's rows and files are written.
    concurrency: options.renderConcurrency ?? 2,
    handle: ({ generationId, fromItemId, toItemId }) => issuing.renderRange(generationId, { from: fromItemId, to: toItemId }),
  });
  return {
    generate: defineJob({
      name: 'generation.generate',
      payload: batch,
      retryLimit: 5,
      retryDelaySeconds: 10,
      expireInSeconds: 2 * 3600,
      // Several batches of a session have their credentials written at the same time.
      concurrency: 2,
      // Without the chunk jobs on its queue, a process renders the whole batch itself.
      handle: ({ generationId }, { queue }) =>
        issuing.generate(
          generationId,
          queue?.has(render)
            ? {
                rangeSize: options.rangeSize ?? RENDER_RANGE,
                fanOut: (ranges) =>
                  queue.sendMany(
                    render,
                    ranges.map((r) => ({ payload: { generationId, fromItemId: r.from, toItemId: r.to }, singletonKey: `render:${generationId}:${r.from}-${r.to}` })),
                  ),
              }
            : {},
        ),
    }),
    render,
    // A chain that is down is waited for: retries with backoff for about a day.
    anchor: defineJob({
      name: 'generation.anchor',
      payload: batch,
      retryLimit: 40,
      retryDelaySeconds: 15,
      expireInSeconds: 15 * 60,
      handle: ({ generationId }) => issuing.anchor(generationId),
    }),
  };
}
export type IssuingJobs = ReturnType<typeof issuingJobs>;

/**
 * At start: the batches a crash left being generated, or being anchored, get their job again. The
 * jobs that were running when the process died stay "active" in the queue until they expire (30
 * minutes to 2 hours): without this, a killed generation would wait that long. The handlers are
 * idempotent, so the new run finishes the work and the old ones, when they come back, find none left.
 */
export async function resumeIssuing(db: Db, queue: JobQueue, jobs: IssuingJobs): Promise<number> {
  const pending = await db
    .select({ id: generations.id, status: generations.status })
    .from(generations)
    .where(or(eq(generations.status, 'in_progress'), and(eq(generations.status, 'ready_for_signature'), eq(generations.signatureStatus, 'in_progress'))));
  for (const { id, status } of pending) {
    if (status === 'in_progress') await queue.send(jobs.generate, { generationId: id }, { singletonKey: `generate:${id}` });
    else await queue.send(jobs.anchor, { generationId: id }, { singletonKey: `anchor:${id}` });
  }
  return pending.length;
}
