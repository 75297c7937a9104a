import type { Locale, OtpPurpose, Profile } from '@sceau/contracts';
import type { FastifyRequest } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { RateLimiterPostgres } from 'rate-limiter-flexible';
import { consumeAll, pgRateLimiter } from '../../lib/rate-limits.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { oneTimeCodes, users } from '../../db/schema.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { recordAudit, requestOrigin } from '../audit/audit-service.ts';
import type { Messenger } from '../messaging/messaging-service.ts';
import type { OtpService, SentCode } from '../otp/otp-service.ts';
import { findUserByContact, hashPassword, normaliseContact, passwordMatches } from './auth-service.ts';
import { LoginThrottle } from './login-throttle.ts';
import { loadProfile } from './profile.ts';
import type { GoogleIdentityVerifier } from './google-identity.ts';
import { issueAccessToken, revokeUserTokens } from './token-service.ts';

/** A registration attempt, kept in one_time_codes: its secret's hash, its contact, its pending account. */
const ATTEMPT = 'registration';
const ATTEMPT_HOURS = 24;
/** Registrations per hour (ADR 0113): a person retrying is far below; a script is stopped. */
const REGISTER_PER_CONTACT = 5;
const REGISTER_PER_ADDRESS = 20;
/** How long the session a recovery code opened may set a password without the current one. */
const RECOVERY_MINUTES = 30;

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');
const recoveryGrant = (tokenId: number) => `recovery:${tokenId}`;

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
  private readonly throttle: LoginThrottle;
  private readonly registerByAddress: RateLimiterPostgres;
  private readonly registerByContact: RateLimiterPostgres;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly otp: OtpService,
    private readonly messenger: Messenger,
    private readonly google: GoogleIdentityVerifier | null,
  ) {
    // The same counters as sign-in: a wrong current password is a wrong password.
    this.throttle = new LoginThrottle(db.$client, config.login);
    this.registerByAddress = pgRateLimiter(db.$client, { keyPrefix: 'register_ip', points: REGISTER_PER_ADDRESS, durationSeconds: 3600 });
    this.registerByContact = pgRateLimiter(db.$client, { keyPrefix: 'register_contact', points: REGISTER_PER_CONTACT, durationSeconds: 3600 });
  }

  /**
   * Records a registration attempt and answers the secret that identifies it (ADR 0113). The same
   * work is done, and the same answer given, whether or not the contact already has an account: a
   * confirmed contact's attempt is a decoy that never sends a code (its owner is told instead, by
   * sendCode). A pending account takes the latest attempt's name and password, and every earlier
   * attempt of that contact dies with it, so no earlier code can confirm a password it was not
   * sent for; a code confirms only its own attempt, whose secret only its registrant holds.
   */
  async register(
    input: { name: string; first_name?: string; mail_or_phone: string; password: string },
    request: FastifyRequest,
  ): Promise<{ contact: string; registration: string }> {
    const contact = normaliseContact(input.mail_or_phone);
    await this.assertRegistrationAllowed(contact, request.ip);
    const passwordHash = await hashPassword(input.password);
    const registration = randomBytes(24).toString('base64url');
    const fields = { name: input.name, firstName: input.first_name || null, passwordHash, locale: request.locale };
    await this.db.transaction(async (tx) => {
      // One registration of a contact at a time: the attempt recorded last is the pending account's.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`register:${contact}`}))`);
      const existing = await findUserByContact(tx as unknown as Db, contact);
      const pending = existing && !existing.verifiedAt && !existing.archivedAt ? existing : null;
      let userId: number | null = pending?.id ?? null;
      if (pending) {
        await tx
          .update(users)
          .set({ ...fields, updatedAt: new Date() })
          .where(and(eq(users.id, pending.id), isNull(users.verifiedAt)));
        await recordAudit(tx, { action: 'user.registration_updated', actorId: null, actorLabel: contact, subjectType: 'user', subjectId: pending.id }, request);
      } else if (!existing) {
        const contactField = contact.includes('@') ? { email: contact } : { phone: contact };
        const [created] = await tx
          .insert(users)
          .values({ ...fields, ...contactField })
          .returning({ id: users.id });
        userId = created!.id;
        await recordAudit(tx, { action: 'user.registered', actorId: null, actorLabel: contact, subjectType: 'user', subjectId: userId }, request);
      }
      // Earlier attempts (and their codes) end here.
      await tx
        .update(oneTimeCodes)
        .set({ consumedAt: new Date() })
        .where(
          and(eq(oneTimeCodes.destination, contact), isNull(oneTimeCodes.consumedAt), sql`(${oneTimeCodes.purpose} = ${ATTEMPT} or ${oneTimeCodes.purpose} like 'register:%')`),
        );
      await tx.insert(oneTimeCodes).values({
        purpose: ATTEMPT,
        destination: contact,
        userId,
        codeHash: hashSecret(registration),
        expiresAt: new Date(Date.now() + ATTEMPT_HOURS * 3_600_000),
      });
    });
    return { contact, registration };
  }

  /** /register answers 429 past REGISTER_PER_CONTACT attempts for a contact or REGISTER_PER_ADDRESS from an address, per hour. */
  private async assertRegistrationAllowed(contact: string, ip: string): Promise<void> {
    await consumeAll([
      [this.registerByAddress, ip],
      [this.registerByContact, contact],
    ]);
  }

  /** The live registration attempt a secret names for this contact, or a 422 on `registration`. */
  private async attemptOf(contact: string, registration: string | undefined): Promise<{ id: number; userId: number | null }> {
    const [attempt] = registration
      ? await this.db
          .select({ id: oneTimeCodes.id, userId: oneTimeCodes.userId })
          .from(oneTimeCodes)
          .where(
            and(
              eq(oneTimeCodes.purpose, ATTEMPT),
              eq(oneTimeCodes.destination, contact),
              eq(oneTimeCodes.codeHash, hashSecret(registration)),
              isNull(oneTimeCodes.consumedAt),
              sql`${oneTimeCodes.expiresAt} > now()`,
            ),
          )
          .limit(1)
      : [];
    if (!attempt) throw fieldError('registration', 'field.registration_expired');
    return attempt;
  }

  /** Sends the code for a purpose, or, where there is nothing to confirm, what the contact's owner should know. */
  async sendCode(mailOrPhone: string, purpose: OtpPurpose, locale: Locale, registration?: string): Promise<SentCode> {
    const destination = normaliseContact(mailOrPhone);
    if (purpose === 'register') {
      const attempt = await this.attemptOf(destination, registration);
      const codePurpose = `register:${attempt.id}` as const;
      if (attempt.userId !== null) {
        const [pending] = await this.db
          .select({ locale: users.locale })
          .from(users)
          .where(and(eq(users.id, attempt.userId), isNull(users.verifiedAt)));
        if (pending) return this.otp.send({ destination, purpose: codePurpose, userId: attempt.userId, locale: pending.locale, template: 'otp_register' });
      }
      // A decoy attempt (the contact has an account): the same wait and count, and a notice to its owner.
      const sent = await this.otp.send({ destination, purpose: codePurpose, userId: null, locale, template: 'otp_register', deliver: false });
      const owner = await findUserByContact(this.db, destination);
      if (owner?.verifiedAt && !owner.archivedAt) await this.messenger.send(destination, 'account_exists', owner.locale);
      return sent;
    }
    const user = await findUserByContact(this.db, destination);
    const active = user && !user.archivedAt ? user : null;
    if (active?.verifiedAt) {
      return this.otp.send({ destination, purpose, userId: active.id, locale: active.locale, template: 'otp_reset_password' });
    }
    return this.otp.send({ destination, purpose, userId: null, locale, template: 'otp_reset_password', deliver: false });
  }

  /**
   * A right code signs the person in. For registration it confirms the account with the password
   * of the attempt the code was sent for, if that attempt is still the contact's latest; for
   * recovery, the session it opens may set a new password without the current one.
   */
  async validateCode(mailOrPhone: string, purpose: OtpPurpose, code: string, request: FastifyRequest, registration?: string): Promise<SignedIn> {
    const destination = normaliseContact(mailOrPhone);
    if (purpose === 'register') return this.confirmRegistration(destination, code, registration, request);
    const { userId } = await this.otp.verify({ destination, purpose, code });
    const user = userId === null ? null : await findUserByContact(this.db, destination);
    if (!user || user.id !== userId || user.archivedAt) throw fieldError('otp', 'field.otp_none');
    const signedIn = await this.db.transaction(async (tx) => {
      await recordAudit(tx, { action: 'auth.password_recovery_code_used', actorId: user.id, subjectType: 'user', subjectId: user.id }, request);
      return this.signIn(tx as unknown as Db, user.id, request);
    });
    await this.otp.grant(user.id, recoveryGrant(signedIn.tokenId), RECOVERY_MINUTES);
    return signedIn.answer;
  }

  private async confirmRegistration(destination: string, code: string, registration: string | undefined, request: FastifyRequest): Promise<SignedIn> {
    const attempt = await this.attemptOf(destination, registration);
    const { userId } = await this.otp.verify({ destination, purpose: `register:${attempt.id}`, code });
    const signedIn = await this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`register:${destination}`}))`);
      // Still this contact's latest attempt, and the account still pending: a newer registration
      // (someone else's password, perhaps) is never confirmed by this code.
      const ended = await tx
        .update(oneTimeCodes)
        .set({ consumedAt: new Date() })
        .where(and(eq(oneTimeCodes.id, attempt.id), isNull(oneTimeCodes.consumedAt)))
        .returning({ id: oneTimeCodes.id });
      const confirmed =
        ended.length === 1 && userId !== null
          ? await tx
              .update(users)
              .set({ verifiedAt: new Date(), updatedAt: new Date() })
              .where(and(eq(users.id, userId), isNull(users.verifiedAt), isNull(users.archivedAt)))
              .returning({ id: users.id })
          : [];
      if (confirmed.length === 0) return null;
      const id = userId!;
      await recordAudit(tx, { action: 'user.contact_confirmed', actorId: id, subjectType: 'user', subjectId: id }, request);
      await recordAudit(tx, { action: 'auth.signed_in_by_code', actorId: id, subjectType: 'user', subjectId: id }, request);
      return this.signIn(tx as unknown as Db, id, request);
    });
    if (!signedIn) throw fieldError('registration', 'field.registration_expired');
    return signedIn.answer;
  }

  /**
   * Sets a new password for the signed-in person; every other session ends. The current password
   * is required (a temporary one counts), checked and throttled like a sign-in, except in the
   * session a recovery code opened (ADR 0113).
   */
  async resetPassword(
    caller: { id: number; tokenId: number },
    input: { mail_or_phone: string; current_password?: string; password: string },
    request: FastifyRequest,
  ): Promise<SignedIn> {
    const contact = normaliseContact(input.mail_or_phone);
    const [user] = await this.db.select().from(users).where(eq(users.id, caller.id));
    if (!user || (user.email !== contact && user.phone !== contact)) throw fieldError('mail_or_phone', 'field.contact_mismatch');
    if (!(await this.otp.consumeGrant(caller.id, recoveryGrant(caller.tokenId)))) {
      if (!input.current_password) throw fieldError('current_password', 'field.required');
      const keys = [`user:${caller.id}`];
      await this.throttle.reserve(keys, request.ip);
      if (!(await passwordMatches(user, input.current_password))) {
        await recordAudit(this.db, { action: 'user.password_change_failed', actorId: caller.id, subjectType: 'user', subjectId: caller.id }, request);
        throw fieldError('current_password', 'field.current_password_wrong');
      }
      await this.throttle.succeeded(keys, request.ip);
    }
    const passwordHash = await hashPassword(input.password);
    const signedIn = await this.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, passwordResetRequired: false, updatedAt: new Date() }).where(eq(users.id, caller.id));
      await revokeUserTokens(tx, caller.id);
      await recordAudit(tx, { action: 'user.password_changed', actorId: caller.id, subjectType: 'user', subjectId: caller.id }, request);
      return this.signIn(tx as unknown as Db, caller.id, request);
    });
    return signedIn.answer;
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
          // A pending account's password was never proven by its contact's owner (anyone may have
          // registered it): Google confirming the contact does not make it usable.
          const unproven = known.verifiedAt ? {} : { passwordHash: null };
          await tx
            .update(users)
            .set({ googleSub: identity.sub, verifiedAt: known.verifiedAt ?? new Date(), ...unproven, updatedAt: new Date() })
            .where(eq(users.id, known.id));
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
      return (await this.signIn(tx as unknown as Db, userId, request)).answer;
    });
  }

  private async signIn(db: Db, userId: number, request: FastifyRequest): Promise<{ answer: SignedIn; tokenId: number }> {
    const { token, expiresIn, tokenId } = await issueAccessToken(db, {
      userId,
      clientId: this.config.oauth.clientId,
      scope: '',
      ttlMinutes: this.config.tokenTtlMinutes,
      ...requestOrigin(request),
    });
    const profile = await loadProfile(db, userId);
    return { answer: { access_token: token, token_type: 'Bearer', expires_in: expiresIn, data: profile! }, tokenId };
  }
}
