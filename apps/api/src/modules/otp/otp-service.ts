import type { Locale, OtpPurpose } from '@sceau/contracts';
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { oneTimeCodes } from '../../db/schema.ts';
import { AppError, fieldError, type FieldMessage } from '../../lib/errors.ts';
import type { Channel, Messenger } from '../messaging/messaging-service.ts';

/**
 * Registration (`register:<attempt>`: a code confirms that registration attempt only, ADR 0113),
 * recovery, or the launch of one batch (`generation_launch:<id>`: a code is good for that batch only).
 */
export type CodePurpose = OtpPurpose | `register:${number}` | `generation_launch:${number}`;

function hashCode(id: number, code: string): string {
  // Salted by the row id so that equal codes never share a hash.
  return createHash('sha256').update(`${id}:${code}`).digest('hex');
}

/**
 * Codes anyone may have sent to a contact (registration, recovery), counted by OTP_DAILY_MAX; a
 * batch launch's code goes to a signed-in member of staff and is not counted.
 */
function isSelfService(purpose: CodePurpose): boolean {
  return purpose === 'register' || purpose === 'reset_password' || purpose.startsWith('register:');
}
const SELF_SERVICE_CODES = sql`(${oneTimeCodes.purpose} in ('register', 'reset_password') or ${oneTimeCodes.purpose} like 'register:%')`;

export interface SentCode {
  channel: Channel;
  resendIn: number;
  expiresIn: number;
}

/**
 * One-time codes (6 digits), shared by registration, password recovery and the generation launch.
 * Only a hash is stored; a code expires, allows a few attempts, and a new one waits for a cooldown.
 */
export class OtpService {
  constructor(
    private readonly db: Db,
    private readonly messenger: Messenger,
    private readonly settings: Config['otp'],
  ) {}

  /**
   * Issues a code and sends it. A code still waiting for this destination and purpose is replaced.
   * `deliver: false` records the code without sending it (used when the answer must not reveal
   * that no account exists: the same wait and the same daily count apply either way).
   *
   * The wait since the last code (per destination and purpose) and the daily cap (per destination,
   * self-service purposes) are checked and the code recorded under one advisory lock on the
   * destination, so that concurrent requests cannot all pass the checks.
   */
  async send(input: { destination: string; purpose: CodePurpose; userId: number | null; locale: Locale; template: string; deliver?: boolean }): Promise<SentCode> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const expiresAt = new Date(Date.now() + this.settings.ttlMinutes * 60_000);
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`otp:${input.destination}`}))`);
      const [last] = await tx
        .select({ createdAt: oneTimeCodes.createdAt })
        .from(oneTimeCodes)
        .where(and(eq(oneTimeCodes.destination, input.destination), eq(oneTimeCodes.purpose, input.purpose)))
        .orderBy(desc(oneTimeCodes.createdAt))
        .limit(1);
      const wait = last ? Math.ceil(this.settings.resendSeconds - (Date.now() - last.createdAt.getTime()) / 1000) : 0;
      if (wait > 0) throw new AppError('rate_limited', { params: { seconds: wait }, headers: { 'retry-after': String(wait) } });
      if (isSelfService(input.purpose)) {
        const [today] = await tx
          .select({ count: sql<number>`count(*)::int`, oldest: sql<Date | null>`min(${oneTimeCodes.createdAt})` })
          .from(oneTimeCodes)
          .where(and(eq(oneTimeCodes.destination, input.destination), SELF_SERVICE_CODES, sql`${oneTimeCodes.createdAt} > now() - interval '1 day'`));
        if (today!.count >= this.settings.dailyMax) {
          const oldest = today!.oldest ? new Date(today!.oldest).getTime() : Date.now();
          const seconds = Math.max(1, Math.ceil((oldest + 86_400_000 - Date.now()) / 1000));
          throw new AppError('too_many_codes', { headers: { 'retry-after': String(seconds) } });
        }
      }
      await tx
        .update(oneTimeCodes)
        .set({ consumedAt: new Date() })
        .where(and(eq(oneTimeCodes.destination, input.destination), eq(oneTimeCodes.purpose, input.purpose), isNull(oneTimeCodes.consumedAt)));
      const [row] = await tx
        .insert(oneTimeCodes)
        .values({ purpose: input.purpose, destination: input.destination, userId: input.userId, codeHash: 'pending', expiresAt })
        .returning({ id: oneTimeCodes.id });
      await tx
        .update(oneTimeCodes)
        .set({ codeHash: hashCode(row!.id, code) })
        .where(eq(oneTimeCodes.id, row!.id));
      // Sent inside the transaction: if delivery fails, no code is recorded and the person may retry at once.
      if (input.deliver !== false) {
        await this.messenger.send(input.destination, input.template, input.locale, { code, minutes: this.settings.ttlMinutes });
      }
    });
    return {
      channel: input.destination.includes('@') ? 'email' : 'sms',
      resendIn: this.settings.resendSeconds,
      expiresIn: this.settings.ttlMinutes * 60,
    };
  }

  /**
   * Checks a code against the latest one sent to the destination for the purpose. Each wrong try
   * counts; past the limit the code is dead even if right. Errors name the `otp` field.
   */
  /**
   * After a right code, a short-lived one-time grant (e.g. "may launch batch 12") for that user: the
   * action it allows consumes it. Kept in the same table: it is a one-time secretless code.
   */
  async grant(userId: number, purpose: string, minutes: number): Promise<void> {
    await this.db.insert(oneTimeCodes).values({ purpose, destination: `user:${userId}`, userId, codeHash: 'granted', expiresAt: new Date(Date.now() + minutes * 60_000) });
  }

  /** When the user's unused grant for `purpose` expires, or null when there is none. */
  async grantExpiry(userId: number, purpose: string): Promise<Date | null> {
    const [row] = await this.db
      .select({ expiresAt: oneTimeCodes.expiresAt })
      .from(oneTimeCodes)
      .where(
        and(
          eq(oneTimeCodes.destination, `user:${userId}`),
          eq(oneTimeCodes.purpose, purpose),
          eq(oneTimeCodes.codeHash, 'granted'),
          isNull(oneTimeCodes.consumedAt),
          sql`${oneTimeCodes.expiresAt} > now()`,
        ),
      )
      .orderBy(desc(oneTimeCodes.expiresAt))
      .limit(1);
    return row?.expiresAt ?? null;
  }

  /**
   * The code waiting for a destination and purpose (sent, not used, not expired): when it expires
   * and when another may be sent. Null when none waits.
   */
  async pending(destination: string, purpose: CodePurpose): Promise<{ expiresAt: Date; resendAt: Date } | null> {
    const [row] = await this.db
      .select({ createdAt: oneTimeCodes.createdAt, expiresAt: oneTimeCodes.expiresAt })
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.destination, destination), eq(oneTimeCodes.purpose, purpose), isNull(oneTimeCodes.consumedAt), sql`${oneTimeCodes.expiresAt} > now()`))
      .orderBy(desc(oneTimeCodes.createdAt))
      .limit(1);
    return row ? { expiresAt: row.expiresAt, resendAt: new Date(row.createdAt.getTime() + this.settings.resendSeconds * 1000) } : null;
  }

  /** Consumes a grant made by `grant`; false when there is none, or it expired. */
  async consumeGrant(userId: number, purpose: string): Promise<boolean> {
    const rows = await this.db
      .update(oneTimeCodes)
      .set({ consumedAt: new Date() })
      .where(
        and(
          eq(oneTimeCodes.destination, `user:${userId}`),
          eq(oneTimeCodes.purpose, purpose),
          eq(oneTimeCodes.codeHash, 'granted'),
          isNull(oneTimeCodes.consumedAt),
          sql`${oneTimeCodes.expiresAt} > now()`,
        ),
      )
      .returning({ id: oneTimeCodes.id });
    return rows.length > 0;
  }

  async verify(input: { destination: string; purpose: CodePurpose; code: string }): Promise<{ userId: number | null }> {
    // The outcome is decided in a transaction that always commits (a wrong try must be counted),
    // and turned into an error after it.
    const outcome = await this.db.transaction(async (tx): Promise<{ userId: number | null } | { error: FieldMessage }> => {
      const [current] = await tx
        .select()
        .from(oneTimeCodes)
        .where(and(eq(oneTimeCodes.destination, input.destination), eq(oneTimeCodes.purpose, input.purpose), isNull(oneTimeCodes.consumedAt)))
        .orderBy(desc(oneTimeCodes.createdAt))
        .limit(1)
        .for('update');
      if (!current) return { error: 'field.otp_none' };
      if (current.attempts >= this.settings.maxAttempts) return { error: 'field.otp_attempts_exhausted' };
      if (current.expiresAt.getTime() <= Date.now()) return { error: 'field.otp_expired' };
      const expected = Buffer.from(current.codeHash, 'hex');
      const given = Buffer.from(hashCode(current.id, input.code), 'hex');
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        const [updated] = await tx
          .update(oneTimeCodes)
          .set({ attempts: sql`${oneTimeCodes.attempts} + 1` })
          .where(eq(oneTimeCodes.id, current.id))
          .returning({ attempts: oneTimeCodes.attempts });
        const left = this.settings.maxAttempts - updated!.attempts;
        return { error: left > 0 ? { key: 'field.otp_wrong', params: { count: left } } : 'field.otp_attempts_exhausted' };
      }
      await tx.update(oneTimeCodes).set({ consumedAt: new Date() }).where(eq(oneTimeCodes.id, current.id));
      return { userId: current.userId };
    });
    if ('error' in outcome) throw fieldError('otp', outcome.error);
    return outcome;
  }
}
