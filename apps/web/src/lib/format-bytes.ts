import { formatInteger } from '@/lib/format';

/** "20 Mo" / "20 MB", "512 Ko" / "512 kB": sizes people read, in the page's language. */
export function formatBytes(bytes: number, locale: string): string {
  const french = locale.startsWith('fr');
  const units = french ? ['o', 'Ko', 'Mo', 'Go'] : ['B', 'kB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  // A whole number (the limits the pages state: 20 Mo, 512 Ko) without Intl's ICU data (format.ts).
  const number = Number.isInteger(value) ? formatInteger(value, locale) : new Intl.NumberFormat(locale, { maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0 }).format(value);
  return `${number} ${units[unit]}`;
}
