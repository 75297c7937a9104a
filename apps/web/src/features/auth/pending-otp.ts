import type { OtpPurpose } from '@sceau/contracts';
import { z } from 'zod';
import { readSessionValue, writeSessionValue } from '@/lib/storage';

/**
 * The code being waited for, between the page that asked for it and /otp-validation. Kept in
 * session storage so that a reload of /otp-validation keeps it, and a closed tab forgets it.
 */
export const PENDING_OTP_KEY = 'pending_otp';

const pendingOtp = z.object({
  mail_or_phone: z.string().min(1),
  purpose: z.enum(['register', 'reset_password']),
  channel: z.enum(['sms', 'email']).nullable(),
  /** The registration attempt the code confirms (POST /register answers it): registration only. */
  registration: z.string().optional(),
  /** Epoch milliseconds. */
  resendAt: z.number(),
  expiresAt: z.number().nullable(),
});
export type PendingOtp = z.infer<typeof pendingOtp>;

export function readPendingOtp(): PendingOtp | null {
  const raw = readSessionValue(PENDING_OTP_KEY);
  if (!raw) return null;
  try {
    const parsed = pendingOtp.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function savePendingOtp(value: PendingOtp): void {
  writeSessionValue(PENDING_OTP_KEY, JSON.stringify(value));
}

export function clearPendingOtp(): void {
  try {
    sessionStorage.removeItem(PENDING_OTP_KEY);
  } catch {
    // Storage unavailable: nothing was kept either.
  }
}

/**
 * Set when a recovery code signed the person in: that session may choose a new password without
 * the current one (the server checks it too). Cleared once the password is changed.
 */
export const RECOVERY_SESSION_KEY = 'password_recovery';

export function markRecoverySession(): void {
  writeSessionValue(RECOVERY_SESSION_KEY, '1');
}

export function isRecoverySession(): boolean {
  return readSessionValue(RECOVERY_SESSION_KEY) === '1';
}

export function clearRecoverySession(): void {
  try {
    sessionStorage.removeItem(RECOVERY_SESSION_KEY);
  } catch {
    // Storage unavailable: nothing was kept either.
  }
}

/** After a code was sent (or refused for its cooldown): what the code page needs. */
export function pendingFromSent(
  mailOrPhone: string,
  purpose: OtpPurpose,
  sent: { channel: 'sms' | 'email'; resend_in: number; expires_in: number } | null,
  retryAfterSeconds = 0,
  now = Date.now(),
  registration?: string,
): PendingOtp {
  return {
    mail_or_phone: mailOrPhone,
    purpose,
    ...(registration ? { registration } : {}),
    channel: sent?.channel ?? (mailOrPhone.includes('@') ? 'email' : 'sms'),
    resendAt: now + (sent ? sent.resend_in : retryAfterSeconds) * 1000,
    expiresAt: sent ? now + sent.expires_in * 1000 : null,
  };
}
