import type { Locale, OtpPurpose, Profile } from '@sceau/contracts';
import type { FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { recordAudit, requestOrigin } from '../audit/audit-service.ts';
import type { Messenger } from '../messaging/messaging-service.ts';
import type { OtpService, SentCode } from '../otp/otp-service.ts';
import { loadProfile } from '../users/user-repository.ts';
import { findUserByContact, hashPassword, normaliseContact } from './auth-service.ts';
import type { GoogleIdentityVerifier } from './google-identity.ts';
import { issueAccessToken, revokeUserTokens } from './token-service.ts';

export interface SignedIn {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  data: Profile;
}

/**
 * Self-service accounts: registration confirmed by a one-time code, password recovery, Google
 * sign-in. No answer tells whether an account exists for a contact.
 */
export class RegistrationService {
  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly otp: OtpService,
    private readonly messenger: Messenger,
    private readonly google: GoogleIdentityVerifier | null,
  ) {}

  /** Creates (or, while unconfirmed, updates) an account with no role. A confirmed account is left alone. */
  async register(input: { name: string; first_name?: string; mail_or_phone: string; password: string }, request: FastifyRequest) {
    const contact = normaliseContact(input.mail_or_phone);
    const existing = await findUserByContact(this.db, contact);
    if (existing?.verifiedAt || existing?.archivedAt) return contact;
    const passwordHash = await hashPassword(input.password);
    const fields = { name: input.name, firstName: input.first_name || null, passwordHash, locale: request.locale };
    await this.db.transaction(async (tx) => {
      if (existing) {
        await tx.update(users).set({ ...fields, updatedAt: new Date() }).where(eq(users.id, existing.id));
        await recordAudit(tx, { action: 'user.registration_updated', actorId: null, actorLabel: contact, subjectType: 'user', subjectId: existing.id }, request);
        return;
      }
      const contactField = contact.includes('@') ? { email: contact } : { phone: contact };
      const [created] = await tx.insert(users).values({ ...fields, ...contactField }).returning({ id: users.id });
      await recordAudit(tx, { action: 'user.registered', actorId: null, actorLabel: contact, subjectType: 'user', subjectId: created!.id }, request);
    });
    return contact;
  }

  /** Sends the code for a purpose, or, where there is nothing to confirm, what the contact's owner should know. */
  async sendCode(mailOrPhone: string, purpose: OtpPurpose, locale: Locale): Promise<SentCode> {
    const destination = normaliseContact(mailOrPhone);
    const user = await findUserByContact(this.db, destination);
    const active = user && !user.archivedAt ? user : null;
    if (purpose === 'register') {
      if (active && !active.verifiedAt) {
        return this.otp.send({ destination, purpose, userId: active.id, locale: active.locale as Locale, template: 'otp_register' });
      }
      const sent = await this.otp.send({ destination, purpose, userId: null, locale, template: 'otp_register', deliver: false });
      if (active?.verifiedAt) await this.messenger.send(destination, 'account_exists', active.locale as Locale);
      return sent;
    }
    if (active?.verifiedAt) {
      return this.otp.send({ destination, purpose, userId: active.id, locale: active.locale as Locale, template: 'otp_reset_password' });
    }
    return this.otp.send({ destination, purpose, userId: null, locale, template: 'otp_reset_password', deliver: false });
  }

  /** A right code signs the person in; for registration it also confirms the account. */
  async validateCode(mailOrPhone: string, purpose: OtpPurpose, code: string, request: FastifyRequest): Promise<SignedIn> {
    const destination = normaliseContact(mailOrPhone);
    const { userId } = await this.otp.verify({ destination, purpose, code });
    const user = userId === null ? null : await findUserByContact(this.db, destination);
    if (!user || user.id !== userId || user.archivedAt) throw fieldError('otp', 'field.otp_none');
    return this.db.transaction(async (tx) => {
      if (purpose === 'register' && !user.verifiedAt) {
        await tx.update(users).set({ verifiedAt: new Date(), updatedAt: new Date() }).where(eq(users.id, user.id));
        await recordAudit(tx, { action: 'user.contact_confirmed', actorId: user.id, subjectType: 'user', subjectId: user.id }, request);
      }
      await recordAudit(tx, { action: purpose === 'register' ? 'auth.signed_in_by_code' : 'auth.password_recovery_code_used', actorId: user.id, subjectType: 'user', subjectId: user.id }, request);
      return this.signIn(tx as unknown as Db, user.id, request);
    });
  }

  /** Sets a new password for the signed-in person; every other session ends. */
  async resetPassword(userId: number, input: { mail_or_phone: string; password: string }, request: FastifyRequest): Promise<SignedIn> {
    const contact = normaliseContact(input.mail_or_phone);
    const [user] = await this.db.select().from(users).where(eq(users.id, userId));
    if (!user || (user.email !== contact && user.phone !== contact)) throw fieldError('mail_or_phone', 'field.contact_mismatch');
    const passwordHash = await hashPassword(input.password);
    return this.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, passwordResetRequired: false, updatedAt: new Date() }).where(eq(users.id, userId));
      await revokeUserTokens(tx, userId);
      await recordAudit(tx, { action: 'user.password_changed', actorId: userId, subjectType: 'user', subjectId: userId }, request);
      return this.signIn(tx as unknown as Db, userId, request);
    });
  }

  async signInWithGoogle(idToken: string, claimedGoogleId: string | undefined, request: FastifyRequest): Promise<SignedIn> {
    if (!this.google) throw new AppError('not_found');
    const identity = await this.google.verify(idToken);
    if (!identity || (claimedGoogleId && claimedGoogleId !== identity.sub)) {
      await recordAudit(this.db, { action: 'auth.google_sign_in_failed', actorLabel: claimedGoogleId ?? null }, request);
      throw new AppError('invalid_credentials');
    }
    const [bySub] = await this.db.select().from(users).where(eq(users.googleSub, identity.sub)).limit(1);
    const byEmail = !bySub && identity.email && identity.emailVerified ? await findUserByContact(this.db, identity.email) : null;
    const known = bySub ?? byEmail;
    if (known?.archivedAt) throw new AppError('invalid_credentials');
    return this.db.transaction(async (tx) => {
      let userId: number;
      if (known) {
        userId = known.id;
        if (!known.googleSub || !known.verifiedAt) {
          await tx.update(users).set({ googleSub: identity.sub, verifiedAt: known.verifiedAt ?? new Date(), updatedAt: new Date() }).where(eq(users.id, known.id));
          await recordAudit(tx, { action: 'user.google_linked', actorId: known.id, subjectType: 'user', subjectId: known.id }, request);
        }
      } else {
        const name = identity.familyName ?? identity.name ?? identity.email ?? 'Google';
        const [created] = await tx
          .insert(users)
          .values({
            name,
            firstName: identity.givenName,
            email: identity.emailVerified ? identity.email : null,
            googleSub: identity.sub,
            verifiedAt: new Date(),
            locale: request.locale,
          })
          .returning({ id: users.id });
        userId = created!.id;
        await recordAudit(tx, { action: 'user.registered_with_google', actorId: userId, subjectType: 'user', subjectId: userId }, request);
      }
      await recordAudit(tx, { action: 'auth.signed_in_with_google', actorId: userId, subjectType: 'user', subjectId: userId }, request);
      return this.signIn(tx as unknown as Db, userId, request);
    });
  }

  private async signIn(db: Db, userId: number, request: FastifyRequest): Promise<SignedIn> {
    const { token, expiresIn } = await issueAccessToken(db, {
      userId,
      clientId: this.config.oauth.clientId,
      scope: '',
      ttlMinutes: this.config.tokenTtlMinutes,
      ...requestOrigin(request),
    });
    const profile = await loadProfile(db, userId);
    return { access_token: token, token_type: 'Bearer', expires_in: expiresIn, data: profile! };
  }
}
