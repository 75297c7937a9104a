import { zodResolver } from '@hookform/resolvers/zod';
import { NAME_MIN_LENGTH, PASSWORD_MIN_LENGTH } from '@sceau/contracts';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { AuthShell } from '@/components/auth-shell';
import { describedBy, FormField, useFieldErrorText } from '@/components/form-field';
import { PasswordField } from '@/components/password-field';
import { applyServerErrors } from '@/components/server-errors';
import { useMessageText, type Message } from '@/lib/message';
import { registerAccount, sendCodeFor } from '@/features/auth/auth-api';
import { ContactFields } from '@/features/auth/contact-fields';
import { registerSchema, type RegisterValues } from '@/features/auth/register-schema';
import { contactOf, EMPTY_PHONE } from '@/lib/contact';
import { useDocumentTitle } from '@/lib/use-document-title';

/** Registration (spec sections 3 and 5): the account is confirmed by a code sent to the contact. */
export function RegisterPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('register.title'));
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
  } = useForm<RegisterValues>({
    resolver: zodResolver(registerSchema),
    defaultValues: { name: '', first_name: '', method: 'phone', email: '', phone: EMPTY_PHONE, password: '', password_confirmation: '' },
  });
  const method = watch('method');

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const registered = await registerAccount({
        name: values.name.trim(),
        first_name: values.first_name.trim() || undefined,
        mail_or_phone: contactOf(values),
        password: values.password,
        password_confirmation: values.password_confirmation,
      });
      await sendCodeFor(registered.mail_or_phone, 'register', registered.registration);
    } catch (error) {
      const contactField = values.method === 'phone' ? 'phone' : 'email';
      const { message, unplaced } = applyServerErrors(error, setError, {
        name: 'name',
        first_name: 'first_name',
        mail_or_phone: contactField,
        password: 'password',
        password_confirmation: 'password_confirmation',
      });
      setFormError([message, ...unplaced]);
      return;
    }
    await navigate('/otp-validation');
  });

  const nameError = errorText(errors.name, { min: NAME_MIN_LENGTH });
  const firstNameError = errorText(errors.first_name);
  const emailError = errorText(errors.email);
  const phoneServerError = errors.phone?.type === 'server' ? (errors.phone.message ?? null) : null;
  const passwordError = errorText(errors.password, { min: PASSWORD_MIN_LENGTH });
  const confirmationError = errorText(errors.password_confirmation);

  return (
    <AuthShell title={t('register.title')} subtitle={t('register.subtitle')}>
      <form className="form" noValidate onSubmit={(event) => void onSubmit(event)} aria-describedby={formError ? 'register-form-error' : undefined}>
        {formError ? (
          <div id="register-form-error" className="alert alert--error" role="alert">
            {messageText(formError)}
          </div>
        ) : null}
        <FormField id="register-name" label={t('register.name')} error={nameError}>
          <input
            id="register-name"
            type="text"
            autoComplete="family-name"
            aria-invalid={nameError ? true : undefined}
            aria-describedby={describedBy('register-name', { error: !!nameError })}
            {...register('name')}
          />
        </FormField>
        <FormField id="register-first-name" label={t('register.firstName')} hint={t('common.optional')} error={firstNameError}>
          <input
            id="register-first-name"
            type="text"
            autoComplete="given-name"
            aria-invalid={firstNameError ? true : undefined}
            aria-describedby={describedBy('register-first-name', { hint: true, error: !!firstNameError })}
            {...register('first_name')}
          />
        </FormField>
        <Controller
          control={control}
          name="phone"
          render={({ field }) => (
            <ContactFields
              idPrefix="register"
              method={method}
              onMethodChange={(next) => setValue('method', next, { shouldValidate: isSubmitted })}
              email={register('email')}
              emailError={emailError}
              phoneRef={field.ref}
              onPhoneChange={(value) => field.onChange(value)}
              phoneError={phoneServerError}
              showPhoneError={isSubmitted}
            />
          )}
        />
        <PasswordField
          id="register-password"
          label={t('register.password')}
          hint={t('register.passwordHint', { min: PASSWORD_MIN_LENGTH })}
          error={passwordError}
          autoComplete="new-password"
          input={register('password')}
        />
        <PasswordField
          id="register-password-confirmation"
          label={t('register.passwordConfirmation')}
          error={confirmationError}
          autoComplete="new-password"
          input={register('password_confirmation')}
        />
        <button type="submit" className="button button--block" disabled={isSubmitting} aria-busy={isSubmitting}>
          {isSubmitting ? t('register.submitting') : t('register.submit')}
        </button>
        <p className="form__footer">
          {t('register.haveAccount')} <Link to="/login">{t('register.login')}</Link>
        </p>
      </form>
    </AuthShell>
  );
}
