import { zodResolver } from '@hookform/resolvers/zod';
import { PASSWORD_MIN_LENGTH } from '@sceau/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AuthShell } from '@/components/auth-shell';
import { describedBy, FormField, useFieldErrorText } from '@/components/form-field';
import { PasswordField } from '@/components/password-field';
import { applyServerErrors } from '@/components/server-errors';
import { useMessageText, type Message } from '@/lib/message';
import { resetPassword } from '@/features/auth/auth-api';
import { clearRecoverySession, isRecoverySession } from '@/features/auth/pending-otp';
import { changeSchema, resetSchema, type ResetValues } from '@/features/auth/register-schema';
import { useFlashStore } from '@/lib/flash-context';
import { isApiError } from '@/lib/http';
import { useSession, useSessionStore } from '@/lib/session-context';
import { useDocumentTitle } from '@/lib/use-document-title';

/**
 * Password recovery, step 2 (signed in by the code), the change an administrator's reset requires,
 * and any signed-in change. The current password is asked for (a temporary one counts), except in
 * the session a recovery code opened; if the server asks for it anyway (that session's grace
 * ended), the field appears.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('resetPassword.title'));
  const navigate = useNavigate();
  const session = useSessionStore();
  const queryClient = useQueryClient();
  const flash = useFlashStore();
  const { profile } = useSession();
  const errorText = useFieldErrorText();
  const [formError, setFormError] = useState<readonly Message[] | null>(null);
  const messageText = useMessageText();
  const contacts = [profile?.email, profile?.phone].filter((value): value is string => !!value);
  const [askCurrent, setAskCurrent] = useState(() => !isRecoverySession());

  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ResetValues>({
    resolver: zodResolver(askCurrent ? changeSchema : resetSchema),
    defaultValues: { mail_or_phone: contacts[0] ?? '', current_password: '', password: '', password_confirmation: '' },
  });

  async function logout() {
    await session.logout();
    queryClient.clear();
    await navigate('/', { replace: true });
  }

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    const { current_password, ...rest } = values;
    try {
      session.signIn(await resetPassword(askCurrent ? { ...rest, current_password } : rest));
    } catch (error) {
      if (!askCurrent && isApiError(error) && error.fieldErrors.current_password) {
        setAskCurrent(true);
        clearRecoverySession();
      }
      const { message, unplaced } = applyServerErrors(error, setError, {
        mail_or_phone: 'mail_or_phone',
        current_password: 'current_password',
        password: 'password',
        password_confirmation: 'password_confirmation',
      });
      setFormError([message, ...unplaced]);
      return;
    }
    clearRecoverySession();
    flash.push('resetPassword.done', 'success');
    await navigate('/dashboard', { replace: true });
  });

  const contactError = errorText(errors.mail_or_phone);

  return (
    <AuthShell title={t('resetPassword.title')} subtitle={t('resetPassword.subtitle')}>
      <form className="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        {profile?.password_reset_required ? (
          <div className="alert alert--info" role="status">
            {t('resetPassword.required')}
          </div>
        ) : null}
        {formError ? (
          <div className="alert alert--error" role="alert">
            {messageText(formError)}
          </div>
        ) : null}
        <FormField id="reset-contact" label={t('resetPassword.contact')} error={contactError}>
          {contacts.length > 1 ? (
            <select
              id="reset-contact"
              aria-invalid={contactError ? true : undefined}
              aria-describedby={describedBy('reset-contact', { error: !!contactError })}
              {...register('mail_or_phone')}
            >
              {contacts.map((contact) => (
                <option key={contact} value={contact}>
                  {contact}
                </option>
              ))}
            </select>
          ) : (
            <input
              id="reset-contact"
              type="text"
              readOnly
              aria-invalid={contactError ? true : undefined}
              aria-describedby={describedBy('reset-contact', { error: !!contactError })}
              {...register('mail_or_phone')}
            />
          )}
        </FormField>
        {askCurrent ? (
          <PasswordField
            id="reset-current-password"
            label={profile?.password_reset_required ? t('resetPassword.temporaryPassword') : t('resetPassword.currentPassword')}
            error={errorText(errors.current_password)}
            autoComplete="current-password"
            input={register('current_password')}
          />
        ) : null}
        <PasswordField
          id="reset-password"
          label={t('resetPassword.password')}
          hint={t('register.passwordHint', { min: PASSWORD_MIN_LENGTH })}
          error={errorText(errors.password, { min: PASSWORD_MIN_LENGTH })}
          autoComplete="new-password"
          input={register('password')}
        />
        <PasswordField
          id="reset-password-confirmation"
          label={t('register.passwordConfirmation')}
          error={errorText(errors.password_confirmation)}
          autoComplete="new-password"
          input={register('password_confirmation')}
        />
        <button type="submit" className="button button--block" disabled={isSubmitting} aria-busy={isSubmitting}>
          {isSubmitting ? t('resetPassword.submitting') : t('resetPassword.submit')}
        </button>
        <p className="form__footer">
          <button type="button" className="button button--ghost button--small" onClick={() => void logout()}>
            {t('header.logout')}
          </button>
        </p>
      </form>
    </AuthShell>
  );
}
