/**
 * Phone numbers (spec section 5): digits only, a country chosen from a short list, per-country
 * lengths, output `+<dial code><digits>` with a leading national 0 dropped. The same rules run in
 * the phone input and on the server.
 */

export interface PhoneCountry {
  /** ISO 3166 code. */
  code: string;
  dialCode: string;
  minLength: number;
  maxLength: number;
}

export const PHONE_COUNTRIES = [
  { code: 'CD', dialCode: '243', minLength: 9, maxLength: 9 },
  { code: 'FR', dialCode: '33', minLength: 9, maxLength: 10 },
  { code: 'US', dialCode: '1', minLength: 10, maxLength: 10 },
  { code: 'BE', dialCode: '32', minLength: 8, maxLength: 9 },
  { code: 'CA', dialCode: '1', minLength: 10, maxLength: 10 },
] as const satisfies readonly PhoneCountry[];

/** The country a number typed without a dial code belongs to, unless configured otherwise. */
export const DEFAULT_PHONE_COUNTRY = 'CD';

let defaultCountry: string = DEFAULT_PHONE_COUNTRY;

/**
 * The deployment's country for national numbers (`0812345678`): the API sets it from its
 * configuration at start, the web from its runtime configuration. One of PHONE_COUNTRIES.
 */
export function setDefaultPhoneCountry(code: string): void {
  if (!PHONE_COUNTRIES.some((c) => c.code === code)) throw new Error(`unknown phone country ${code}`);
  defaultCountry = code;
}

export function defaultPhoneCountry(): string {
  return defaultCountry;
}
/** Lengths for a country outside the list. */
export const OTHER_COUNTRY_LENGTH = { minLength: 8, maxLength: 12 } as const;
export const PHONE_MIN_DIGITS = 8;
export const PHONE_MAX_DIGITS = 15;

/** Keys of the `errors` namespace; the four spec messages plus the per-country length. */
export type PhoneError =
  | 'field.phone_required'
  | 'field.phone_digits_only'
  | 'field.phone_too_short'
  | 'field.phone_too_long'
  | 'field.phone_length_exact'
  | 'field.phone_length_range';

export interface PhoneCheck {
  /** `+<dial code><national digits>` when valid. */
  value: string | null;
  error: PhoneError | null;
  /** Interpolation values for the error (`count`, `min`, `max`). */
  params: Record<string, number>;
}

export function phoneCountry(code: string): PhoneCountry {
  const known = PHONE_COUNTRIES.find((c) => c.code === code);
  return known ?? { code, dialCode: '', ...OTHER_COUNTRY_LENGTH };
}

/** Checks what the person typed for a country, in the order of the spec's messages. */
export function checkPhone(typed: string, countryCode: string, dialCode?: string): PhoneCheck {
  const country = phoneCountry(countryCode);
  const dial = dialCode ?? country.dialCode;
  const raw = typed.trim();
  if (raw === '') return { value: null, error: 'field.phone_required', params: {} };
  if (!/^\d+$/.test(raw)) return { value: null, error: 'field.phone_digits_only', params: {} };
  if (raw.length < PHONE_MIN_DIGITS) return { value: null, error: 'field.phone_too_short', params: { count: PHONE_MIN_DIGITS } };
  if (raw.length > PHONE_MAX_DIGITS) return { value: null, error: 'field.phone_too_long', params: { count: PHONE_MAX_DIGITS } };
  // The trunk 0 people type before a national number (`0812345678`) is not part of it.
  const national = raw.replace(/^0(?=\d)/, '');
  if (national.length < country.minLength || national.length > country.maxLength) {
    return country.minLength === country.maxLength
      ? { value: null, error: 'field.phone_length_exact', params: { count: country.minLength } }
      : { value: null, error: 'field.phone_length_range', params: { min: country.minLength, max: country.maxLength } };
  }
  const value = `+${dial}${national}`;
  // What the server will check: the national part's exact length once the dial code is known.
  const failure = dial ? checkInternationalPhone(value) : null;
  return failure ? { value: null, ...failure } : { value, error: null, params: {} };
}

/**
 * The one rule for a phone number written anywhere (a form, an API call, a list's cell): spaces and
 * punctuation ignored; `+243…` or `00243…`; `243812345678` (a spreadsheet drops the `+`); or a
 * national number, its trunk 0 optional (`0812345678`, `812345678`), of the default country.
 * Answers the E.164 form (`+243812345678`), or the error key of the first failing spec rule.
 */
export function normalizePhone(written: string, countryCode: string = defaultCountry): PhoneCheck {
  const text = written.trim().replace(/[\s().\-/]/g, '');
  if (text === '') return { value: null, error: 'field.phone_required', params: {} };
  const international = text.startsWith('+') ? text : text.startsWith('00') ? `+${text.slice(2)}` : null;
  const asInternational = (number: string): PhoneCheck => {
    const failure = checkInternationalPhone(number);
    return failure ? { value: null, ...failure } : { value: number, error: null, params: {} };
  };
  if (international) return asInternational(international);
  if (!/^\d+$/.test(text)) return { value: null, error: 'field.phone_digits_only', params: {} };
  // Long enough to hold a dial code and a number: the `+` was lost.
  if (!text.startsWith('0') && text.length > 10 && detectPhoneCountry(`+${text}`)) return asInternational(`+${text}`);
  return checkPhone(text, countryCode);
}

/**
 * A pasted number that starts with a known dial code (`+33…`, `0033…`, `33…` when long enough)
 * selects its country. Longest dial code first; US before Canada for +1 (the default for +1).
 */
export function detectPhoneCountry(pasted: string): { country: PhoneCountry; national: string } | null {
  const compact = pasted.replace(/[\s().-]/g, '');
  let digits: string;
  if (compact.startsWith('+')) digits = compact.slice(1);
  else if (compact.startsWith('00')) digits = compact.slice(2);
  else return null;
  if (!/^\d+$/.test(digits)) return null;
  const byLength = [...PHONE_COUNTRIES].sort((a, b) => b.dialCode.length - a.dialCode.length);
  for (const country of byLength) {
    if (digits.startsWith(country.dialCode)) return { country, national: digits.slice(country.dialCode.length) };
  }
  return null;
}

/** An international number as stored (`+` and 8 to 15 digits). */
export const INTERNATIONAL_PHONE = /^\+\d{8,15}$/;

/** National significant number lengths once the trunk 0 is dropped (what follows the dial code). */
const NATIONAL_LENGTHS: Record<string, { min: number; max: number }> = {
  CD: { min: 9, max: 9 },
  FR: { min: 9, max: 9 },
  US: { min: 10, max: 10 },
  CA: { min: 10, max: 10 },
  BE: { min: 8, max: 9 },
};

/**
 * Server-side check of a number the phone input produced (`+<dial code><digits>`): the same
 * per-country lengths, applied to the national part. Null when valid, else the error key and params.
 */
export function checkInternationalPhone(value: string): { error: PhoneError; params: Record<string, number> } | null {
  if (value.trim() === '') return { error: 'field.phone_required', params: {} };
  if (!/^\+\d+$/.test(value)) return { error: 'field.phone_digits_only', params: {} };
  const digits = value.slice(1);
  if (digits.length < PHONE_MIN_DIGITS) return { error: 'field.phone_too_short', params: { count: PHONE_MIN_DIGITS } };
  if (digits.length > PHONE_MAX_DIGITS) return { error: 'field.phone_too_long', params: { count: PHONE_MAX_DIGITS } };
  const detected = detectPhoneCountry(value);
  if (!detected) return null;
  const lengths = NATIONAL_LENGTHS[detected.country.code]!;
  const n = detected.national.length;
  if (n >= lengths.min && n <= lengths.max) return null;
  return lengths.min === lengths.max
    ? { error: 'field.phone_length_exact', params: { count: lengths.min } }
    : { error: 'field.phone_length_range', params: { min: lengths.min, max: lengths.max } };
}
