import { checkPhone, defaultPhoneCountry, detectPhoneCountry, setDefaultPhoneCountry, PHONE_COUNTRIES, phoneCountry, type PhoneError } from '@sceau/contracts';
import { useRef, useState, type ClipboardEvent, type KeyboardEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { appConfig } from '@/lib/config';

// Numbers typed without a dial code belong to the deployment's country, as the API reads them (ADR 0129).
try {
  setDefaultPhoneCountry(appConfig.phoneCountry);
} catch {
  // A country outside the list leaves the default (CD).
}

/** The choice outside the list: the person types the dial code (lengths 8 to 12). */
export const OTHER_COUNTRY = 'OTHER';

/** What the input knows at any time (spec section 4: focused, valid, error). */
export interface PhoneInputState {
  focused: boolean;
  valid: boolean;
  /** Key of the `errors` namespace, or null. */
  error: PhoneError | null;
  errorParams: Record<string, number>;
  /** `+<dial code><digits>` when valid, else null. */
  value: string | null;
  country: string;
  dialCode: string;
  /** What is in the box. */
  typed: string;
}

export interface PhoneInputProps {
  id: string;
  label: string;
  hint?: string;
  /** An international number (`+243…`) to start from: its country is selected. */
  defaultValue?: string | null;
  /** An error from elsewhere (the server, the form), already translated; shown instead of the input's own. */
  error?: string | null;
  /** Show the input's own error now (a submitted form) rather than after the first blur. */
  showError?: boolean;
  onChange?: (value: string | null, state: PhoneInputState) => void;
  inputRef?: Ref<HTMLInputElement>;
  autoFocus?: boolean;
  disabled?: boolean;
  /** An empty box is then valid (and outputs null) instead of "required". */
  optional?: boolean;
}

/** Keys that edit or move without typing a character. */
const EDITING_KEYS = new Set(['Backspace', 'Delete', 'Tab', 'Escape', 'Enter', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'Unidentified', 'Process']);

export function isAllowedPhoneKey(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return true; // copy, paste, select all…
  if (EDITING_KEYS.has(event.key)) return true;
  if (event.key.length > 1) return true; // F5, Shift, CapsLock…: they type nothing
  return /^\d$/.test(event.key);
}

function initialOf(defaultValue: string | null | undefined): { country: string; otherDial: string; typed: string } {
  const detected = defaultValue ? detectPhoneCountry(defaultValue) : null;
  if (detected) return { country: detected.country.code, otherDial: '', typed: detected.national };
  if (defaultValue?.startsWith('+')) return { country: OTHER_COUNTRY, otherDial: '', typed: defaultValue.slice(1).replace(/\D/g, '') };
  return { country: defaultPhoneCountry(), otherDial: '', typed: (defaultValue ?? '').replace(/\D/g, '') };
}

/**
 * Phone number entry (spec section 5): a country, then the national number in digits only. Other
 * keys are refused, a paste keeps the digits, a pasted `+33…` selects France. The output is the
 * international number with the national leading 0 dropped.
 */
export function PhoneInput({ id, label, hint, defaultValue, error, showError = false, onChange, inputRef, autoFocus, disabled, optional = false }: PhoneInputProps) {
  const { t } = useTranslation();
  const start = useRef(initialOf(defaultValue)).current;
  const [country, setCountry] = useState(start.country);
  const [otherDial, setOtherDial] = useState(start.otherDial);
  const [typed, setTyped] = useState(start.typed);
  const [focused, setFocused] = useState(false);
  const [touched, setTouched] = useState(false);
  const [refusedKey, setRefusedKey] = useState(false);

  const isOther = country === OTHER_COUNTRY;

  function stateOf(next: { country?: string; otherDial?: string; typed?: string; focused?: boolean }): PhoneInputState {
    const c = next.country ?? country;
    const dial = c === OTHER_COUNTRY ? (next.otherDial ?? otherDial) : phoneCountry(c).dialCode;
    const text = next.typed ?? typed;
    let check = checkPhone(text, c, dial);
    if (optional && text.trim() === '') check = { value: null, error: null, params: {} };
    // Without a dial code there is no international number to give.
    else if (!check.error && dial === '') check = { value: null, error: 'field.phone_required', params: {} };
    return {
      focused: next.focused ?? focused,
      valid: check.error === null,
      error: check.error,
      errorParams: check.params,
      value: check.value,
      country: c,
      dialCode: dial,
      typed: text,
    };
  }

  function update(next: { country?: string; otherDial?: string; typed?: string }): void {
    if (next.country !== undefined) setCountry(next.country);
    if (next.otherDial !== undefined) setOtherDial(next.otherDial);
    if (next.typed !== undefined) setTyped(next.typed);
    setRefusedKey(false);
    const state = stateOf(next);
    onChange?.(state.value, state);
  }

  /** Text that carries a dial code selects its country; the rest keeps only digits. */
  function fromPastedText(text: string): { country?: string; typed: string } {
    const detected = detectPhoneCountry(text);
    if (detected) return { country: detected.country.code, typed: detected.national.replace(/\D/g, '') };
    return { typed: text.replace(/\D/g, '') };
  }

  function onPaste(event: ClipboardEvent<HTMLInputElement>): void {
    event.preventDefault();
    const input = event.currentTarget;
    const pasted = event.clipboardData.getData('text');
    const parsed = fromPastedText(pasted);
    if (parsed.country) {
      update(parsed);
      return;
    }
    const startAt = input.selectionStart ?? typed.length;
    const endAt = input.selectionEnd ?? typed.length;
    update({ typed: `${typed.slice(0, startAt)}${parsed.typed}${typed.slice(endAt)}` });
  }

  const current = stateOf({});
  const ownError = refusedKey ? 'field.phone_digits_only' : current.error;
  const ownErrorParams = refusedKey ? {} : current.errorParams;
  const showOwn = (touched || showError || refusedKey) && ownError !== null;
  const errorText = error ?? (showOwn && ownError ? t(`errors:${ownError}`, ownErrorParams) : null);
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : null, errorText ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    <div
      className={errorText ? 'field field--invalid phone-input' : 'field phone-input'}
      data-testid={`${id}-state`}
      data-focused={focused}
      data-valid={current.valid}
      data-error={errorText ? (error ? 'external' : ownError) : ''}
    >
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <div className="phone-input__row">
        <label htmlFor={`${id}-country`} className="visually-hidden">
          {t('phone.country')}
        </label>
        <select id={`${id}-country`} className="phone-input__country" value={country} disabled={disabled} onChange={(event) => update({ country: event.target.value })}>
          {PHONE_COUNTRIES.map((c) => (
            <option key={c.code} value={c.code}>
              {t(`phone.countries.${c.code}`)} (+{c.dialCode})
            </option>
          ))}
          <option value={OTHER_COUNTRY}>{t('phone.countries.OTHER')}</option>
        </select>
        {isOther ? (
          <>
            <label htmlFor={`${id}-dial`} className="visually-hidden">
              {t('phone.dialCode')}
            </label>
            <span className="phone-input__plus" aria-hidden="true">
              +
            </span>
            <input
              id={`${id}-dial`}
              className="phone-input__dial"
              type="text"
              inputMode="numeric"
              maxLength={3}
              value={otherDial}
              disabled={disabled}
              onKeyDown={(event) => {
                if (!isAllowedPhoneKey(event)) event.preventDefault();
              }}
              onChange={(event) => update({ otherDial: event.target.value.replace(/\D/g, '').slice(0, 3) })}
            />
          </>
        ) : null}
        <input
          id={id}
          ref={inputRef}
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          // biome-ignore lint/a11y/noAutofocus: only when the caller asks, for a form whose first task is this field.
          autoFocus={autoFocus}
          disabled={disabled}
          value={typed}
          aria-invalid={errorText ? true : undefined}
          aria-describedby={describedBy}
          onKeyDown={(event) => {
            if (isAllowedPhoneKey(event)) return;
            event.preventDefault();
            setRefusedKey(true);
          }}
          onPaste={onPaste}
          onChange={(event) => {
            const text = event.target.value;
            // Autofill or a keyboard that bypassed the key filter: an international number still selects its country.
            if (/^\s*(\+|00)/.test(text)) update(fromPastedText(text));
            else update({ typed: text });
          }}
          onFocus={() => {
            setFocused(true);
            onChange?.(current.value, { ...current, focused: true });
          }}
          onBlur={() => {
            setFocused(false);
            setTouched(true);
            setRefusedKey(false);
            onChange?.(current.value, { ...current, focused: false });
          }}
        />
      </div>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {errorText ? (
        <p id={errorId} className="field__error" aria-live="polite">
          {errorText}
        </p>
      ) : null}
    </div>
  );
}
