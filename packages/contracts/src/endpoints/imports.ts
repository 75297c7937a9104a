import { errorResponse, idParam } from '../api.ts';
import { endpoint } from '../endpoint.ts';
import {
  findResultRequest,
  fromRegistryRequest,
  fromRegistryResponse,
  importCandidatesResponse,
  importCheckResponse,
  photoZipResponse,
  exportFormatQuery,
  importExampleQuery,
  importationsQuery,
  importationsResponse,
  importationTrackingResponse,
  IMPORTATIONS_RECENT_DAYS,
  nationalResultResponse,
  productParam,
  registryParam,
  startImportRequest,
  startImportResponse,
} from '../imports.ts';

const tags = ['imports'];
const create = { anyPermission: ['generation.create'], section: 'generation' } as const;
const follow = { anyPermission: ['generation.create', 'generation.view'], section: 'generation' } as const;

/** Student lists and the national results registry (spec section 7, step 2; ADR 0060). */
export const importsEndpoints = {
  /** Multipart: the API reads the form itself (`checkImportFields`, the files within their limits). */
  checkFile: endpoint({
    method: 'POST',
    path: '/check-import-file',
    access: create,
    tags,
    summary: 'Check a student list (CSV, XLSX or ODS, optional photos zip) and store it with a draft batch',
    description:
      "Multipart: `file`, `template` (or `template_id`, `generate_id`), `session_id`, `province_id`, optional `generation_type`, `photos` (zip), `generation_id` (re-upload: replaces that draft's list) and `sheet` (the workbook's sheet to read; by default the first holding the required columns). Nothing is imported: every problem is listed by row and column.",
    multipart: true,
    responses: { 200: importCheckResponse },
  }),
  startImport: endpoint({
    method: 'POST',
    path: '/start-import-process',
    access: create,
    tags,
    summary: "Import a checked draft's list (a background job, all candidates or none)",
    body: startImportRequest,
    responses: { 202: startImportResponse },
  }),
  tracking: endpoint({
    method: 'GET',
    path: '/importations/:id/tracking',
    access: follow,
    tags,
    summary: "An import's progress",
    params: idParam,
    responses: { 200: importationTrackingResponse },
  }),
  mine: endpoint({
    method: 'GET',
    path: '/importations',
    access: follow,
    tags,
    summary: `The signed-in user's imports, newest first: those queued or running, and those finished in the last ${IMPORTATIONS_RECENT_DAYS} days (\`active=true\`: only the first)`,
    query: importationsQuery,
    responses: { 200: importationsResponse },
  }),
  /** Multipart (`importCandidatesFields`); 202 once the rows are accepted and their import queued, 200 with the problems otherwise. */
  importCandidates: endpoint({
    method: 'POST',
    path: '/import/candidates',
    access: create,
    tags,
    summary: 'Add candidates to a batch still being prepared (multipart: generation_id, file, optional photos)',
    multipart: true,
    responses: { 200: importCandidatesResponse, 202: importCandidatesResponse },
  }),
  /** Multipart `photos` (a zip): each photo named by a candidate's code given to that candidate of the batch (ADR 0147). */
  addPhotos: endpoint({
    method: 'POST',
    path: '/generations/:id/photos',
    access: create,
    tags,
    summary: "Add a photos zip to a batch before launch: each file named by a candidate code becomes that candidate's photo, waiting for validation",
    description:
      "Multipart field `photos` (zip, the list import's bounds: size, entry count, inflated bytes). HEIC, JPEG, PNG, WebP and GIF are read; the answer reports every file added (with its warnings: too small, landscape), unmatched or refused, and is audited. 409 once the batch is launched (or before its candidates are imported).",
    params: idParam,
    multipart: true,
    responses: { 200: photoZipResponse },
  }),
  /** Every problem of a draft's list check, to send back to the school (ADR 0143). */
  checkErrors: endpoint({
    method: 'GET',
    path: '/check-import-file/:id/errors',
    access: create,
    tags,
    summary: "A draft batch's list check errors as a file (XLSX, or CSV with ?format=csv): row, column, value, message in the user's language, sheet",
    description:
      "The stored list checked again as the start would check it (ADR 0111). `:id` is the draft (the check's `generation_id`); 409 once it is no longer a draft holding a list. CSV: UTF-8 with a byte order mark, `;` between fields.",
    params: idParam,
    query: exportFormatQuery,
    file: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    responses: {},
  }),
  /** A CSV, or an XLSX with `?format=xlsx`. */
  example: endpoint({
    method: 'GET',
    path: '/import/example',
    access: create,
    tags,
    summary: 'An example list with the exact columns (CSV, or XLSX with ?format=xlsx)',
    query: importExampleQuery,
    file: 'text/csv',
    responses: {},
  }),
  /** `:product` is the configured exam's (`find-exetat`); 429 past the registry's look-up limit. */
  findResult: endpoint({
    method: 'POST',
    path: '/generations/find-:product',
    access: { anyPermission: ['generation.view'], section: 'generation' },
    tags,
    summary: "A candidate's result in the national results registry",
    params: productParam,
    body: findResultRequest,
    responses: { 200: nationalResultResponse, 429: errorResponse },
  }),
  /** `:registry` is `registryName(product)` (`from-exetatcd`). */
  fromRegistry: endpoint({
    method: 'POST',
    path: '/generations/import/from-:registry',
    access: create,
    tags,
    summary: 'A batch of every passed candidate of a session and province not yet in a batch, from the national results',
    params: registryParam,
    body: fromRegistryRequest,
    responses: { 202: fromRegistryResponse },
  }),
} as const;
