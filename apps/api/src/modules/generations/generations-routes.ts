import { generationDetailResponse, generationItemsQuery, generationsByUserQuery, generationsResponse, idParam } from '@sceau/contracts';
import { and, eq, ilike, sql, type SQL } from 'drizzle-orm';
import { ZipArchive } from 'archiver';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { diplomas, generationItems, generations } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { recordAudit } from '../audit/audit-service.ts';
import { actorOf } from '../../policies/actor.ts';
import { generationPolicy } from '../../policies/generation-policy.ts';
import { batchFor } from './batch-access.ts';
import { listGenerations, listItems, presentGenerations } from './generations-repository.ts';
import { containsPattern } from '../../lib/sql-search.ts';

const tags = ['generations'];

export const generationsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, services }) => {
  app.get(
    '/generations/by-user',
    {
      config: { access: 'user' },
      schema: { tags, summary: "The signed-in user's batches (the dashboard), newest first", querystring: generationsByUserQuery, response: { 200: generationsResponse } },
    },
    async (request) => {
      const { page, per_page: perPage = 10, search, session } = request.query;
      const actor = actorOf(request);
      // Their own batches, and only while they lie in the account's scope (a scope can be narrowed).
      const conditions: (SQL | undefined)[] = [eq(generations.createdBy, actor.id), generationPolicy.visibleCondition(actor)];
      if (search) conditions.push(ilike(generations.title, containsPattern(search)));
      if (session) conditions.push(eq(generations.sessionId, session));
      const { views, total } = await listGenerations(db, actor, and(...conditions), page, perPage);
      return { data: views, meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total } };
    },
  );

  app.get(
    '/generations/:id',
    {
      config: { access: { anyPermission: ['generation.view'], section: 'generation' } },
      schema: { tags, summary: 'A batch and a page of its candidates', params: idParam, querystring: generationItemsQuery, response: { 200: generationDetailResponse } },
    },
    async (request) => {
      const actor = actorOf(request);
      const { id } = await batchFor(db, actor, request.params.id, generationPolicy.view);
      const { page, per_page: perPage = 20, search, institution, centre } = request.query;
      const [view] = await presentGenerations(db, [id], actor);
      const { items, total } = await listItems(db, id, { page, perPage, search, institution, centre });
      return { data: { ...view!, items }, meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total } };
    },
  );

  app.get(
    '/generations/:id/export-zip',
    {
      config: { access: { anyPermission: ['generation.download.many'] } },
      schema: { tags, summary: "A zip of a batch's signed diplomas, streamed", params: idParam },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const { id } = await batchFor(db, actor, request.params.id, generationPolicy.downloadAll);
      const archive = new ZipArchive({ store: true }); // PDFs are compressed already
      const added = new Set<string>();
      // One PDF in memory at a time: the next is read when the previous has gone into the archive.
      const fill = async () => {
        let after = 0;
        for (;;) {
          const page = await db
            .select({
              itemId: diplomas.itemId,
              id: diplomas.id,
              code: diplomas.candidateCode,
              pdfKey: diplomas.pdfKey,
              last: generationItems.lastName,
              first: generationItems.firstName,
            })
            .from(diplomas)
            .innerJoin(generationItems, eq(generationItems.id, diplomas.itemId))
            .where(and(eq(diplomas.generationId, id), sql`${diplomas.itemId} > ${after}`, sql`${diplomas.pdfKey} is not null`))
            .orderBy(diplomas.itemId)
            .limit(100);
          if (page.length === 0) break;
          for (const d of page) {
            const pdf = await services.storage.get(d.pdfKey!);
            if (!pdf) continue;
            const name = `${d.code}-${[d.last, d.first].filter(Boolean).join('-')}`
              .normalize('NFD')
              .replace(/[\u0300-\u036f]/g, '')
              .replace(/[^A-Za-z0-9-]+/g, '-');
            await new Promise<void>((resolve) => {
              archive.once('entry', () => resolve());
              archive.append(pdf, { name: `${added.has(name) ? `${name}-${d.id}` : name}.pdf` });
            });
            added.add(name);
          }
          after = page.at(-1)!.itemId;
        }
        await db
          .update(diplomas)
          .set({ downloads: sql`${diplomas.downloads} + 1` })
          .where(and(eq(diplomas.generationId, id), sql`${diplomas.pdfKey} is not null`));
        await recordAudit(db, { action: 'generation.exported', subjectType: 'generation', subjectId: id, details: { files: added.size } }, actor);
        await archive.finalize();
      };
      fill().catch((error) => archive.destroy(error));
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="diplomes-lot-${id}.zip"`)
        .header('cache-control', 'private, no-store')
        .send(archive);
    },
  );

  app.get(
    '/items/:id',
    {
      config: { access: { anyPermission: ['generation.download.one'] } },
      schema: { tags, summary: "A candidate's signed diploma (PDF)", params: idParam },
    },
    async (request, reply) => {
      const [row] = await db
        .select({ diploma: diplomas, generationId: generationItems.generationId })
        .from(generationItems)
        .innerJoin(diplomas, eq(diplomas.itemId, generationItems.id))
        .where(eq(generationItems.id, request.params.id));
      if (!row || !row.diploma.pdfKey) throw new AppError('not_found');
      const actor = actorOf(request);
      await batchFor(db, actor, row.generationId, generationPolicy.downloadOne);
      const pdf = await services.storage.get(row.diploma.pdfKey);
      if (!pdf) throw new AppError('not_found');
      await db.transaction(async (tx) => {
        await tx
          .update(diplomas)
          .set({ downloads: sql`${diplomas.downloads} + 1` })
          .where(eq(diplomas.id, row.diploma.id));
        await recordAudit(tx, { action: 'diploma.downloaded', subjectType: 'diploma', subjectId: row.diploma.id }, actor);
      });
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="diplome-${row.diploma.candidateCode}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
};
