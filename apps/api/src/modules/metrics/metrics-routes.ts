import { envelope } from '@sceau/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';

export const metricsResponse = envelope(
  z.object({
    data: z.object({
      /** Diplomas published and not revoked. */
      documents: z.number().int(),
      /** Distinct candidates holding one. */
      students: z.number().int(),
      /** Schools with at least one. */
      schools: z.number().int(),
      /** Diploma PDFs downloaded. */
      downloads: z.number().int(),
    }),
  }),
);

const FRESH_MS = 60_000;

/**
 * The public counters of the home page (spec: `GET metrics` on the public host, `data.data`).
 * Counted in one query over published batches and kept for a minute: a results-day crowd on the
 * home page costs one query a minute per process.
 */
export const metricsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db }) => {
  let cached: { at: number; value: z.infer<typeof metricsResponse>['data']['data'] } | null = null;

  app.get(
    '/metrics',
    { config: { access: 'public' }, schema: { tags: ['metrics'], summary: 'Public counters: diplomas, students, schools, downloads', response: { 200: metricsResponse } } },
    async (_, reply) => {
      if (!cached || Date.now() - cached.at > FRESH_MS) {
        const { rows } = await db.execute<{ documents: string; students: string; schools: string; downloads: string }>(sql`
          select count(*) filter (where d.revoked_at is null and g.revoked_at is null) as documents,
                 count(distinct d.candidate_code) filter (where d.revoked_at is null and g.revoked_at is null) as students,
                 count(distinct i.institution_id) filter (where d.revoked_at is null and g.revoked_at is null) as schools,
                 coalesce(sum(d.downloads), 0) as downloads
          from diplomas d
          join generations g on g.id = d.generation_id and g.status = 'completed'
          join generation_items i on i.id = d.item_id`);
        const r = rows[0]!;
        cached = { at: Date.now(), value: { documents: Number(r.documents), students: Number(r.students), schools: Number(r.schools), downloads: Number(r.downloads) } };
      }
      reply.header('cache-control', 'public, max-age=60');
      return { data: { data: cached.value } };
    },
  );
};
