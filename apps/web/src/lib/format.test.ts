import { describe, expect, it } from 'vitest';
import { formatBytes } from '@/lib/format-bytes';
import { formatInteger, formatLongDate, formatLongDateTime, formatPercent } from '@/lib/format';

const SAMPLES = [0, 7, 42, 999, 1000, 1023, 3165, 10_000, 99_999, 812_345, 1_000_000, 12_345_678, 2 ** 40, Number.MAX_SAFE_INTEGER];

describe('formatInteger', () => {
  it('writes a whole number as Intl.NumberFormat does, in French and English', () => {
    for (const locale of ['fr', 'en', 'fr-FR', 'en-GB']) {
      for (const value of SAMPLES) expect(formatInteger(value, locale), `${value} in ${locale}`).toBe(new Intl.NumberFormat(locale).format(value));
    }
  });

  it('leaves other numbers and languages to Intl', () => {
    expect(formatInteger(1234.5, 'fr')).toBe(new Intl.NumberFormat('fr').format(1234.5));
    expect(formatInteger(-1234, 'en')).toBe(new Intl.NumberFormat('en').format(-1234));
    expect(formatInteger(1234567, 'de')).toBe('1.234.567');
  });
});

describe('formatBytes', () => {
  it('states sizes in the reader’s language', () => {
    expect(formatBytes(20 * 1024 * 1024, 'fr')).toBe('20 Mo');
    expect(formatBytes(512 * 1024, 'en')).toBe('512 kB');
    expect(formatBytes(1000, 'fr')).toBe(`1\u202f000 o`);
    expect(formatBytes(1000, 'en')).toBe('1,000 B');
  });

  it('keeps one decimal under 10 of a unit, written as Intl writes it', () => {
    expect(formatBytes(1.5 * 1024 * 1024, 'fr')).toBe('1,5 Mo');
    expect(formatBytes(1.5 * 1024 * 1024, 'en')).toBe('1.5 MB');
    expect(formatBytes(15.6 * 1024, 'en')).toBe('16 kB');
  });
});

/** Every month, first and last days, around midnight and noon, a leap day, years far apart. */
function sampleDates(): Date[] {
  const dates: Date[] = [];
  for (let month = 0; month < 12; month++) {
    for (const [day, hour, minute] of [
      [1, 0, 0],
      [9, 0, 5],
      [10, 11, 59],
      [28, 12, 0],
      [28, 12, 30],
      [31, 23, 59],
    ] as const) {
      dates.push(new Date(2026, month, day, hour, minute), new Date(Date.UTC(1987, month, day, hour, minute)));
    }
  }
  dates.push(new Date(2024, 1, 29, 13, 5), new Date(Date.UTC(1900, 0, 1)), new Date(Date.UTC(2099, 11, 31, 23, 59)));
  return dates;
}

describe('formatLongDate and formatLongDateTime', () => {
  it('write a date as Intl.DateTimeFormat does (dateStyle long), in UTC or the local time zone', () => {
    for (const locale of ['fr', 'en']) {
      for (const date of sampleDates()) {
        expect(formatLongDate(date, locale, 'UTC'), `${date.toISOString()} in ${locale}`).toBe(
          new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date),
        );
        expect(formatLongDate(date, locale), `${date.toISOString()} in ${locale}`).toBe(new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(date));
      }
    }
  });

  it('write a moment with its time as Intl.DateTimeFormat does (dateStyle long, timeStyle short)', () => {
    for (const locale of ['fr', 'en']) {
      for (const date of sampleDates()) {
        expect(formatLongDateTime(date, locale), `${date.toISOString()} in ${locale}`).toBe(
          new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }).format(date),
        );
      }
    }
    expect(formatLongDateTime(new Date(2004, 4, 17, 13, 5), 'fr')).toBe('17 mai 2004 à 13:05');
    expect(formatLongDateTime(new Date(2004, 4, 17, 13, 5), 'en')).toBe('May 17, 2004 at 1:05 PM');
  });

  it('leave other languages and years to Intl', () => {
    const date = new Date(Date.UTC(2004, 4, 17));
    expect(formatLongDate(date, 'en-GB', 'UTC')).toBe('17 May 2004');
    expect(formatLongDate(date, 'de', 'UTC')).toBe(new Intl.DateTimeFormat('de', { dateStyle: 'long', timeZone: 'UTC' }).format(date));
    const far = new Date(Date.UTC(12_000, 0, 1));
    expect(formatLongDate(far, 'fr', 'UTC')).toBe(new Intl.DateTimeFormat('fr', { dateStyle: 'long', timeZone: 'UTC' }).format(far));
  });
});

describe('formatPercent', () => {
  const percent = (value: number, locale: string) => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(value / 100);

  it('writes a percentage as Intl.NumberFormat does, rounding included', () => {
    const values = [0, 1, 9.5, 10, 50, 65.5, 65.55, 65.555, 65.5549, 1.005, 2.675, 33.333333, 99.994, 99.995, 99.999, 100, 0.004, 0.005];
    for (let i = 0; i <= 2000; i++) values.push(i / 20, ((i * 7919) % 100_003) / 1000);
    for (const locale of ['fr', 'en']) {
      for (const value of values) expect(formatPercent(value, locale), `${value} in ${locale}`).toBe(percent(value, locale));
    }
    expect(formatPercent(65.5, 'fr')).toBe('65,5\u00a0%');
    expect(formatPercent(65.5, 'en')).toBe('65.5%');
  });

  it('leaves negative, very large or tiny values and other languages to Intl', () => {
    for (const value of [-12.5, 123_456.78, 1e-9, 5e21]) expect(formatPercent(value, 'fr')).toBe(percent(value, 'fr'));
    expect(formatPercent(65.5, 'de')).toBe(percent(65.5, 'de'));
  });
});
