import { zodResolver } from '@hookform/resolvers/zod';
import { PASSWORD_MIN_LENGTH } from '@sceau/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AuthShell } from '@/components/auth-shell';
import { describedBy, FormField, SERVER_ERROR_TYPE, useFieldErrorText } from '@/components/form-field';
import { GoogleSignIn } from '@/features/auth/google-sign-in';
import { loginSchema, type LoginValues } from '@/features/auth/login-schema';
import { appConfig } from '@/lib/config';
import { isApiError } from '@/lib/http';
import { failureMessage, useMessageText, type Message } from '@/lib/message';
import { REDIRECT_PARAM, safeRedirectTarget } from '@/lib/redirect';
import { useSessionStore } from '@/lib/session-context';
import { useDocumentTitle } from '@/lib/use-document-title';

export function LoginPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('login.title'));
  const session = useSessionStore();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const errorText = useFieldErrorText();
  const [formError, setFormError] = useState<Message | null>(null);
  const messageText = useMessageText();
  const [showPassword, setShowPassword] = useState(false);

  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: '', password: '', remember: false },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await session.login(values);
    } catch (error) {
      setFormError(failureMessage(error));
      if (!isApiError(error)) return;
      for (const field of ['username', 'password'] as const) {
        const message = error.fieldErrors[field]?.[0];
        if (message) setError(field, { type: SERVER_ERROR_TYPE, message });
      }
      return;
    }
    await goOn();
  });

  async function goOn() {
    await navigate(safeRedirectTarget(params.get(REDIRECT_PARAM)) ?? '/dashboard', { replace: true });
  }

  const usernameError = errorText(errors.username);
  const passwordError = errorText(errors.password, { min: PASSWORD_MIN_LENGTH });

  return (
    <AuthShell title={t('login.title')} subtitle={t('login.subtitle')}>
      <form className="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        {formError ? (
          <div className="alert alert--error" role="alert">
            {messageText(formError)}
          </div>
        ) : null}
        <FormField id="login-username" label={t('login.username')} hint={t('login.usernameHint')} error={usernameError}>
          <input
            id="login-username"
            type="text"
            inputMode="email"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={usernameError ? true : undefined}
            aria-describedby={describedBy('login-username', { hint: true, error: !!usernameError })}
            {...register('username')}
          />
        </FormField>
        <FormField id="login-password" label={t('login.password')} error={passwordError}>
          <div className="password-input">
            <input
              id="login-password"
              type={showPassword ? 'text' : 'password'}
              autoComplete="current-password"
              aria-invalid={passwordError ? true : undefined}
              aria-describedby={describedBy('login-password', { error: !!passwordError })}
              {...register('password')}
            />
            <button type="button" className="password-input__toggle" aria-pressed={showPassword} aria-controls="login-password" onClick={() => setShowPassword((shown) => !shown)}>
              {showPassword ? t('login.hidePassword') : t('login.showPassword')}
            </button>
          </div>
        </FormField>
        <div className="form__row">
          <label className="checkbox" htmlFor="login-remember">
            <input id="login-remember" type="checkbox" {...register('remember')} />
            <span>{t('login.remember')}</span>
          </label>
          <Link to="/forgot-password">{t('login.forgot')}</Link>
        </div>
        <button type="submit" className="button button--block" disabled={isSubmitting} aria-busy={isSubmitting}>
          {isSubmitting ? t('login.submitting') : t('login.submit')}
        </button>
        <GoogleSignIn clientId={appConfig.googleClientId} onSignedIn={goOn} />
        <p className="form__footer">
          {t('login.noAccount')} <Link to="/register">{t('login.register')}</Link>
        </p>
      </form>
    </AuthShell>
  );
}
