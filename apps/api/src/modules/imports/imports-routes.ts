import multipart from '@fastify/multipart';
import { checkImportFields, endpoints, IMPORT_LIMITS, importCandidatesFields, type ImportRowError, registryName } from '@sceau/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.ts';
import { serve } from '../../lib/endpoints.ts';
import { AppError } from '../../lib/errors.ts';
import { dynamicKey } from '../../lib/i18n.ts';
import { actorOf } from '../../policies/actor.ts';
import { parseOrThrow } from '../../lib/validation.ts';
import { attachment, EXPORT_CONTENT_TYPES, tableStream } from '../../lib/table-export.ts';
import { checkErrorRows, checkErrors } from './check-export.ts';
import type { PhotoSummary, RowProblem } from './import-checker.ts';
import { exampleCsv, exampleXlsx } from './import-example.ts';
import type { CheckResult } from './imports-service.ts';
import { readImportForm } from './multipart-upload.ts';
import { registerUploadRoutes } from './resumable-uploads.ts';
import { type PhotoZipOutcome, PhotoZipService } from './photo-zip.ts';

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
    sheet: result.sheet,
    sheets: result.sheets,
    ignored: result.ignored.slice(0, 100),
    photos: result.photos && presentPhotos(request, result.photos),
    ...(result.listId ? { list_id: result.listId } : {}),
  };
}

/** The zip's summary: rows without a photo named, warnings translated (the first IMPORT_LIMITS.maxErrorsListed of each). */
export function presentPhotos(request: FastifyRequest, photos: PhotoSummary) {
  return {
    files: photos.files,
    matched: photos.matched,
    missing: photos.missing.slice(0, IMPORT_LIMITS.maxErrorsListed).map((m) => ({ row: m.row, candidate_code: m.candidateCode })),
    warnings: photos.warnings.slice(0, IMPORT_LIMITS.maxErrorsListed).map((w) => ({
      row: w.row,
      candidate_code: w.candidateCode,
      file: w.file,
      code: w.warning,
      message: request.t(`errors:field.import_${w.warning}`, { value: w.file }),
    })),
  };
}

/** A photos zip's report in the request's language (the first IMPORT_LIMITS.maxErrorsListed of each list). */
function presentPhotoZip(request: FastifyRequest, outcome: PhotoZipOutcome) {
  const max = IMPORT_LIMITS.maxErrorsListed;
  const refusal = (r: PhotoZipOutcome['refused'][number]) => {
    if (r.code === 'photo_unreadable' || r.code === 'photo_too_large')
      return request.t(`errors:field.import_${r.code}`, { value: r.file, ...(r.reason ? { context: r.reason } : {}) });
    return request.t(`errors:field.photo_zip_${r.code}`, { value: r.file, code: r.candidateCode });
  };
  return {
    message: request.t('messages:photo_zip_added', { count: outcome.added.length }),
    generation_id: outcome.generationId,
    files: outcome.files,
    added: outcome.added.slice(0, max).map((a) => ({
      file: a.file,
      candidate_code: a.candidateCode,
      item_id: a.itemId,
      warnings: a.warnings.map((code) => ({ code, message: request.t(`errors:field.import_${code}`, { value: a.file }) })),
    })),
    added_count: outcome.added.length,
    unmatched: outcome.unmatched.slice(0, max).map((u) => ({ file: u.file, message: request.t('errors:field.photo_zip_unmatched', { value: u.file }) })),
    unmatched_count: outcome.unmatched.length,
    refused: outcome.refused.slice(0, max).map((r) => ({ file: r.file, candidate_code: r.candidateCode, code: r.code, message: refusal(r) })),
    refused_count: outcome.refused.length,
    without_photo: outcome.withoutPhoto,
  };
}

/** The registry's paths name the configured exam only (`find-exetat`); another name is no route. */
function onlyNamed(expected: string, param: 'product' | 'registry') {
  return async (request: FastifyRequest) => {
    if ((request.params as Record<string, string>)[param] !== expected) throw new AppError('not_found');
  };
}

const CHECK_ERROR_COLUMNS = ['row', 'column', 'value', 'message', 'sheet_read'] as const;

export const importsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, services, config }) => {
  const { imports, results } = services;
  await app.register(multipart, { limits: { fileSize: IMPORT_LIMITS.photosMaxBytes, files: 2, fields: 20, fieldSize: 4096 } });
  await registerUploadRoutes(app, services.uploads, db.$client);

  serve(app, endpoints.imports.checkFile, async (request) => {
    const { fields, files, uploads } = await readImportForm(request, services.uploads);
    const input = parseOrThrow(checkImportFields, fields);
    const result = await imports.checkFile(actorOf(request), input, files);
    // Stored with the draft: the uploads they came in are no longer needed.
    await services.uploads.release(uploads);
    return { data: present(request, result) };
  });

  serve(app, endpoints.imports.startImport, async (request, reply) => {
    const id = await imports.startImport(actorOf(request), request.body.generation_id, request.body.title, request.body.list_id);
    return reply.code(202).send({ data: { importation_id: id } });
  });

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
      error: i.errorKey ? request.t(dynamicKey(`errors:${i.errorKey}`), i.errorParams ?? {}) : null,
    };
    return { importation: i, view };
  }

  serve(app, endpoints.imports.tracking, async (request) => ({ data: (await tracking(request, request.params.id)).view }));

  serve(app, endpoints.imports.mine, async (request) => {
    const rows = await imports.mine(actorOf(request), request.query.active === 'true');
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
  });

  serve(app, endpoints.imports.importCandidates, async (request, reply) => {
    const { fields, files } = await readImportForm(request);
    const { generation_id } = parseOrThrow(importCandidatesFields, fields);
    const result = await imports.importCandidates(actorOf(request), generation_id, files);
    return reply.code(result.importationId ? 202 : 200).send({ data: { ...present(request, result), importation_id: result.importationId } });
  });

  const photoZips = new PhotoZipService(db, services.storage, app.log);
  /** A photos zip added to a batch before launch (ADR 0147): the batch's rule first, then the bounded upload. */
  serve(app, endpoints.imports.addPhotos, async (request) => {
    const actor = actorOf(request);
    await photoZips.batchFor(actor, request.params.id);
    // The zip as a file part, or a finished resumable upload of the caller's (`photos_upload`, ADR 0150).
    const { files, uploads } = await readImportForm(request, services.uploads);
    const report = await photoZips.addPhotos(actor, request.params.id, files.photos);
    await services.uploads.release(uploads);
    return { data: presentPhotoZip(request, report) };
  });

  /** Every problem of a draft's check as a file for the school (ADR 0143), in the request's language. */
  serve(app, endpoints.imports.checkErrors, async (request, reply) => {
    const format = request.query.format;
    const errors = await checkErrors(db, services.storage, actorOf(request), request.params.id);
    const t = (key: (typeof CHECK_ERROR_COLUMNS)[number]) => request.t(`messages:exports.check_errors.${key}`);
    const rows = checkErrorRows(errors, (p) => request.t(`errors:field.import_${p.code}`, p.params ?? {}));
    return reply
      .type(EXPORT_CONTENT_TYPES[format])
      .header('content-disposition', attachment(`${request.t('messages:exports.check_errors.file', { id: errors.generationId })}.${format}`))
      .header('cache-control', 'private, no-store')
      .send(tableStream(format, request.t('messages:exports.check_errors.sheet'), CHECK_ERROR_COLUMNS.map(t), rows));
  });

  serve(app, endpoints.imports.example, async (request, reply) => {
    if (request.query.format === 'xlsx') {
      return reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', 'attachment; filename="exemple-liste-candidats.xlsx"')
        .send(await exampleXlsx());
    }
    return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="exemple-liste-candidats.csv"').send(exampleCsv());
  });

  serve(app, endpoints.imports.findResult, async (request) => ({ data: await results.find(actorOf(request), request.body.matricule, request.body.session) }), {
    preValidation: onlyNamed(config.product, 'product'),
  });

  serve(
    app,
    endpoints.imports.fromRegistry,
    async (request, reply) => {
      const out = await results.createBatch(actorOf(request), request.body, config.product);
      return reply.code(202).send({ data: { generation_id: out.generationId, importation_id: out.importationId, rows: out.rows, skipped: out.skipped } });
    },
    { preValidation: onlyNamed(registryName(config.product), 'registry') },
  );
};
