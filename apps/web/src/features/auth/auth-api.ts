import type { OtpPurpose, ResponseOf } from '@sceau/contracts';
import { pendingFromSent, savePendingOtp, type PendingOtp } from '@/features/auth/pending-otp';
import { api } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import { isApiError } from '@/lib/http';

/** The self-service account calls (spec section 7, auth). */

/** The API's default cooldown, when a refusal does not say how long to wait. */
export const DEFAULT_RESEND_SECONDS = 60;

export type OtpSent = ResponseOf<typeof endpoints.accounts.sendCode>['data'];

/** A token and the profile: the person is signed in. */
export type SignedInAnswer = ResponseOf<typeof endpoints.accounts.validateCode>;

export async function registerAccount(body: {
  name: string;
  first_name?: string;
  mail_or_phone: string;
  password: string;
  password_confirmation: string;
}): Promise<{ message: string; mail_or_phone: string; registration: string }> {
  return (await api.call(endpoints.accounts.register, { body, anonymous: true })).data;
}

/** `registration`: the attempt POST /register answered, which a registration code is bound to. */
export async function requestOtp(mailOrPhone: string, purpose: OtpPurpose, registration?: string): Promise<OtpSent> {
  const body = { mail_or_phone: mailOrPhone, purpose, ...(registration ? { registration } : {}) };
  return (await api.call(endpoints.accounts.sendCode, { body, anonymous: true })).data;
}

export function validateOtp(body: { otp: string; mail_or_phone: string; purpose: OtpPurpose; registration?: string }): Promise<SignedInAnswer> {
  return api.call(endpoints.accounts.validateCode, { body, anonymous: true });
}

/** `current_password` is left out only in the session a recovery code opened. */
export function resetPassword(body: { mail_or_phone: string; current_password?: string; password: string; password_confirmation: string }): Promise<SignedInAnswer> {
  return api.call(endpoints.accounts.resetPassword, { body });
}

export function signInWithGoogle(idToken: string): Promise<SignedInAnswer> {
  return api.call(endpoints.accounts.signInWithGoogle, { body: { id_token: idToken }, anonymous: true });
}

/**
 * Asks for a code and keeps what /otp-validation needs. A code asked for too soon (429) is not a
 * failure here: the previous one is still on its way, and the page counts down to the next.
 */
export async function sendCodeFor(mailOrPhone: string, purpose: OtpPurpose, registration?: string): Promise<PendingOtp> {
  let pending: PendingOtp;
  try {
    pending = pendingFromSent(mailOrPhone, purpose, await requestOtp(mailOrPhone, purpose, registration), 0, Date.now(), registration);
  } catch (error) {
    if (!isApiError(error) || error.status !== 429) throw error;
    pending = pendingFromSent(mailOrPhone, purpose, null, error.retryAfter ?? DEFAULT_RESEND_SECONDS, Date.now(), registration);
  }
  savePendingOtp(pending);
  return pending;
}
