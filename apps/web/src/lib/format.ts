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
