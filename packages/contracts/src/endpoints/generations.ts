import { idParam } from '../api.ts';
import { messageResponse } from '../distribution.ts';
import { exportFormatQuery } from '../imports.ts';
import { endpoint } from '../endpoint.ts';
import { BATCH_STAFF_PERMISSIONS } from '../permissions.ts';
import {
  batchHistoryQuery,
  batchHistoryResponse,
  generationDetailResponse,
  generationIdQuery,
  generationItemsQuery,
  generationProgressResponse,
  generationStatsQuery,
  generationStatsResponse,
  generationsByUserQuery,
  generationsResponse,
  launchCodeSentResponse,
  launchSignaturesResponse,
  specimenQuery,
  startGenerationRequest,
  verifyLaunchCodeRequest,
} from '../generations.ts';

const tags = ['generations'];
/** Launching and signing a batch. */
const launch = { anyPermission: ['generation.generate'], section: 'generation' } as const;
/** Following a batch's progress. */
const follow = { anyPermission: ['generation.view', 'generation.generate'], section: 'generation' } as const;

const start = {
  method: 'POST',
  access: launch,
  tags,
  summary: 'Launch the generation of a batch (after its one-time code), with the official signatures its diplomas carry',
  body: startGenerationRequest,
  responses: { 200: messageResponse },
} as const;

export const generationsEndpoints = {
  /** The dashboard's list. */
  byUser: endpoint({
    method: 'GET',
    path: '/generations/by-user',
    access: 'user',
    tags,
    summary: "The signed-in user's batches (the dashboard), newest first",
    query: generationsByUserQuery,
    responses: { 200: generationsResponse },
  }),
  stats: endpoint({
    method: 'GET',
    path: '/generations/stats',
    access: { anyPermission: ['generation.view', 'generation.create', 'generation.generate'], section: 'generation' },
    tags,
    summary: "What the user's scope has issued: batches and diplomas (published, revoked) by session, educational province and status",
    query: generationStatsQuery,
    responses: { 200: generationStatsResponse },
  }),
  one: endpoint({
    method: 'GET',
    path: '/generations/:id',
    access: { anyPermission: ['generation.view'], section: 'generation' },
    tags,
    summary: 'A batch and a page of its candidates',
    params: idParam,
    query: generationItemsQuery,
    responses: { 200: generationDetailResponse },
  }),
  exportZip: endpoint({
    method: 'GET',
    path: '/generations/:id/export-zip',
    access: { anyPermission: ['generation.download.many'] },
    tags,
    summary: "A zip of a batch's signed diplomas, streamed",
    params: idParam,
    file: 'application/zip',
    responses: {},
  }),
  /** The rejected candidates, to send back to the school (ADR 0143). */
  rejectedExport: endpoint({
    method: 'GET',
    path: '/generations/:id/items/rejected/export',
    access: { anyPermission: ['validation.photo', 'validation.data', 'generation.view.rejected'] },
    tags,
    summary: "A batch's rejected candidates as a file (XLSX, or CSV with ?format=csv): code, names, school, centre, reason, who and when",
    description: 'Streamed, page by page. CSV: UTF-8 with a byte order mark, `;` between fields.',
    params: idParam,
    query: exportFormatQuery,
    file: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    responses: {},
  }),
  /** Who did what to the batch, when (ADR 0149). */
  history: endpoint({
    method: 'GET',
    path: '/generations/:id/history',
    access: { anyPermission: BATCH_STAFF_PERMISSIONS },
    tags,
    summary: "A batch's history, newest first: who did what and when (the batch, its candidates' validation, its diplomas)",
    description: "Names only: no address, browser or e-mail (those stay in the national audit log). 404 outside the caller's scope.",
    params: idParam,
    query: batchHistoryQuery,
    responses: { 200: batchHistoryResponse },
  }),
  itemPdf: endpoint({
    method: 'GET',
    path: '/items/:id',
    access: { anyPermission: ['generation.download.one'] },
    tags,
    summary: "A candidate's signed diploma (PDF)",
    params: idParam,
    file: 'application/pdf',
    responses: {},
  }),

  // ------------------------------------------------------------ the launch (spec: /otp-generation, /generating-op)
  sendLaunchCode: endpoint({
    method: 'GET',
    path: '/generations/send-otp',
    access: launch,
    tags,
    summary: 'Send the signed-in user a one-time code to launch (or relaunch, after a failure) a batch',
    query: generationIdQuery,
    responses: { 200: launchCodeSentResponse },
  }),
  verifyLaunchCode: endpoint({
    method: 'POST',
    path: '/generations/verify-otp',
    access: launch,
    tags,
    summary: 'Check the launch code; a right one allows this user to launch this batch for a few minutes',
    body: verifyLaunchCodeRequest,
    responses: { 200: messageResponse },
  }),
  /** The spec's path. */
  start: endpoint({ ...start, path: '/start-generation-process' }),
  /** The same launch under /generations. */
  startUnderGenerations: endpoint({ ...start, path: '/generations/start' }),
  launchSignatures: endpoint({
    method: 'GET',
    path: '/generations/:id/signatures',
    access: launch,
    tags,
    summary: 'The official signatures a launch may put on the batch, and its current choice',
    params: idParam,
    responses: { 200: launchSignaturesResponse },
  }),
  specimen: endpoint({
    method: 'GET',
    path: '/generations/:id/specimen',
    access: launch,
    tags,
    summary:
      "A \"SPÉCIMEN\" preview of a candidate's diploma (the first candidate when `item` is not given): the batch's template, signatures and this candidate's data and photo, unsigned, watermarked, without a credential",
    params: idParam,
    query: specimenQuery,
    file: 'application/pdf',
    responses: {},
  }),
  statusByQuery: endpoint({
    method: 'GET',
    path: '/generations/status',
    access: follow,
    tags,
    summary: "A batch's status and progress",
    query: generationIdQuery,
    responses: { 200: generationProgressResponse },
  }),
  status: endpoint({
    method: 'GET',
    path: '/generations/:id/status',
    access: follow,
    tags,
    summary: "A batch's status and progress",
    params: idParam,
    responses: { 200: generationProgressResponse },
  }),
  applySignature: endpoint({
    method: 'POST',
    path: '/generations/:id/apply-signature',
    access: launch,
    tags,
    summary: 'Apply the official signature: publish the generated batch (anchor its root on the chain)',
    params: idParam,
    responses: { 202: messageResponse },
  }),
  cancel: endpoint({
    method: 'DELETE',
    path: '/generations/:id/cancel',
    access: { anyPermission: ['generation.create', 'generation.generate'], section: 'generation' },
    tags,
    summary: 'Cancel a batch before its signature starts (what it produced is removed)',
    params: idParam,
    responses: { 200: messageResponse },
  }),
} as const;
