import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { AuthShell } from '@/components/auth-shell';
import { describedBy, FormField } from '@/components/form-field';
import { DEFAULT_RESEND_SECONDS, requestOtp, validateOtp } from '@/features/auth/auth-api';
import { clearPendingOtp, markRecoverySession, pendingFromSent, readPendingOtp, savePendingOtp, type PendingOtp } from '@/features/auth/pending-otp';
import { maskContact } from '@/lib/contact';
import { isApiError } from '@/lib/http';
import { failureMessage, keyMessage, textMessage, useMessageText, type Message } from '@/lib/message';
import { useSessionStore } from '@/lib/session-context';
import { useNow } from '@/lib/use-now';
import { useDocumentTitle } from '@/lib/use-document-title';

export const OTP_LENGTH = 6;

/** The current time, ticking every second while `active`; read afresh when `since` changes. */
function formatSeconds(total: number): string {
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}

/** Code entry after registration or a forgotten password (spec sections 3 and 4). */
export function OtpValidationPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('otp.title'));
  const navigate = useNavigate();
  const session = useSessionStore();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<PendingOtp | null>(readPendingOtp);
  const [code, setCode] = useState('');
  // Errors are written when shown, so a language chosen afterwards applies to them.
  const [codeError, setCodeError] = useState<Message | null>(null);
  const [formError, setFormError] = useState<Message | null>(null);
  const messageText = useMessageText();
  const [notice, setNotice] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [resending, setResending] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const now = useNow(!!pending, pending?.resendAt);
  const secondsToResend = pending ? Math.max(0, Math.ceil((pending.resendAt - now) / 1000)) : 0;
  const minutesLeft = pending?.expiresAt ? Math.max(0, Math.ceil((pending.expiresAt - now) / 60000)) : null;

  if (!pending) {
    return (
      <AuthShell title={t('otp.title')}>
        <p>{t('otp.nothingPending')}</p>
        <p className="actions">
          <Link className="button button--secondary" to="/register">
            {t('otp.toRegister')}
          </Link>
          <Link className="button button--secondary" to="/forgot-password">
            {t('otp.toForgot')}
          </Link>
        </p>
      </AuthShell>
    );
  }
  const current = pending;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    setNotice(null);
    if (code.length !== OTP_LENGTH) {
      setCodeError(keyMessage('otp.codeFormat', { count: OTP_LENGTH }));
      inputRef.current?.focus();
      return;
    }
    setCodeError(null);
    setSubmitting(true);
    try {
      const answer = await validateOtp({
        otp: code,
        mail_or_phone: current.mail_or_phone,
        purpose: current.purpose,
        ...(current.registration ? { registration: current.registration } : {}),
      });
      session.signIn(answer);
      queryClient.clear();
      clearPendingOtp();
      if (current.purpose === 'reset_password') markRecoverySession();
    } catch (error) {
      setSubmitting(false);
      const message = isApiError(error) ? error.fieldErrors.otp?.[0] : undefined;
      if (message) setCodeError(textMessage(message));
      // A registration replaced or expired: the server says to register again.
      else setFormError(failureMessage(error, 'registration'));
      inputRef.current?.focus();
      inputRef.current?.select();
      return;
    }
    await navigate(current.purpose === 'reset_password' ? '/reset-password' : '/dashboard', { replace: true });
  }

  async function onResend() {
    setFormError(null);
    setNotice(null);
    setResending(true);
    try {
      const sent = await requestOtp(current.mail_or_phone, current.purpose, current.registration);
      const next = pendingFromSent(current.mail_or_phone, current.purpose, sent, 0, Date.now(), current.registration);
      savePendingOtp(next);
      setPending(next);
      setCode('');
      setCodeError(null);
      setNotice(sent.message);
    } catch (error) {
      if (isApiError(error) && error.status === 429) {
        const next = { ...current, resendAt: Date.now() + (error.retryAfter ?? DEFAULT_RESEND_SECONDS) * 1000 };
        savePendingOtp(next);
        setPending(next);
      }
      setFormError(failureMessage(error, 'registration'));
    } finally {
      setResending(false);
    }
  }

  const channel = current.channel === 'email' ? t('otp.channelEmail') : t('otp.channelSms');

  return (
    <AuthShell title={t('otp.title')} subtitle={current.purpose === 'reset_password' ? t('otp.subtitleReset') : t('otp.subtitleRegister')}>
      <p className="otp__sent" data-testid="otp-destination">
        {t('otp.sentTo', { channel, contact: maskContact(current.mail_or_phone) })}
      </p>
      {minutesLeft !== null ? <p className="muted">{minutesLeft > 0 ? t('otp.expiresIn', { count: minutesLeft }) : t('otp.expired')}</p> : null}
      <form className="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        {formError ? (
          <div className="alert alert--error" role="alert">
            {messageText(formError)}
          </div>
        ) : null}
        {notice ? (
          <div className="alert alert--success" role="status">
            {notice}
          </div>
        ) : null}
        <FormField id="otp-code" label={t('otp.code')} hint={t('otp.codeHint', { count: OTP_LENGTH })} error={messageText(codeError)}>
          <input
            id="otp-code"
            ref={inputRef}
            className="otp__input"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={OTP_LENGTH}
            // biome-ignore lint/a11y/noAutofocus: typing the code just received is the page's one task.
            autoFocus
            value={code}
            aria-invalid={codeError ? true : undefined}
            aria-describedby={describedBy('otp-code', { hint: true, error: !!codeError })}
            onChange={(event) => {
              setCode(event.target.value.replace(/\D/g, '').slice(0, OTP_LENGTH));
              if (codeError) setCodeError(null);
            }}
          />
        </FormField>
        <button type="submit" className="button button--block" disabled={submitting} aria-busy={submitting}>
          {submitting ? t('otp.submitting') : t('otp.submit')}
        </button>
        <div className="otp__resend">
          <button
            type="button"
            className="button button--secondary button--block"
            disabled={secondsToResend > 0 || resending}
            aria-busy={resending}
            onClick={() => void onResend()}
          >
            {secondsToResend > 0 ? t('otp.resendIn', { time: formatSeconds(secondsToResend) }) : t('otp.resend')}
          </button>
        </div>
        <p className="form__footer">
          <Link to={current.purpose === 'reset_password' ? '/forgot-password' : '/register'}>{t('otp.changeContact')}</Link>
        </p>
      </form>
    </AuthShell>
  );
}
