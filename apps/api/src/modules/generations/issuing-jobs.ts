import { z } from 'zod';
import { defineJob } from '../../jobs/job-queue.ts';
import type { IssuingService } from './issuing-service.ts';

const batch = z.object({ generationId: z.number().int().positive() });

/** The issuing steps as durable jobs (their handlers are idempotent: see IssuingService). */
export function issuingJobs(issuing: IssuingService) {
  return {
    generate: defineJob({
      name: 'generation.generate',
      payload: batch,
      retryLimit: 5,
      retryDelaySeconds: 10,
      expireInSeconds: 2 * 3600,
      handle: ({ generationId }) => issuing.generate(generationId),
    }),
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
