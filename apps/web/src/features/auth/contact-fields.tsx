import type { Ref } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { describedBy, FormField } from '@/components/form-field';
import { PhoneInput } from '@/components/phone-input';
import type { ContactMethod, PhoneFieldValue } from '@/lib/contact';

export interface ContactFieldsProps {
  idPrefix: string;
  method: ContactMethod;
  onMethodChange: (method: ContactMethod) => void;
  email: UseFormRegisterReturn;
  emailError: string | null;
  onPhoneChange: (value: PhoneFieldValue) => void;
  phoneRef?: Ref<HTMLInputElement>;
  /** An error for the phone from the server, already translated. */
  phoneError: string | null;
  /** The form was submitted: the phone input shows its own error without waiting for a blur. */
  showPhoneError: boolean;
}

/** "By phone or by e-mail": a choice, then the one field it needs (spec: phone or e-mail required). */
export function ContactFields(props: ContactFieldsProps) {
  const { t } = useTranslation();
  const { idPrefix, method } = props;
  return (
    <>
      <fieldset className="segmented">
        <legend className="field__label">{t('contact.method')}</legend>
        <div className="segmented__options">
          {(['phone', 'email'] as const).map((option) => (
            <label key={option} className="segmented__option" htmlFor={`${idPrefix}-method-${option}`}>
              <input
                id={`${idPrefix}-method-${option}`}
                type="radio"
                name={`${idPrefix}-method`}
                value={option}
                checked={method === option}
                onChange={() => props.onMethodChange(option)}
              />
              <span>{t(`contact.${option}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {method === 'phone' ? (
        <PhoneInput
          id={`${idPrefix}-phone`}
          label={t('phone.label')}
          hint={t('contact.phoneHint')}
          inputRef={props.phoneRef}
          error={props.phoneError}
          showError={props.showPhoneError}
          onChange={(value, state) => props.onPhoneChange({ value, valid: state.valid })}
        />
      ) : (
        <FormField id={`${idPrefix}-email`} label={t('contact.emailLabel')} hint={t('contact.emailHint')} error={props.emailError}>
          <input
            id={`${idPrefix}-email`}
            type="email"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={props.emailError ? true : undefined}
            aria-describedby={describedBy(`${idPrefix}-email`, { hint: true, error: !!props.emailError })}
            {...props.email}
          />
        </FormField>
      )}
    </>
  );
}
