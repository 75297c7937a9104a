import type { ReactNode } from 'react';
import type { FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { dynamicKey, translate } from '@/lib/text-keys';

/** Client-side messages are translation keys (the forms' rules); messages the server sent are already translated. */
export const SERVER_ERROR_TYPE = 'server';

export function useFieldErrorText() {
  const { t } = useTranslation();
  return (error: FieldError | undefined, values: Record<string, unknown> = {}): string | null => {
    if (!error?.message) return null;
    return error.type === SERVER_ERROR_TYPE ? error.message : translate(t, dynamicKey(error.message), values);
  };
}

export interface FormFieldProps {
  id: string;
  label: string;
  error: string | null;
  hint?: string;
  children: ReactNode;
}

/** A label, the control, an optional hint and the field's error, wired for screen readers. */
export function FormField({ id, label, error, hint, children }: FormFieldProps) {
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function describedBy(id: string, { hint, error }: { hint?: boolean; error?: boolean }): string | undefined {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}
