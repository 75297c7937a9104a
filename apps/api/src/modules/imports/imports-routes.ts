import multipart from '@fastify/multipart';
import {
  checkImportFields,
  findResultRequest,
  fromRegistryRequest,
  fromRegistryResponse,
  idParam,
  IMPORT_LIMITS,
  importCandidatesFields,
  importCandidatesResponse,
  importCheckResponse,
  importExampleQuery,
  importationsQuery,
  importationsResponse,
  importationTrackingResponse,
  IMPORTATIONS_LISTED,
  IMPORTATIONS_RECENT_DAYS,
  errorResponse,
  nationalResultResponse,
  startImportRequest,
  startImportResponse,
  type ImportRowError,
} from '@sceau/contracts';
import { and, desc, eq, gt, inArray, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { generations, importations } from '../../db/schema.ts';
import { actorOf } from '../../policies/actor.ts';
import { generationPolicy } from '../../policies/generation-policy.ts';
import { parseOrThrow } from '../../lib/validation.ts';
import type { RowProblem } from './import-checker.ts';
import { exampleCsv, exampleXlsx } from './import-example.ts';
import type { CheckResult } from './imports-service.ts';
import { readImportForm } from './multipart-upload.ts';

const tags = ['imports'];
const create = { anyPermission: ['generation.create' as const], section: 'generation' as const };

/** The check's answer in the request's language (the first IMPORT_LIMITS.maxErrorsListed problems). */
function present(request: FastifyRequest, result: CheckResult) {
  const errors: ImportRowError[] = result.problems.slice(0, IMPORT_LIMITS.maxErrorsListed).map((p: RowProblem) => ({
    row: p.row,
    column: p.column,
    code: p.code,
    message: request.t(`errors:field.import_${p.code}`, p.params ?? {}),
  }));
  return {
    generation_id: result.generationId,
    rows: result.rows,
    valid_rows: result.candidates.length,
    errors,
    error_count: result.problems.length,
    format: result.format,
    photos: result.photos,
  };
}

export const importsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, services, config }) => {
  const { imports, results } = services;
  await app.register(multipart, { limits: { fileSize: IMPORT_LIMITS.photosMaxBytes, files: 2, fields: 20, fieldSize: 4096 } });

  app.post(
    '/check-import-file',
    {
      config: { access: create },
      schema: {
        tags,
        summary: 'Check a student list (CSV or XLSX, optional photos zip) and store it with a draft batch',
        description:
          "Multipart: `file`, `template` (or `template_id`, `generate_id`), `session_id`, `province_id`, optional `generation_type`, `photos` (zip) and `generation_id` (re-upload: replaces that draft's list). Nothing is imported: every problem is listed by row and column.",
        consumes: ['multipart/form-data'],
        response: { 200: importCheckResponse },
      },
    },
    async (request) => {
      const { fields, files } = await readImportForm(request);
      const input = parseOrThrow(checkImportFields, fields);
      const result = await imports.checkFile(actorOf(request), input, files);
      return { data: present(request, result) };
    },
  );

  app.post(
    '/start-import-process',
    {
      config: { access: create },
      schema: {
        tags,
        summary: "Import a checked draft's list (a background job, all candidates or none)",
        body: startImportRequest,
        response: { 202: startImportResponse },
      },
    },
    async (request, reply) => {
      const id = await imports.startImport(actorOf(request), request.body.generation_id, request.body.title, services.queue);
      return reply.code(202).send({ data: { importation_id: id } });
    },
  );

  const follow = { anyPermission: ['generation.create', 'generation.view'], section: 'generation' } as const;

  /** An import as its progress page shows it, in the request's language (404 outside the user's scope). */
  async function tracking(request: FastifyRequest, id: number) {
    const { importation: i, status, percent } = await imports.tracking(actorOf(request), id);
    const view = {
      id: i.id,
      generation_id: i.generationId,
      status,
      rows_total: i.rowsTotal,
      rows_done: status === 'completed' ? i.rowsTotal : Math.min(i.rowsDone, i.rowsTotal),
      percent,
      error: i.errorKey ? request.t(`errors:${i.errorKey}`, i.errorParams ?? {}) : null,
    };
    return { importation: i, view };
  }

  app.get(
    '/importations/:id/tracking',
    {
      config: { access: follow },
      schema: { tags, summary: "An import's progress", params: idParam, response: { 200: importationTrackingResponse } },
    },
    async (request) => ({ data: (await tracking(request, request.params.id)).view }),
  );

  app.get(
    '/importations',
    {
      config: { access: follow },
      schema: {
        tags,
        summary: `The signed-in user's imports, newest first: those queued or running, and those finished in the last ${IMPORTATIONS_RECENT_DAYS} days (\`active=true\`: only the first)`,
        querystring: importationsQuery,
        response: { 200: importationsResponse },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const active = inArray(importations.status, ['queued', 'running']);
      const recent = gt(importations.updatedAt, sql`now() - make_interval(days => ${IMPORTATIONS_RECENT_DAYS})`);
      const rows = await db
        .select({ id: importations.id, generation: { id: generations.id, title: generations.title, template_id: generations.templateId, status: generations.status } })
        .from(importations)
        .innerJoin(generations, eq(generations.id, importations.generationId))
        .where(and(eq(importations.createdBy, actor.id), generationPolicy.visibleCondition(actor), request.query.active === 'true' ? active : or(active, recent)))
        .orderBy(desc(importations.id))
        .limit(IMPORTATIONS_LISTED);
      const data = [];
      for (const row of rows) {
        const { importation: i, view } = await tracking(request, row.id);
        data.push({
          ...view,
          kind: i.kind as 'list' | 'append',
          created_at: i.createdAt.toISOString(),
          finished_at: i.finishedAt?.toISOString() ?? null,
          generation: row.generation,
        });
      }
      return { data };
    },
  );

  app.post(
    '/import/candidates',
    {
      config: { access: create },
      schema: {
        tags,
        summary: 'Add candidates to a batch still being prepared (multipart: generation_id, file, optional photos)',
        consumes: ['multipart/form-data'],
        response: { 200: importCandidatesResponse, 202: importCandidatesResponse },
      },
    },
    async (request, reply) => {
      const { fields, files } = await readImportForm(request);
      const { generation_id } = parseOrThrow(importCandidatesFields, fields);
      const result = await imports.importCandidates(actorOf(request), generation_id, files, services.queue);
      return reply.code(result.importationId ? 202 : 200).send({ data: { ...present(request, result), importation_id: result.importationId } });
    },
  );

  app.get(
    '/import/example',
    {
      config: { access: create },
      schema: { tags, summary: 'An example list with the exact columns (CSV, or XLSX with ?format=xlsx)', querystring: importExampleQuery },
    },
    async (request, reply) => {
      if (request.query.format === 'xlsx') {
        return reply
          .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .header('content-disposition', 'attachment; filename="exemple-liste-candidats.xlsx"')
          .send(await exampleXlsx());
      }
      return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="exemple-liste-candidats.csv"').send(exampleCsv());
    },
  );

  app.post(
    `/generations/find-${config.product}`,
    {
      config: { access: { anyPermission: ['generation.view'], section: 'generation' } },
      schema: { tags, summary: "A candidate's result in the national results registry", body: findResultRequest, response: { 200: nationalResultResponse, 429: errorResponse } },
    },
    async (request) => ({ data: await results.find(actorOf(request), request.body.matricule, request.body.session) }),
  );

  app.post(
    `/generations/import/from-${config.product}cd`,
    {
      config: { access: create },
      schema: {
        tags,
        summary: 'A batch of every passed candidate of a session and province not yet in a batch, from the national results',
        body: fromRegistryRequest,
        response: { 202: fromRegistryResponse },
      },
    },
    async (request, reply) => {
      const out = await results.createBatch(actorOf(request), request.body, services.queue, config.product);
      return reply.code(202).send({ data: { generation_id: out.generationId, importation_id: out.importationId, rows: out.rows, skipped: out.skipped } });
    },
  );
};
