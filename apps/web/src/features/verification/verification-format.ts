import { formatLongDate, formatLongDateTime, formatPercent } from '@/lib/format';

// No `Intl` formatter for French and English (lib/format.ts): the verdict's page would make its first
// one, and load the language's ICU data, during the SPA's first render (ADR 0151, amended).

/** A calendar date (`2004-05-17`, or the date part of an ISO time) in the reader's language: "17 mai 2004". */
export function formatCalendarDate(value: string, locale: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return formatLongDate(date, locale, 'UTC');
}

/** A block's time (seconds since the epoch, or an ISO text) with its hour, in the reader's time zone. */
export function formatChainTime(value: unknown, locale: string): string | null {
  const date = typeof value === 'number' ? new Date(value * 1000) : typeof value === 'string' ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) return null;
  return formatLongDateTime(date, locale);
}

/** 65.5 → "65,5 %" in French, "65.5%" in English. */
export function formatPercentage(value: number, locale: string): string {
  return formatPercent(value, locale);
}

/** `0x1234ab…9f3c`: enough to recognise a hash or an address, short enough for a phone. */
export function shorten(value: string, head = 8, tail = 6): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}

/** "Mukendi Kabongo Aline": last, middle and first names, as the diploma prints them. */
export function fullName(parts: { last_name?: string; middle_name?: string; first_name?: string }): string {
  return [parts.last_name, parts.middle_name, parts.first_name].filter((part) => part && part.trim()).join(' ');
}
