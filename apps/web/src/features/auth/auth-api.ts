import type { OtpPurpose, Profile } from '@sceau/contracts';
import { pendingFromSent, savePendingOtp, type PendingOtp } from '@/features/auth/pending-otp';
import { http, isApiError } from '@/lib/http';
import type { SignedIn } from '@/lib/session';

/** The self-service account calls (spec section 7, auth). */

/** The API's default cooldown, when a refusal does not say how long to wait. */
export const DEFAULT_RESEND_SECONDS = 60;

export interface OtpSent {
  message: string;
  channel: 'sms' | 'email';
  resend_in: number;
  expires_in: number;
}

export interface SignedInAnswer extends SignedIn {
  token_type: 'Bearer';
  expires_in: number;
  data: Profile;
}

export async function registerAccount(body: {
  name: string;
  first_name?: string;
  mail_or_phone: string;
  password: string;
  password_confirmation: string;
}): Promise<{ message: string; mail_or_phone: string; registration: string }> {
  return (await http.post<{ data: { message: string; mail_or_phone: string; registration: string } }>('/register', body, { anonymous: true })).data;
}

/** `registration`: the attempt POST /register answered, which a registration code is bound to. */
export async function requestOtp(mailOrPhone: string, purpose: OtpPurpose, registration?: string): Promise<OtpSent> {
  const body = { mail_or_phone: mailOrPhone, purpose, ...(registration ? { registration } : {}) };
  return (await http.post<{ data: OtpSent }>('/register/getOtp', body, { anonymous: true })).data;
}

export function validateOtp(body: { otp: string; mail_or_phone: string; purpose: OtpPurpose; registration?: string }): Promise<SignedInAnswer> {
  return http.post<SignedInAnswer>('/register/validateOtp', body, { anonymous: true });
}

/** `current_password` is left out only in the session a recovery code opened. */
export function resetPassword(body: { mail_or_phone: string; current_password?: string; password: string; password_confirmation: string }): Promise<SignedInAnswer> {
  return http.post<SignedInAnswer>('/reset-password', body);
}

export function signInWithGoogle(idToken: string): Promise<SignedInAnswer> {
  return http.post<SignedInAnswer>('/auth/byGoogle', { id_token: idToken }, { anonymous: true });
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
