import { useState } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { describedBy, FormField } from '@/components/form-field';

/** A password with a show/hide button, wired like every other field. */
export function PasswordField({
  id,
  label,
  hint,
  error,
  autoComplete,
  input,
}: {
  id: string;
  label: string;
  hint?: string;
  error: string | null;
  autoComplete: 'new-password' | 'current-password';
  input: UseFormRegisterReturn;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <FormField id={id} label={label} hint={hint} error={error}>
      <div className="password-input">
        <input
          id={id}
          type={shown ? 'text' : 'password'}
          autoComplete={autoComplete}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, { hint: !!hint, error: !!error })}
          {...input}
        />
        <button type="button" className="password-input__toggle" aria-pressed={shown} aria-controls={id} onClick={() => setShown((s) => !s)}>
          {shown ? t('login.hidePassword') : t('login.showPassword')}
        </button>
      </div>
    </FormField>
  );
}
