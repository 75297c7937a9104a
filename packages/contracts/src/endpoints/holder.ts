import { errorResponse, idParam } from '../api.ts';
import { endpoint } from '../endpoint.ts';
import { diplomaIdParam } from '../public-site.ts';
import {
  createShareRequest,
  createShareResponse,
  holderDiplomasResponse,
  sharedDiplomaResponse,
  shareLinkResponse,
  shareLinksResponse,
  shareTokenParams,
  walletOfferRequest,
  walletOfferResponse,
} from '../holder.ts';

/**
 * The holder's side (ADR 0132): any signed-in account sees the diplomas whose candidate has its
 * confirmed e-mail or phone, and shares them by expiring links. No permission widens what these
 * answer: a staff account sees here only its own diplomas, like anyone.
 */
const tags = ['holder'];

export const holderEndpoints = {
  diplomas: endpoint({
    method: 'GET',
    path: '/holder/diplomas',
    access: 'user',
    tags,
    summary: "The signed-in person's own published diplomas and results (their candidate's e-mail or phone is the account's)",
    responses: { 200: holderDiplomasResponse },
  }),
  /**
   * The holder's full credential (ADR 0134): every field with its salt, as the PDF embeds it, so
   * they can hide what they choose before giving it; `/verify/{id}` gives strangers the public one.
   */
  credential: endpoint({
    method: 'GET',
    path: '/holder/diplomas/:id/credential',
    access: 'user',
    tags,
    summary: "One of my diplomas' full credential (JSON file: every field and its salt, as its PDF embeds it), while I may download it",
    params: diplomaIdParam,
    file: 'application/json',
    responses: {},
  }),
  /**
   * One of my diplomas as a W3C Verifiable Credential 2.0 / Open Badges 3.0 (ADR 0144): an
   * OpenBadgeCredential with a Data Integrity proof (ecdsa-rdfc-2019) by the ministry's key, for
   * Open Badges tools and VC wallets; under the rule of its PDF, like the full credential.
   */
  vc: endpoint({
    method: 'GET',
    path: '/holder/diplomas/:id/vc',
    access: 'user',
    tags,
    summary: 'One of my diplomas as a W3C Verifiable Credential / Open Badges 3.0 (JSON-LD file, Data Integrity proof), while I may download it',
    params: diplomaIdParam,
    file: 'application/vc+ld+json',
    responses: {},
  }),
  /**
   * A credential offer for a wallet (OpenID4VCI pre-authorised code flow, ADR 0146): under the rule
   * of the diploma's download; the code is single-use and expires after `WALLET_OFFER_MINUTES`.
   * `tx_code: true` adds a 6-digit transaction code the wallet must also send (5 wrong ones void the offer).
   */
  walletOffer: endpoint({
    method: 'POST',
    path: '/holder/diplomas/:id/wallet-offer',
    access: 'user',
    tags,
    summary: 'A credential offer to add one of my diplomas to a wallet (QR code or openid-credential-offer:// link), good once for 10 minutes, with an optional transaction code',
    params: diplomaIdParam,
    body: walletOfferRequest,
    responses: { 201: walletOfferResponse, 409: errorResponse },
  }),
  shares: endpoint({
    method: 'GET',
    path: '/holder/shares',
    access: 'user',
    tags,
    summary: 'The share links the signed-in person made, newest first (never their secret)',
    responses: { 200: shareLinksResponse },
  }),
  createShare: endpoint({
    method: 'POST',
    path: '/holder/shares',
    access: 'user',
    tags,
    summary: 'Make a link to one of my diplomas that expires after 7, 30 or 90 days, or never; its address is given once',
    body: createShareRequest,
    responses: { 201: createShareResponse, 409: errorResponse },
  }),
  revokeShare: endpoint({
    method: 'DELETE',
    path: '/holder/shares/:id',
    access: 'user',
    tags,
    summary: 'Revoke one of my share links: it stops opening at once',
    params: idParam,
    responses: { 200: shareLinkResponse },
  }),
  shared: endpoint({
    method: 'GET',
    path: '/shared/:token',
    access: 'public',
    tags,
    summary: "What a share link opens: the diploma verified now, its public fields and the link's expiry (404 once expired or revoked, saying which)",
    params: shareTokenParams,
    responses: { 200: sharedDiplomaResponse },
  }),
  sharedPhoto: endpoint({
    method: 'GET',
    path: '/shared/:token/photo',
    access: 'public',
    tags,
    summary: "The holder's photo, while the share link opens and its maker chose to show it",
    params: shareTokenParams,
    file: 'image/jpeg',
    responses: {},
  }),
  /**
   * An SD-JWT VC presentation that discloses only what the link shows (ADR 0152): the verifier
   * checks the ministry's signature and the chosen claims' digests; the others stay undisclosed.
   */
  sharedSdJwt: endpoint({
    method: 'GET',
    path: '/shared/:token/sd-jwt',
    access: 'public',
    tags,
    summary: 'The shared diploma as an SD-JWT VC presentation keeping only the claims the holder chose to show (while the link opens and the diploma is not revoked)',
    params: shareTokenParams,
    file: 'application/dc+sd-jwt',
    responses: {},
  }),
  /**
   * One of my diplomas as an SD-JWT VC (ADR 0145): every personal claim a separate disclosure the
   * holder keeps or drops when presenting it; under the rule of its PDF, like the full credential.
   */
  sdJwt: endpoint({
    method: 'GET',
    path: '/holder/diplomas/:id/sd-jwt',
    access: 'user',
    tags,
    summary: 'One of my diplomas as an SD-JWT VC (dc+sd-jwt: each personal claim selectively disclosable), while I may download it',
    params: diplomaIdParam,
    file: 'application/dc+sd-jwt',
    responses: {},
  }),
} as const;
