import { describe, expect, it } from 'vitest';
import { formatBytes } from '@/lib/format-bytes';
import { formatInteger } from '@/lib/format';

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
