import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { AuthShell } from '@/components/auth-shell';
import { useFieldErrorText } from '@/components/form-field';
import { applyServerErrors } from '@/components/server-errors';
import { useMessageText, type Message } from '@/lib/message';
import { sendCodeFor } from '@/features/auth/auth-api';
import { ContactFields } from '@/features/auth/contact-fields';
import { forgotSchema, type ForgotValues } from '@/features/auth/register-schema';
import { contactOf, EMPTY_PHONE } from '@/lib/contact';
import { useDocumentTitle } from '@/lib/use-document-title';

/** Password recovery, step 1: a code to the account's e-mail or phone. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('forgot.title'));
  const navigate = useNavigate();
  const errorText = useFieldErrorText();
  const [formError, setFormError] = useState<readonly Message[] | null>(null);
  const messageText = useMessageText();
  const {
    register,
    control,
    handleSubmit,
    setError,
    watch,
    setValue,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<ForgotValues>({
    resolver: zodResolver(forgotSchema),
    defaultValues: { method: 'email', email: '', phone: EMPTY_PHONE },
  });
  const method = watch('method');

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await sendCodeFor(contactOf(values), 'reset_password');
    } catch (error) {
      const { message, unplaced } = applyServerErrors(error, setError, { mail_or_phone: values.method === 'phone' ? 'phone' : 'email' });
      setFormError([message, ...unplaced]);
      return;
    }
    await navigate('/otp-validation');
  });

  return (
    <AuthShell title={t('forgot.title')} subtitle={t('forgot.subtitle')}>
      <form className="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        {formError ? (
          <div className="alert alert--error" role="alert">
            {messageText(formError)}
          </div>
        ) : null}
        <Controller
          control={control}
          name="phone"
          render={({ field }) => (
            <ContactFields
              idPrefix="forgot"
              method={method}
              onMethodChange={(next) => setValue('method', next, { shouldValidate: isSubmitted })}
              email={register('email')}
              emailError={errorText(errors.email)}
              phoneRef={field.ref}
              onPhoneChange={(value) => field.onChange(value)}
              phoneError={errors.phone?.type === 'server' ? (errors.phone.message ?? null) : null}
              showPhoneError={isSubmitted}
            />
          )}
        />
        <button type="submit" className="button button--block" disabled={isSubmitting} aria-busy={isSubmitting}>
          {isSubmitting ? t('forgot.submitting') : t('forgot.submit')}
        </button>
        <p className="form__footer">
          <Link to="/login">{t('forgot.backToLogin')}</Link>
        </p>
      </form>
    </AuthShell>
  );
}
