import { createHash, randomBytes } from 'node:crypto';
import { PRE_AUTHORIZED_CODE_GRANT, WALLET_OFFER_MINUTES, type WalletOfferView } from '@sceau/contracts';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { JWK } from 'jose';
import type { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Db } from '../../db/client.ts';
import { walletNonces, walletOffers } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { consumeAll, pgRateLimiter } from '../../lib/rate-limits.ts';
import type { Actor } from '../../policies/actor.ts';
import { holderPolicy } from '../../policies/holder-policy.ts';
import { allowed, authorize } from '../../policies/policy.ts';
import { recordAudit } from '../audit/audit-service.ts';
import { factsOf, findDiploma, findHolderAccount } from '../holder/holder-repository.ts';
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

const hash = (kind: 'code' | 'token' | 'nonce', secret: string) => createHash('sha256').update(`wallet-${kind}:${secret}`).digest('hex');
const secret = () => randomBytes(32).toString('base64url');

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

  /** A credential offer by value for one of the holder's diplomas, with its deep link (the QR code's content). */
  async createOffer(actor: Actor, diplomaId: string): Promise<WalletOfferView> {
    const account = await findHolderAccount(this.db, actor.id);
    if (!account) throw new AppError('unauthenticated');
    const row = await findDiploma(this.db, diplomaId);
    if (!row) throw new AppError('not_found');
    authorize(holderPolicy.walletOffer(account, factsOf(row)));
    const configurations = this.configurationIds();
    if (configurations.length === 0) throw new AppError('service_unavailable');
    await consumeAll([[this.offers, String(account.id)]]);
    const code = secret();
    const expiresAt = new Date(Date.now() + WALLET_OFFER_MINUTES * 60_000);
    await this.db.transaction(async (tx) => {
      const [offer] = await tx
        .insert(walletOffers)
        .values({ userId: account.id, diplomaId: row.id, codeHash: hash('code', code), codeExpiresAt: expiresAt })
        .returning({ id: walletOffers.id });
      await recordAudit(
        tx,
        { action: 'diploma.wallet_offer_created', subjectType: 'diploma', subjectId: row.id, details: { offer: offer!.id, expires_at: expiresAt.toISOString(), configurations } },
        actor,
      );
    });
    const offer = {
      credential_issuer: this.issuer,
      credential_configuration_ids: configurations,
      grants: { [PRE_AUTHORIZED_CODE_GRANT]: { 'pre-authorized_code': code } },
    };
    return { credential_offer: offer, offer_uri: `openid-credential-offer://?credential_offer=${encodeURIComponent(JSON.stringify(offer))}`, expires_at: expiresAt.toISOString() };
  }

  /**
   * The token endpoint (RFC 6749 section 3.2, OpenID4VCI 1.0 section 6): the pre-authorised code,
   * spent by the one statement that issues the token, so two concurrent exchanges cannot both win.
   */
  async token(form: Record<string, string>): Promise<{ access_token: string; token_type: 'Bearer'; expires_in: number }> {
    const grantType = form.grant_type;
    if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required');
    if (grantType !== PRE_AUTHORIZED_CODE_GRANT) throw new OAuthError('unsupported_grant_type', `Only ${PRE_AUTHORIZED_CODE_GRANT} is supported`);
    const code = form['pre-authorized_code'];
    if (!code) throw new OAuthError('invalid_request', 'pre-authorized_code is required');
    if (code.length > SECRET_MAX_LENGTH) throw new OAuthError('invalid_grant', 'The pre-authorized code is unknown, expired or already used');
    const token = secret();
    const now = new Date();
    const [offer] = await this.db
      .update(walletOffers)
      .set({ codeUsedAt: now, tokenHash: hash('token', token), tokenExpiresAt: new Date(now.getTime() + ACCESS_TOKEN_SECONDS * 1000) })
      .where(and(eq(walletOffers.codeHash, hash('code', code)), isNull(walletOffers.codeUsedAt), gt(walletOffers.codeExpiresAt, now)))
      .returning({ userId: walletOffers.userId, diplomaId: walletOffers.diplomaId });
    if (!offer) throw new OAuthError('invalid_grant', 'The pre-authorized code is unknown, expired or already used');
    if (!(await this.holderMayReceive(offer.userId, offer.diplomaId))) throw new OAuthError('invalid_grant', 'This diploma can no longer be issued to a wallet');
    return { access_token: token, token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS };
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
   * configuration; the SD-JWT VC is bound to the key the proof shows, after its nonce is spent.
   */
  async credential(accessToken: string | null, body: unknown): Promise<{ credentials: { credential: string | object }[] }> {
    const offer = await this.offerOfToken(accessToken);
    if (!(await this.holderMayReceive(offer.userId, offer.diplomaId))) throw new OAuthError('credential_request_denied', 'This diploma can no longer be issued to a wallet');
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new OAuthError('invalid_credential_request', 'The request must be a JSON object');
    const request = body as Record<string, unknown>;
    if ('credential_identifier' in request) throw new OAuthError('invalid_credential_request', 'This issuer uses credential_configuration_id, not credential_identifier');
    const configuration = request.credential_configuration_id;
    if (typeof configuration !== 'string') throw new OAuthError('invalid_credential_request', 'credential_configuration_id is required');
    if (!this.configurationIds().includes(configuration))
      throw new OAuthError('unknown_credential_configuration', `Unknown credential configuration: ${configuration.slice(0, 64)}`);
    const credential = configuration === CONFIGURATION.sdJwt ? await this.sdJwt(offer.diplomaId, request.proofs) : await this.issuers.openBadge!.issue(offer.diplomaId);
    await this.db.transaction(async (tx) => {
      await tx
        .update(walletOffers)
        .set({ credentialsIssued: sql`${walletOffers.credentialsIssued} + 1` })
        .where(eq(walletOffers.id, offer.id));
      await recordAudit(tx, {
        action: 'diploma.wallet_credential_issued',
        subjectType: 'diploma',
        subjectId: offer.diplomaId,
        actorId: offer.userId,
        details: { offer: offer.id, configuration },
      });
    });
    return { credentials: [{ credential }] };
  }

  private async sdJwt(diplomaId: string, proofs: unknown): Promise<string> {
    if (typeof proofs !== 'object' || proofs === null || Array.isArray(proofs))
      throw new OAuthError('invalid_proof', 'proofs.jwt is required: the credential is bound to your key');
    const entries = Object.entries(proofs);
    const jwts = (proofs as { jwt?: unknown }).jwt;
    if (entries.length !== 1 || !Array.isArray(jwts)) throw new OAuthError('invalid_proof', 'proofs must hold one proof type, jwt');
    if (jwts.length !== 1) throw new OAuthError('invalid_proof', 'proofs.jwt must hold exactly one key proof (no batch issuance)');
    const now = new Date();
    const proof = await verifyKeyProof(jwts[0], this.issuer, now);
    const [spent] = await this.db
      .delete(walletNonces)
      .where(and(eq(walletNonces.nonceHash, hash('nonce', proof.nonce.slice(0, SECRET_MAX_LENGTH))), gt(walletNonces.expiresAt, now)))
      .returning({ expiresAt: walletNonces.expiresAt });
    if (!spent) throw new OAuthError('invalid_nonce', 'The key proof must sign a fresh c_nonce from the nonce endpoint');
    return this.issuers.sdJwt!.issue(diplomaId, { holderPublicJwk: proof.jwk });
  }

  private async offerOfToken(accessToken: string | null) {
    const challenge = (error?: string) => ({ 'www-authenticate': error ? `Bearer error="${error}"` : 'Bearer' });
    if (!accessToken) throw new OAuthError('invalid_token', 'A Bearer access token from the token endpoint is required', 401, challenge());
    const [offer] =
      accessToken.length > SECRET_MAX_LENGTH
        ? []
        : await this.db
            .select({ id: walletOffers.id, userId: walletOffers.userId, diplomaId: walletOffers.diplomaId })
            .from(walletOffers)
            .where(and(eq(walletOffers.tokenHash, hash('token', accessToken)), gt(walletOffers.tokenExpiresAt, new Date())));
    if (!offer) throw new OAuthError('invalid_token', 'The access token is unknown or expired', 401, challenge('invalid_token'));
    return offer;
  }

  /** The holder's download rule, read now: the account still holds the diploma, published and not revoked. */
  private async holderMayReceive(userId: number, diplomaId: string): Promise<boolean> {
    const [account, row] = await Promise.all([findHolderAccount(this.db, userId), findDiploma(this.db, diplomaId)]);
    return account !== null && row !== null && allowed(holderPolicy.walletOffer(account, factsOf(row)));
  }
}
