import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { PRE_AUTHORIZED_CODE_GRANT, TX_CODE_LENGTH, WALLET_OFFER_MINUTES, type WalletOfferView } from '@sceau/contracts';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { JWK } from 'jose';
import type { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Db } from '../../db/client.ts';
import { walletDpopProofs, walletNonces, walletNotifications, walletOffers } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { consumeAll, pgRateLimiter } from '../../lib/rate-limits.ts';
import type { Actor } from '../../policies/actor.ts';
import { holderPolicy } from '../../policies/holder-policy.ts';
import { allowed, authorize } from '../../policies/policy.ts';
import { recordAudit } from '../audit/audit-service.ts';
import { factsOf, findDiploma, findHolderAccount } from '../holder/holder-repository.ts';
import { DPOP_ALGS_PARAM, type DpopProof, verifyDpopProof } from './dpop.ts';
import { verifyKeyProof } from './key-proof.ts';
import { OAuthError } from './oauth-error.ts';

/** The credential configurations this issuer offers (OpenID4VCI 1.0 `credential_configurations_supported` keys). */
export const CONFIGURATION = { sdJwt: 'diploma_dc_sd_jwt', openBadge: 'diploma_ldp_vc' } as const;

/** What a wallet's access token is good for, once the code is exchanged: long enough for a few credential requests. */
export const ACCESS_TOKEN_SECONDS = 300;
/** A `c_nonce` must be signed into a key proof within this time. */
export const NONCE_SECONDS = 300;
/** Offers one holder may make in an hour (each makes a row and a secret). */
export const WALLET_OFFERS_PER_HOUR = 30;
/** Longest pre-authorised code or access token read: ours are 43 characters. */
const SECRET_MAX_LENGTH = 128;
/** Wrong transaction codes after which an offer is void (OpenID4VCI 1.0 section 13.6: bounded guesses). */
export const TX_CODE_MAX_FAILURES = 5;
/** The notification events of OpenID4VCI 1.0 section 11.1. */
export const NOTIFICATION_EVENTS = ['credential_accepted', 'credential_failure', 'credential_deleted'] as const;
/** The SD-JWT VC's format id in OpenID4VCI 1.0, and its name in draft 13, which many wallets still send. */
const SD_JWT_FORMATS = ['dc+sd-jwt', 'vc+sd-jwt'];

/** The answer of the token endpoint: a Bearer or DPoP-bound token, and a `c_nonce` for the wallets of draft 13. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer' | 'DPoP';
  expires_in: number;
  c_nonce: string;
  c_nonce_expires_in: number;
}

/** The answer of the credential endpoint, in the shape the request was in (1.0, or draft 13's singular `credential`). */
export type CredentialResponse =
  | { credentials: { credential: string | object }[]; notification_id: string }
  | { credential: string | object; c_nonce: string; c_nonce_expires_in: number; notification_id: string };

/** What a resource request (credential, notification) shows: its `Authorization` and `DPoP` headers, and its public URL. */
export interface ResourceAccess {
  authorization: string | undefined;
  dpop: string | string[] | undefined;
  method: string;
  url: string;
}

/** SD-JWT VC of a diploma, bound to the wallet's key (the sd-jwt-vc module, ADR 0145). */
export interface SdJwtIssuer {
  /** The diploma's credential type (`vct`), announced in the issuer metadata. */
  readonly vct: string;
  issue(diplomaId: string, options: { holderPublicJwk: JWK }): Promise<string>;
}

/** W3C VC 2.0 / Open Badges 3.0 credential of a diploma, with its Data Integrity proof (the vc module). */
export interface OpenBadgeIssuer {
  issue(diplomaId: string): Promise<object>;
}

/** The credential makers this deployment has; a configuration is offered only when its maker is there. */
export interface WalletIssuers {
  sdJwt: SdJwtIssuer | null;
  openBadge: OpenBadgeIssuer | null;
}

const hash = (kind: 'code' | 'token' | 'nonce' | 'tx-code' | 'dpop', secret: string) => createHash('sha256').update(`wallet-${kind}:${secret}`).digest('hex');
const secret = () => randomBytes(32).toString('base64url');
/** A `notification_id`: 128 random bits, so that it tells a wallet nothing of the offers or credentials of others (ADR 0155). */
const notificationIdOf = () => randomBytes(16).toString('base64url');
/** Its length: 16 bytes in base64url without padding. */
const NOTIFICATION_ID_LENGTH = 22;
/** The transaction code's hash is keyed by the pre-authorised code, whose own hash alone is stored: six digits cannot be tried offline from the table. */
const txCodeHash = (code: string, txCode: string) => hash('tx-code', `${code}:${txCode}`);
const sameHash = (a: string, b: string) => timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Issuance of a holder's diplomas to their wallet by OpenID4VCI 1.0, pre-authorised code flow
 * (ADR 0146). The holder makes an offer (a single-use code, 10 minutes); the wallet exchanges the
 * code for a short access token, takes a nonce, and asks for a credential with a key proof. The
 * holder's download rule is read again at each step, so a revocation in between ends it.
 */
export class Oid4vciService {
  private readonly offers: RateLimiterPostgres;

  constructor(
    private readonly db: Db,
    /** The credential issuer identifier: the platform's public address (no trailing slash). */
    readonly issuer: string,
    private readonly issuers: WalletIssuers,
  ) {
    this.offers = pgRateLimiter(db.$client, { keyPrefix: 'wallet_offer', points: WALLET_OFFERS_PER_HOUR, durationSeconds: 3600 });
  }

  /** The configuration ids this deployment can issue, in the offer's order. */
  configurationIds(): string[] {
    return [...(this.issuers.sdJwt ? [CONFIGURATION.sdJwt] : []), ...(this.issuers.openBadge ? [CONFIGURATION.openBadge] : [])];
  }

  /** The SD-JWT VC's type when this deployment makes SD-JWT VCs. */
  get vct(): string | null {
    return this.issuers.sdJwt?.vct ?? null;
  }

  get offersOpenBadge(): boolean {
    return this.issuers.openBadge !== null;
  }

  /**
   * A credential offer by value for one of the holder's diplomas, with its deep link (the QR code's
   * content). With `txCode`, the offer also asks the wallet for a 6-digit transaction code, returned
   * here for the holder's page only (its hash is stored); `txCodeDescription` is what the wallet shows.
   */
  async createOffer(actor: Actor, diplomaId: string, options: { txCode?: boolean; txCodeDescription?: string } = {}): Promise<WalletOfferView> {
    const account = await findHolderAccount(this.db, actor.id);
    if (!account) throw new AppError('unauthenticated');
    const row = await findDiploma(this.db, diplomaId);
    if (!row) throw new AppError('not_found');
    authorize(holderPolicy.walletOffer(account, factsOf(row)));
    const configurations = this.configurationIds();
    if (configurations.length === 0) throw new AppError('service_unavailable');
    await consumeAll([[this.offers, String(account.id)]]);
    const code = secret();
    const txCode = options.txCode ? String(randomInt(0, 10 ** TX_CODE_LENGTH)).padStart(TX_CODE_LENGTH, '0') : null;
    const expiresAt = new Date(Date.now() + WALLET_OFFER_MINUTES * 60_000);
    await this.db.transaction(async (tx) => {
      // A new offer replaces the holder's earlier ones for this diploma not yet exchanged: the
      // page shows only the latest, and one made with a code must not leave one without it alive.
      // (The application's clock, which the token endpoint compares with.)
      const now = new Date();
      await tx
        .update(walletOffers)
        .set({ codeExpiresAt: new Date(now.getTime() - 1000) })
        .where(and(eq(walletOffers.userId, account.id), eq(walletOffers.diplomaId, row.id), isNull(walletOffers.codeUsedAt), gt(walletOffers.codeExpiresAt, now)));
      const [offer] = await tx
        .insert(walletOffers)
        .values({ userId: account.id, diplomaId: row.id, codeHash: hash('code', code), codeExpiresAt: expiresAt, txCodeHash: txCode ? txCodeHash(code, txCode) : null })
        .returning({ id: walletOffers.id });
      await recordAudit(
        tx,
        {
          action: 'diploma.wallet_offer_created',
          subjectType: 'diploma',
          subjectId: row.id,
          details: { offer: offer!.id, expires_at: expiresAt.toISOString(), configurations, tx_code: txCode !== null },
        },
        actor,
      );
    });
    const grant = {
      'pre-authorized_code': code,
      ...(txCode
        ? { tx_code: { input_mode: 'numeric' as const, length: TX_CODE_LENGTH, ...(options.txCodeDescription ? { description: options.txCodeDescription.slice(0, 300) } : {}) } }
        : {}),
    };
    const offer = { credential_issuer: this.issuer, credential_configuration_ids: configurations, grants: { [PRE_AUTHORIZED_CODE_GRANT]: grant } };
    return {
      credential_offer: offer,
      offer_uri: `openid-credential-offer://?credential_offer=${encodeURIComponent(JSON.stringify(offer))}`,
      expires_at: expiresAt.toISOString(),
      tx_code: txCode,
    };
  }

  /**
   * The token endpoint (RFC 6749 section 3.2, OpenID4VCI 1.0 section 6): the pre-authorised code,
   * and the transaction code if the offer asked for one, spent by the one statement that issues the
   * token, so two concurrent exchanges cannot both win. With a DPoP proof (RFC 9449), checked before
   * the code is spent, the token is bound to the proof's key.
   */
  async token(form: Record<string, string>, dpop?: { header: string | string[] | undefined; url: string }): Promise<TokenResponse> {
    const grantType = form.grant_type;
    if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required');
    if (grantType !== PRE_AUTHORIZED_CODE_GRANT) throw new OAuthError('unsupported_grant_type', `Only ${PRE_AUTHORIZED_CODE_GRANT} is supported`);
    const code = form['pre-authorized_code'];
    if (!code) throw new OAuthError('invalid_request', 'pre-authorized_code is required');
    const unknown = () => new OAuthError('invalid_grant', 'The pre-authorized code is unknown, expired or already used');
    if (code.length > SECRET_MAX_LENGTH) throw unknown();
    const now = new Date();
    const proof = dpop?.header !== undefined ? await this.dpopProof(dpop.header, { method: 'POST', url: dpop.url, now }) : null;
    const live = and(eq(walletOffers.codeHash, hash('code', code)), isNull(walletOffers.codeUsedAt), gt(walletOffers.codeExpiresAt, now));
    const [found] = await this.db.select({ id: walletOffers.id, txCodeHash: walletOffers.txCodeHash, txCodeFailures: walletOffers.txCodeFailures }).from(walletOffers).where(live);
    if (!found) throw unknown();
    const txCode = form.tx_code;
    if (found.txCodeHash === null && txCode !== undefined) throw new OAuthError('invalid_request', 'This offer has no transaction code: send no tx_code');
    if (found.txCodeHash !== null) {
      if (txCode === undefined || txCode === '') throw new OAuthError('invalid_request', 'This offer needs its transaction code (tx_code)');
      if (found.txCodeFailures >= TX_CODE_MAX_FAILURES) throw new OAuthError('invalid_grant', 'Too many wrong transaction codes: the offer is void');
      if (txCode.length > 16 || !sameHash(txCodeHash(code, txCode), found.txCodeHash)) {
        const [counted] = await this.db
          .update(walletOffers)
          .set({ txCodeFailures: sql`${walletOffers.txCodeFailures} + 1` })
          .where(and(eq(walletOffers.id, found.id), isNull(walletOffers.codeUsedAt), lt(walletOffers.txCodeFailures, TX_CODE_MAX_FAILURES)))
          .returning({ failures: walletOffers.txCodeFailures });
        const left = TX_CODE_MAX_FAILURES - (counted?.failures ?? TX_CODE_MAX_FAILURES);
        throw new OAuthError('invalid_grant', left > 0 ? `The transaction code is wrong (${left} tries left)` : 'The transaction code is wrong: the offer is now void');
      }
    }
    const token = secret();
    const [offer] = await this.db
      .update(walletOffers)
      .set({ codeUsedAt: now, tokenHash: hash('token', token), tokenExpiresAt: new Date(now.getTime() + ACCESS_TOKEN_SECONDS * 1000), tokenJkt: proof?.jkt ?? null })
      .where(and(live, eq(walletOffers.id, found.id), lt(walletOffers.txCodeFailures, TX_CODE_MAX_FAILURES)))
      .returning({ userId: walletOffers.userId, diplomaId: walletOffers.diplomaId });
    if (!offer) throw unknown();
    if (!(await this.holderMayReceive(offer.userId, offer.diplomaId))) throw new OAuthError('invalid_grant', 'This diploma can no longer be issued to a wallet');
    return {
      access_token: token,
      token_type: proof ? 'DPoP' : 'Bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      c_nonce: await this.nonce(),
      c_nonce_expires_in: NONCE_SECONDS,
    };
  }

  /** A fresh `c_nonce` (OpenID4VCI 1.0 section 7), kept hashed until a key proof spends it or it expires. */
  async nonce(): Promise<string> {
    const nonce = secret();
    const now = new Date();
    await this.db.delete(walletNonces).where(lt(walletNonces.expiresAt, now));
    await this.db.insert(walletNonces).values({ nonceHash: hash('nonce', nonce), expiresAt: new Date(now.getTime() + NONCE_SECONDS * 1000) });
    return nonce;
  }

  /**
   * The credential endpoint (OpenID4VCI 1.0 section 8): the access token's diploma, in the asked
   * configuration; the SD-JWT VC is bound to the key the proof shows, after its nonce is spent. A
   * request of draft 13 (`format` with `vct` or `credential_definition`, singular `proof`) is
   * answered in its shape (a singular `credential` and a fresh `c_nonce`).
   */
  async credential(access: ResourceAccess, body: unknown): Promise<CredentialResponse> {
    const offer = await this.offerOfAccess(access);
    if (!(await this.holderMayReceive(offer.userId, offer.diplomaId))) throw new OAuthError('credential_request_denied', 'This diploma can no longer be issued to a wallet');
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new OAuthError('invalid_credential_request', 'The request must be a JSON object');
    const request = body as Record<string, unknown>;
    const draft13 = !('credential_configuration_id' in request) && 'format' in request;
    const configuration = draft13 ? this.draft13Configuration(request) : this.configurationOf(request);
    const credential = configuration === CONFIGURATION.sdJwt ? await this.sdJwt(offer.diplomaId, keyProofOf(request)) : await this.issuers.openBadge!.issue(offer.diplomaId);
    const notificationId = await this.db.transaction(async (tx) => {
      await tx
        .update(walletOffers)
        .set({ credentialsIssued: sql`${walletOffers.credentialsIssued} + 1` })
        .where(eq(walletOffers.id, offer.id));
      const id = notificationIdOf();
      await tx.insert(walletNotifications).values({ id, offerId: offer.id });
      await recordAudit(tx, {
        action: 'diploma.wallet_credential_issued',
        subjectType: 'diploma',
        subjectId: offer.diplomaId,
        actorId: offer.userId,
        details: { offer: offer.id, configuration, notification_id: id, ...(draft13 ? { request: 'draft-13' } : {}), ...(offer.jkt ? { dpop: true } : {}) },
      });
      return id;
    });
    if (draft13) return { credential, c_nonce: await this.nonce(), c_nonce_expires_in: NONCE_SECONDS, notification_id: notificationId };
    return { credentials: [{ credential }], notification_id: notificationId };
  }

  /**
   * The notification endpoint (OpenID4VCI 1.0 section 11): the wallet tells what became of a
   * credential it received with this token (accepted, failed, deleted), by the opaque id its
   * credential response gave (kept in `wallet_notifications` with the offer, ADR 0155). Recorded in
   * the audit log with the offer and the event only; the wallet's free-text description is not kept.
   */
  async notification(access: ResourceAccess, body: unknown): Promise<void> {
    const offer = await this.offerOfAccess(access);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new OAuthError('invalid_notification_request', 'The request must be a JSON object');
    const { notification_id: id, event, event_description: description } = body as Record<string, unknown>;
    if (typeof id !== 'string' || id.length === 0) throw new OAuthError('invalid_notification_request', 'notification_id is required');
    if (typeof event !== 'string' || !(NOTIFICATION_EVENTS as readonly string[]).includes(event))
      throw new OAuthError('invalid_notification_request', `event must be one of ${NOTIFICATION_EVENTS.join(', ')}`);
    if (description !== undefined && typeof description !== 'string') throw new OAuthError('invalid_notification_request', 'event_description must be a string');
    // An id is good only with the access token (the offer) whose credential response gave it.
    const [issued] =
      id.length === NOTIFICATION_ID_LENGTH
        ? await this.db
            .select({ id: walletNotifications.id })
            .from(walletNotifications)
            .where(and(eq(walletNotifications.id, id), eq(walletNotifications.offerId, offer.id)))
        : [];
    if (!issued) throw new OAuthError('invalid_notification_id', 'This notification_id was not issued with this access token');
    await recordAudit(this.db, {
      action: 'diploma.wallet_notification',
      subjectType: 'diploma',
      subjectId: offer.diplomaId,
      actorId: offer.userId,
      details: { offer: offer.id, notification_id: id, event },
    });
  }

  /** The configuration of a 1.0 request (`credential_configuration_id`). */
  private configurationOf(request: Record<string, unknown>): string {
    if ('credential_identifier' in request) throw new OAuthError('invalid_credential_request', 'This issuer uses credential_configuration_id, not credential_identifier');
    const configuration = request.credential_configuration_id;
    if (typeof configuration !== 'string') throw new OAuthError('invalid_credential_request', 'credential_configuration_id is required');
    if (!this.configurationIds().includes(configuration))
      throw new OAuthError('unknown_credential_configuration', `Unknown credential configuration: ${configuration.slice(0, 64)}`);
    return configuration;
  }

  /** The configuration of a draft-13 request: `format` (`vc+sd-jwt` or `dc+sd-jwt` with our `vct`; `ldp_vc` with an OpenBadgeCredential). */
  private draft13Configuration(request: Record<string, unknown>): string {
    const { format } = request;
    if (typeof format === 'string' && SD_JWT_FORMATS.includes(format) && this.issuers.sdJwt) {
      if (request.vct !== this.issuers.sdJwt.vct) throw new OAuthError('unsupported_credential_type', `This issuer's SD-JWT VC has vct ${this.issuers.sdJwt.vct}`);
      return CONFIGURATION.sdJwt;
    }
    if (format === 'ldp_vc' && this.issuers.openBadge) {
      const type = (request.credential_definition as { type?: unknown } | undefined)?.type;
      if (!Array.isArray(type) || !type.includes('OpenBadgeCredential'))
        throw new OAuthError('unsupported_credential_type', 'credential_definition.type must name OpenBadgeCredential');
      return CONFIGURATION.openBadge;
    }
    throw new OAuthError('unsupported_credential_format', `Unsupported credential format: ${String(format).slice(0, 32)}`);
  }

  private async sdJwt(diplomaId: string, jwt: unknown): Promise<string> {
    const now = new Date();
    const proof = await verifyKeyProof(jwt, this.issuer, now);
    const [spent] = await this.db
      .delete(walletNonces)
      .where(and(eq(walletNonces.nonceHash, hash('nonce', proof.nonce.slice(0, SECRET_MAX_LENGTH))), gt(walletNonces.expiresAt, now)))
      .returning({ expiresAt: walletNonces.expiresAt });
    if (!spent) throw new OAuthError('invalid_nonce', 'The key proof must sign a fresh c_nonce from the nonce endpoint');
    return this.issuers.sdJwt!.issue(diplomaId, { holderPublicJwk: proof.jwk });
  }

  /** A DPoP proof checked and its `jti` recorded: the same proof twice is a replay (RFC 9449 section 11.1). */
  private async dpopProof(header: string | string[] | undefined, expected: Parameters<typeof verifyDpopProof>[1]): Promise<DpopProof> {
    const proof = await verifyDpopProof(header, expected);
    await this.db.delete(walletDpopProofs).where(lt(walletDpopProofs.expiresAt, expected.now));
    const [fresh] = await this.db
      .insert(walletDpopProofs)
      .values({ jtiHash: hash('dpop', `${proof.jkt}:${proof.jti}`), expiresAt: proof.acceptedUntil })
      .onConflictDoNothing()
      .returning({ jtiHash: walletDpopProofs.jtiHash });
    if (!fresh) {
      const status = expected.accessToken !== undefined ? 401 : 400;
      const headers: Record<string, string> = status === 401 ? { 'www-authenticate': `DPoP error="invalid_dpop_proof", ${DPOP_ALGS_PARAM}` } : {};
      throw new OAuthError('invalid_dpop_proof', 'This DPoP proof was already used (its jti is spent)', status, headers);
    }
    return proof;
  }

  /**
   * The offer of the access token a resource request presents (RFC 6750, RFC 9449 section 7): a
   * token bound by DPoP is accepted only as `DPoP` with a proof of its key for this request (`ath`);
   * an unbound one only as `Bearer`.
   */
  private async offerOfAccess(access: ResourceAccess) {
    const challenge = (scheme: 'Bearer' | 'DPoP' | 'both', error?: string) => {
      const param = error ? ` error="${error}"` : '';
      const bearer = `Bearer${param}`;
      const dpop = `DPoP${param ? `${param},` : ''} ${DPOP_ALGS_PARAM}`;
      return { 'www-authenticate': scheme === 'both' ? `${bearer}, ${dpop}` : scheme === 'Bearer' ? bearer : dpop };
    };
    const header = access.authorization;
    const parsed = header && header.length <= 512 ? /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header) : null;
    if (!parsed) throw new OAuthError('invalid_token', 'An access token from the token endpoint is required (Bearer or DPoP)', 401, challenge('both'));
    const scheme = parsed[1]!.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer';
    const accessToken = parsed[2]!;
    const [offer] =
      accessToken.length > SECRET_MAX_LENGTH
        ? []
        : await this.db
            .select({ id: walletOffers.id, userId: walletOffers.userId, diplomaId: walletOffers.diplomaId, jkt: walletOffers.tokenJkt })
            .from(walletOffers)
            .where(and(eq(walletOffers.tokenHash, hash('token', accessToken)), gt(walletOffers.tokenExpiresAt, new Date())));
    if (!offer) throw new OAuthError('invalid_token', 'The access token is unknown or expired', 401, challenge(scheme, 'invalid_token'));
    if (offer.jkt === null) {
      if (scheme === 'DPoP') throw new OAuthError('invalid_token', 'This access token is not bound to a DPoP key: send it as Bearer', 401, challenge('Bearer', 'invalid_token'));
      return offer;
    }
    if (scheme === 'Bearer')
      throw new OAuthError('invalid_token', 'This access token is bound to a DPoP key: send it as DPoP, with a proof', 401, challenge('DPoP', 'invalid_token'));
    const proof = await this.dpopProof(access.dpop, { method: access.method, url: access.url, accessToken, now: new Date() });
    if (proof.jkt !== offer.jkt) throw new OAuthError('invalid_dpop_proof', "The DPoP proof's key is not the access token's", 401, challenge('DPoP', 'invalid_dpop_proof'));
    return offer;
  }

  /** The holder's download rule, read now: the account still holds the diploma, published and not revoked. */
  private async holderMayReceive(userId: number, diplomaId: string): Promise<boolean> {
    const [account, row] = await Promise.all([findHolderAccount(this.db, userId), findDiploma(this.db, diplomaId)]);
    return account !== null && row !== null && allowed(holderPolicy.walletOffer(account, factsOf(row)));
  }
}

/** The one key proof of a request: 1.0's `proofs.jwt` (one, no batch issuance), or draft 13's singular `proof`. */
function keyProofOf(request: Record<string, unknown>): unknown {
  const { proofs, proof } = request;
  if (proofs !== undefined && proof !== undefined) throw new OAuthError('invalid_credential_request', 'Send proofs or proof, not both');
  if (proof !== undefined) {
    if (typeof proof !== 'object' || proof === null || (proof as { proof_type?: unknown }).proof_type !== 'jwt')
      throw new OAuthError('invalid_proof', 'proof must be of proof_type jwt');
    return (proof as { jwt?: unknown }).jwt;
  }
  if (typeof proofs !== 'object' || proofs === null || Array.isArray(proofs)) throw new OAuthError('invalid_proof', 'proofs.jwt is required: the credential is bound to your key');
  const jwts = (proofs as { jwt?: unknown }).jwt;
  if (Object.keys(proofs).length !== 1 || !Array.isArray(jwts)) throw new OAuthError('invalid_proof', 'proofs must hold one proof type, jwt');
  if (jwts.length !== 1) throw new OAuthError('invalid_proof', 'proofs.jwt must hold exactly one key proof (no batch issuance)');
  return jwts[0];
}
