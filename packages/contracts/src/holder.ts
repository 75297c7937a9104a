import { z } from 'zod';
import { envelope } from './api.ts';
import { DIPLOMA_ID_PATTERN, VERDICTS } from './constants.ts';
import { GENERATION_TYPES } from './generations.ts';
import { publicDiplomaView, verificationCheck } from './public-site.ts';

/**
 * The holder's side (ADR 0132): a person's own diplomas and results, found by the contact the
 * ministry has for them, and the expiring links they share them with.
 */

export const HOLDER_LIMITS = {
  /** How long a share link may live, in days; `null` (never) is the other choice. */
  shareDays: [7, 30, 90] as const,
  /** A note to remember whom a link was given to. */
  labelMax: 80,
  /** Links of one diploma that still work at the same time. */
  activeSharesPerDiploma: 20,
  /** A share link's secret: 32 random bytes, base64url. */
  tokenLength: 43,
} as const;

export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * What a share link may show or keep back, the holder's choice when making it (ADR 0152): the
 * birth date, the birth place, the school (with its examination centre), the percentage, the photo.
 * The names, the kind of diploma, its option, its session and the verdict are always shown.
 */
export const SHARE_FIELDS = ['birth_date', 'birth_place', 'school', 'percentage', 'photo'] as const;
export type ShareField = (typeof SHARE_FIELDS)[number];
/** A link made without a choice shows what every link showed before the choice existed (not the birth place). */
export const DEFAULT_SHARE_FIELDS: readonly ShareField[] = ['birth_date', 'school', 'percentage', 'photo'];
const shareField = z.enum(SHARE_FIELDS, { error: 'field.share_link_fields' });

/** What became of a share link: it opens, or it no longer does and why. */
export const SHARE_STATES = ['active', 'expired', 'revoked'] as const;
export type ShareState = (typeof SHARE_STATES)[number];

/** One of the holder's diplomas, with its result, as its holder sees it. */
export const holderDiplomaView = z.object({
  id: z.string(),
  candidate_code: z.string(),
  last_name: z.string(),
  middle_name: z.string().nullable(),
  first_name: z.string().nullable(),
  /** The kind of diploma (its batch's type: `diplome_etat`, …). */
  kind: z.enum(GENERATION_TYPES),
  session: z.string(),
  option: z.string(),
  school: z.string(),
  /** The result: percentage obtained. */
  percentage: z.number(),
  issued_at: z.string(),
  /** `valid`, or `revoked` (with the ministry's reason). */
  status: z.enum(['valid', 'revoked']),
  revocation_reason: z.string().nullable(),
  /** What the holder may do with it (from the holder policy). */
  abilities: z.object({ download: z.boolean(), share: z.boolean() }),
});
export type HolderDiplomaView = z.infer<typeof holderDiplomaView>;
export const holderDiplomasResponse = envelope(z.array(holderDiplomaView));

/** A share link as its maker lists it: never its secret, which is shown once, when it is made. */
export const shareLinkView = z.object({
  id: z.number().int(),
  diploma_id: z.string(),
  label: z.string().nullable(),
  created_at: z.string(),
  /** Null: the link never expires. */
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  state: z.enum(SHARE_STATES),
  opens: z.number().int(),
  last_opened_at: z.string().nullable(),
  /** What the link shows of the optional fields, as its maker chose (ADR 0152). */
  disclosed: z.array(shareField),
});
export type ShareLinkView = z.infer<typeof shareLinkView>;
export const shareLinksResponse = envelope(z.array(shareLinkView));

/** `POST /holder/shares`: which diploma, for how long (days, or null for never), and a note. */
export const createShareRequest = z.object({
  diploma_id: z.string({ error: 'field.required' }).regex(DIPLOMA_ID_PATTERN, { error: 'field.diploma_id' }),
  days: z.literal(HOLDER_LIMITS.shareDays, { error: 'field.share_link_days' }).nullable(),
  label: z
    .string()
    .trim()
    .max(HOLDER_LIMITS.labelMax, { error: 'field.share_link_label_length' })
    .optional()
    .transform((value) => value || null),
  /** The optional fields the link shows (the others are kept back); absent: DEFAULT_SHARE_FIELDS. */
  disclose: z
    .array(shareField, { error: 'field.share_link_fields' })
    .max(SHARE_FIELDS.length * 2, { error: 'field.share_link_fields' })
    .optional()
    .transform((value) => (value === undefined ? [...DEFAULT_SHARE_FIELDS] : SHARE_FIELDS.filter((field) => value.includes(field)))),
});
export type CreateShareRequest = z.input<typeof createShareRequest>;
/** The new link, and its address: the only time the secret is given. */
export const createShareResponse = envelope(z.object({ share: shareLinkView, url: z.string() }));
export const shareLinkResponse = envelope(shareLinkView);

export const shareTokenParams = z.object({ token: z.string().regex(SHARE_TOKEN_PATTERN, { error: 'field.share_link_unknown' }) });

/**
 * What a share link shows: the diploma verified now by the platform, its public fields and the
 * link's expiry; not the diploma's permanent id or credential, so the link stops working when it
 * expires or is revoked (ADR 0132).
 */
export const sharedDiplomaView = z.object({
  verdict: z.enum(VERDICTS),
  verdict_label: z.string(),
  checks: z.array(verificationCheck.pick({ name: true, status: true, title: true, message: true })),
  /** Only the fields the holder chose to show: the others are absent, not emptied (ADR 0152). */
  diploma: publicDiplomaView.omit({ id: true, hidden_fields: true }).extend({ birth_place: z.string().optional() }).nullable(),
  diploma_kind: z.string().nullable(),
  /** The optional fields shown, and those the holder kept back (named so the page can say so). */
  disclosed: z.array(shareField),
  withheld: z.array(shareField),
  /** Whether `GET /shared/{token}/sd-jwt` gives a presentation now (a live diploma). */
  presentation: z.boolean(),
  expires_at: z.string().nullable(),
  checked_at: z.string(),
});
export type SharedDiplomaView = z.infer<typeof sharedDiplomaView>;
export const sharedDiplomaResponse = envelope(sharedDiplomaView);

/** Issuance to a wallet by OpenID4VCI (ADR 0146): an offer's pre-authorised code is good for this long, once. */
export const WALLET_OFFER_MINUTES = 10;

/** The grant type of the pre-authorised code flow (OpenID4VCI 1.0, section 4.1.1). */
export const PRE_AUTHORIZED_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

/** Digits of an offer's transaction code (OpenID4VCI 1.0 `tx_code`, `input_mode` numeric). */
export const TX_CODE_LENGTH = 6;

/**
 * Making an offer: `tx_code` asks the wallet for a one-time transaction code as well, shown on my
 * page apart from the QR code (when the QR code is shown where others can see it). No body is no code.
 */
export const walletOfferRequest = z.object({ tx_code: z.boolean().optional() }).strict().nullish();
export type WalletOfferRequest = z.input<typeof walletOfferRequest>;

/**
 * A credential offer for one of my diplomas, by value: what a wallet reads from the QR code or the
 * `openid-credential-offer://` link (`offer_uri`), until `expires_at`. With a transaction code, the
 * offer says so (`tx_code` in its grant: numeric, 6 digits, what the wallet shows) and `tx_code`
 * here is the code itself, for my eyes only (never in the QR code).
 */
export const walletOfferView = z.object({
  credential_offer: z.object({
    credential_issuer: z.string(),
    credential_configuration_ids: z.array(z.string()),
    grants: z.object({
      [PRE_AUTHORIZED_CODE_GRANT]: z.object({
        'pre-authorized_code': z.string(),
        tx_code: z.object({ input_mode: z.literal('numeric'), length: z.number().int(), description: z.string().optional() }).optional(),
      }),
    }),
  }),
  offer_uri: z.string(),
  expires_at: z.string(),
  tx_code: z.string().nullable(),
});
export type WalletOfferView = z.infer<typeof walletOfferView>;
export const walletOfferResponse = envelope(walletOfferView);
