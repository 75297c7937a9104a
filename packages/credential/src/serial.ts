/**
 * A diploma's serial number: what a person reads off the paper, types into a search box or says on
 * the phone. `DE-2026-0428715-8` is the kind's prefix, the session year, a number given in issuing
 * order within that kind and year, and a Damm check digit over the year and the number (it catches
 * every single wrong digit and every swap of two neighbours). Digits only after the prefix: no
 * I/l/1 or O/0 to confuse, no case. The serial is one-to-one with the diploma id (the platform
 * gives each number once) and is a signed field of the record from credential version 2.
 */
import { damm } from 'cdigit';

/** `DE-2026-0428715-8`: prefix, year, number, check digit. */
export const SERIAL_PATTERN = /^([A-Z]{2,4})-(\d{4})-(\d{7})-(\d)$/;

/** The largest number of a kind and year: 7 digits. */
export const MAX_SERIAL_NUMBER = 9_999_999;

export function isSerial(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = SERIAL_PATTERN.exec(value);
  return m !== null && damm.validate(`${m[2]}${m[3]}${m[4]}`);
}

/** The serial of the `number`th diploma of a kind (`prefix`) and session year. */
export function formatSerial(prefix: string, year: number, number: number): string {
  if (!/^[A-Z]{2,4}$/.test(prefix)) throw new Error(`serial prefix: 2 to 4 capital letters, not ${prefix}`);
  if (!Number.isInteger(year) || year < 1000 || year > 9999) throw new Error(`serial year: 4 digits, not ${year}`);
  if (!Number.isInteger(number) || number < 1 || number > MAX_SERIAL_NUMBER) throw new Error(`serial number: 1 to ${MAX_SERIAL_NUMBER}, not ${number}`);
  const digits = `${year}${String(number).padStart(7, '0')}`;
  return `${prefix}-${year}-${digits.slice(4)}-${damm.compute(digits)}`;
}

/**
 * A serial as someone typed it (any case, spaces or dashes anywhere, or none: "de 2026 0428715 8",
 * "DE202604287158") in its printed form, or null when it is not one (wrong length, or a check digit
 * that does not match: a mistyped digit).
 */
export function normaliseSerial(input: string): string | null {
  if (input.length > 64) return null;
  const compact = input.toUpperCase().replace(/[\s\-‐‑–—_.]/g, '');
  const m = /^([A-Z]{2,4})(\d{4})(\d{7})(\d)$/.exec(compact);
  if (!m) return null;
  const serial = `${m[1]}-${m[2]}-${m[3]}-${m[4]}`;
  return isSerial(serial) ? serial : null;
}
