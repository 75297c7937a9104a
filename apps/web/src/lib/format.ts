/** Dates in the reader's language (fr: "3 févr. 2026, 14:05"). */
export function formatDateTime(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** Thousands separators of the app's languages, as `Intl.NumberFormat` writes them (CLDR). */
const GROUP_SEPARATORS: Record<string, string> = { fr: '\u202f', en: ',' };

/**
 * A whole number in the reader's language ("812 345" / "812,345"), the text `Intl.NumberFormat`
 * gives. For the app's languages it is written here: the first `Intl` number or date formatter a page
 * makes loads the language's ICU data, 15–20 ms of a phone's main thread (ADR 0151, amended), which
 * the public pages' first render does not need to pay for a count or a size. Other numbers and
 * languages go to `Intl`.
 */
export function formatInteger(value: number, locale: string): string {
  const separator = GROUP_SEPARATORS[locale.slice(0, 2)];
  if (separator === undefined || !Number.isSafeInteger(value) || value < 0) return new Intl.NumberFormat(locale).format(value);
  return String(value).replace(/\B(?=(\d{3})+$)/g, separator);
}

const MONTHS: Record<string, readonly string[]> = {
  fr: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
};

interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

function partsOf(date: Date, utc: boolean): DateParts {
  return utc
    ? { year: date.getUTCFullYear(), month: date.getUTCMonth(), day: date.getUTCDate(), hour: date.getUTCHours(), minute: date.getUTCMinutes() }
    : { year: date.getFullYear(), month: date.getMonth(), day: date.getDate(), hour: date.getHours(), minute: date.getMinutes() };
}

/** "17 mai 2004" / "May 17, 2004": `dateStyle: 'long'` in the app's languages. */
function longDate({ year, month, day }: DateParts, language: 'fr' | 'en'): string {
  const name = MONTHS[language]![month]!;
  return language === 'fr' ? `${day} ${name} ${year}` : `${name} ${day}, ${year}`;
}

/** The app's two languages exactly as written (a region, "fr-CA", has its own forms: Intl). */
function ownLanguage(locale: string): 'fr' | 'en' | null {
  return locale === 'fr' || locale === 'en' ? locale : null;
}

/**
 * A date as `Intl.DateTimeFormat(locale, { dateStyle: 'long' })` writes it ("17 mai 2004" / "May 17,
 * 2004"), in UTC (a calendar date) or the reader's time zone. Written here for French and English,
 * as `formatInteger`: the verdict's page would otherwise make its first `Intl` formatter, and load
 * the language's ICU data, in the middle of the SPA's first render (ADR 0151, amended).
 */
export function formatLongDate(date: Date, locale: string, timeZone: 'UTC' | 'local' = 'local'): string {
  const language = ownLanguage(locale);
  const year = timeZone === 'UTC' ? date.getUTCFullYear() : date.getFullYear();
  if (!language || !(year >= 1 && year <= 9999)) {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'long', ...(timeZone === 'UTC' ? { timeZone: 'UTC' } : {}) }).format(date);
  }
  return longDate(partsOf(date, timeZone === 'UTC'), language);
}

/**
 * A moment as `Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' })` writes it in
 * the reader's time zone: "17 mai 2004 à 13:05" / "May 17, 2004 at 1:05 PM".
 */
export function formatLongDateTime(date: Date, locale: string): string {
  const language = ownLanguage(locale);
  const parts = partsOf(date, false);
  if (!language || !(parts.year >= 1 && parts.year <= 9999)) {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }).format(date);
  }
  const minute = String(parts.minute).padStart(2, '0');
  if (language === 'fr') return `${longDate(parts, language)} à ${String(parts.hour).padStart(2, '0')}:${minute}`;
  return `${longDate(parts, language)} at ${parts.hour % 12 || 12}:${minute} ${parts.hour < 12 ? 'AM' : 'PM'}`;
}

/**
 * A percentage (65.5 for 65.5 %) as `Intl.NumberFormat(locale, { style: 'percent',
 * maximumFractionDigits: 2 })` writes `value / 100`: "65,5 %" / "65.5%". The same rounding (half
 * away from zero, on the shortest decimal of `value / 100`); other numbers and languages go to Intl.
 */
export function formatPercent(value: number, locale: string): string {
  const language = ownLanguage(locale);
  const decimal = String(value / 100);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!language || !match) return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(value / 100);
  // ×100 then two fraction digits: the digits of value/100 with the point moved four places.
  const digits = `${match[1]}${(match[2] ?? '').slice(0, 4).padEnd(4, '0')}`;
  const rest = (match[2] ?? '').slice(4);
  let hundredths = BigInt(digits);
  if (rest !== '' && rest[0]! >= '5') hundredths += 1n;
  const text = hundredths.toString().padStart(3, '0');
  const whole = text.slice(0, -2);
  if (whole.length > 3) return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(value / 100);
  const fraction = text.slice(-2).replace(/0+$/, '');
  return language === 'fr' ? `${whole}${fraction ? `,${fraction}` : ''}\u00a0%` : `${whole}${fraction ? `.${fraction}` : ''}%`;
}
