import { z } from 'zod';
import { envelope } from './api.ts';

/**
 * Distribution of a published batch (spec section 7): the broadcast to candidates, sending one
 * diploma or the batch's zip by e-mail, and the one-time sign-in links (`/direct-auth`). ADR 0080.
 */

export const DISTRIBUTION_LIMITS = {
  /** A direct sign-in link sent to a candidate by a broadcast. */
  candidateLinkMinutes: 30,
  /** A sign-in link an administrator sends to a staff account. */
  staffLinkMinutes: 15,
  /** Up to this size the batch's zip is attached to the e-mail; above, the e-mail carries a download link. */
  zipAttachmentMaxBytes: 10 * 1024 * 1024,
  /** How long the zip's download link works. */
  zipLinkDays: 7,
} as const;

/** An e-mail to share with (spec section 5: "Sharing requires a valid e-mail"). */
export const shareEmail = z
  .string({ error: 'field.share_invalid_email' })
  .trim()
  .min(1, { error: 'field.share_invalid_email' })
  .max(254, { error: 'field.share_invalid_email' })
  .pipe(z.email({ error: 'field.share_invalid_email' }))
  .transform((value) => value.toLowerCase());

const positiveId = z.coerce.number().int().positive();

/** `POST items/by-mail`: `item_id` (also `item`, the spec's word) and `email` (also `mail`). */
export const itemByMailRequest = z
  .object({ item_id: positiveId.optional(), item: positiveId.optional(), email: z.unknown().optional(), mail: z.unknown().optional() })
  .transform(({ item_id, item, email, mail }, ctx) => {
    const id = item_id ?? item;
    if (id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['item_id'], message: 'field.required' });
      return z.NEVER;
    }
    return { item_id: id, email: email ?? mail };
  })
  .pipe(z.object({ item_id: z.number().int().positive(), email: shareEmail }));

/** `POST generations/archive-by-mail`: `generation_id` (also `generation`) and `email` (also `mail`). */
export const archiveByMailRequest = z
  .object({ generation_id: positiveId.optional(), generation: positiveId.optional(), email: z.unknown().optional(), mail: z.unknown().optional() })
  .transform(({ generation_id, generation, email, mail }, ctx) => {
    const id = generation_id ?? generation;
    if (id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['generation_id'], message: 'field.required' });
      return z.NEVER;
    }
    return { generation_id: id, email: email ?? mail };
  })
  .pipe(z.object({ generation_id: z.number().int().positive(), email: shareEmail }));

/** The answer of an action that only says what was done, translated. */
export const messageResponse = envelope(z.object({ message: z.string() }));

export const BROADCAST_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

/** A broadcast and what it did so far: `sent` (by SMS and/or e-mail), `skipped` (no contact), `failed`. */
export const broadcastView = z.object({
  id: z.number().int(),
  generation_id: z.number().int(),
  status: z.enum(BROADCAST_STATUSES),
  total: z.number().int(),
  sent: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type BroadcastView = z.infer<typeof broadcastView>;

/** `POST /generations/{id}/broadcast`: the spec's message and the broadcast queued. */
export const broadcastResponse = envelope(z.object({ message: z.string(), broadcast: broadcastView }));
/** `GET /generations/{id}/broadcast`: the latest broadcast of the batch, if any. */
export const latestBroadcastResponse = envelope(broadcastView.nullable());

/** `GET /archive-downloads/{token}`: the token of the zip's download link an e-mail carried. */
export const archiveTokenParams = z.object({ token: z.string().max(200) });

/** `POST /direct-auth`: a token from a one-time link. */
export const directAuthRequest = z.object({ token: z.string().trim().min(1, { error: 'field.direct_auth_unknown' }).max(200, { error: 'field.direct_auth_unknown' }) });

/**
 * A candidate's link opens their diploma; a staff link signs in (the same token as the OAuth
 * password grant gives).
 */
export const directAuthResponse = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('candidate'), diploma_id: z.string() }),
  z.object({ kind: z.literal('staff'), token_type: z.literal('Bearer'), access_token: z.string(), expires_in: z.number().int() }),
]);
export type DirectAuthResponse = z.infer<typeof directAuthResponse>;

/** `POST /users/{id}/sign-in-link`: where the link went. */
export const signInLinkResponse = envelope(z.object({ message: z.string(), channel: z.enum(['email', 'sms']) }));
