import { errorResponse, idParam } from '../api.ts';
import {
  archiveByMailRequest,
  archiveTokenParams,
  broadcastResponse,
  directAuthRequest,
  directAuthResponse,
  itemByMailRequest,
  latestBroadcastResponse,
  messageResponse,
} from '../distribution.ts';
import { endpoint } from '../endpoint.ts';

/** Distribution of published batches (spec section 7). */
const tags = ['distribution'];
const share = { anyPermission: ['generation.share.email'] } as const;

export const distributionEndpoints = {
  broadcast: endpoint({
    method: 'POST',
    path: '/generations/:id/broadcast',
    access: { anyPermission: ['broadcast.send'], section: 'broadcast' },
    tags,
    summary: 'Notify every candidate of a published batch (SMS and/or e-mail) with their verification link',
    params: idParam,
    responses: { 202: broadcastResponse, 503: errorResponse },
  }),
  latestBroadcast: endpoint({
    method: 'GET',
    path: '/generations/:id/broadcast',
    access: { anyPermission: ['generation.view', 'broadcast.send'] },
    tags,
    summary: "A batch's latest broadcast and its counts (null before the first)",
    params: idParam,
    responses: { 200: latestBroadcastResponse },
  }),
  itemByMail: endpoint({
    method: 'POST',
    path: '/items/by-mail',
    access: share,
    tags,
    summary: "E-mail a candidate's signed diploma (PDF attached)",
    body: itemByMailRequest,
    responses: { 200: messageResponse },
  }),
  archiveByMail: endpoint({
    method: 'POST',
    path: '/generations/archive-by-mail',
    access: share,
    tags,
    summary: "E-mail a published batch's zip (attached up to 10 MB, else a download link valid 7 days)",
    body: archiveByMailRequest,
    responses: { 202: messageResponse },
  }),
  archiveDownload: endpoint({
    method: 'GET',
    path: '/archive-downloads/:token',
    access: 'public',
    tags,
    summary: "A batch's zip from the link an e-mail carried (streamed; the link expires)",
    params: archiveTokenParams,
    file: 'application/zip',
    responses: {},
  }),
  directAuth: endpoint({
    method: 'POST',
    path: '/direct-auth',
    access: 'public',
    tags: ['auth'],
    summary: "Exchange a one-time sign-in link's token: a candidate's diploma, or a staff session (like the password grant)",
    body: directAuthRequest,
    responses: { 200: directAuthResponse },
  }),
} as const;
