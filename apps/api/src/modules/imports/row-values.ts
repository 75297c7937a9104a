/**
 * The values of a list's cells, read the way people write them (pure functions, no database).
 * Each answers the clean value or the code of its problem (IMPORT_ERROR_CODES).
 */
import { normalizePhone } from '@sceau/contracts';
import { z } from 'zod';

type Result<T, E extends string> = { value: T } | { error: E };

/** Spaces collapsed, Unicode composed (an "é" typed two ways is one letter). */
export function cleanText(value: string | undefined): string {
  return (value ?? '')
    .normalize('NFC')
    .replace(/[\s\u00a0]+/g, ' ')
    .trim();
}

/** Letters of any alphabet, spaces, apostrophes, hyphens and dots: "N'Sele", "Marie-Élodie", "wa Kalombo". */
const NAME = /^[\p{L}\p{M}][\p{L}\p{M} '’.-]*$/u;
export const NAME_MAX_LENGTH = 80;

export function readName(value: string | undefined): Result<string | null, 'name_invalid'> {
  const text = cleanText(value).replace(/’/g, "'");
  if (!text) return { value: null };
  if (text.length > NAME_MAX_LENGTH || !NAME.test(text)) return { error: 'name_invalid' };
  return { value: text };
}

/**
 * A code a spreadsheet turned into a number shown in scientific notation (`2,02680E+13`,
 * `2.0268E+13`): its last digits are lost, only retyping it in a text column brings them back.
 */
const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d*)?\s*e\s*[+-]?\d+$/i;

export function readCandidateCode(value: string | undefined): Result<string, 'code_required' | 'code_format' | 'code_scientific'> {
  const typed = cleanText(value);
  if (SCIENTIFIC.test(typed)) return { error: 'code_scientific' };
  const text = typed.replace(/[\s.-]/g, '');
  if (!text) return { error: 'code_required' };
  if (!/^\d{14}$/.test(text)) return { error: 'code_format' };
  return { value: text };
}

const DMY = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})$/;
const YMD = /^(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
/** `14 mars 2007`, `14-Mar-07`, `14 march 2007`: the month's name (French or English, whole or cut to 3+ letters). */
const D_MONTH_Y = /^(\d{1,2})[\s./-]*([a-z]{3,9})\.?[\s./-]*(\d{4}|\d{2})$/;
const MONTHS: [number, string[]][] = [
  [1, ['janvier', 'january']],
  [2, ['fevrier', 'february']],
  [3, ['mars', 'march']],
  [4, ['avril', 'april']],
  [5, ['mai', 'may']],
  [6, ['juin', 'june']],
  [7, ['juillet', 'july']],
  [8, ['aout', 'august']],
  [9, ['septembre', 'september']],
  [10, ['octobre', 'october']],
  [11, ['novembre', 'november']],
  [12, ['decembre', 'december']],
];
function monthOf(name: string): number | null {
  // "juin" and "juillet" share "jui": 4 letters tell them apart, 3 letters must not be ambiguous.
  const found = MONTHS.filter(([, names]) => names.some((n) => n.startsWith(name)));
  return found.length === 1 ? found[0]![0] : null;
}
/** Excel's and LibreOffice's day numbers (1900 system: day 1 is 1900-01-01, day 0 1899-12-30 past the phantom 29 February 1900). */
const SERIAL = /^(\d{5})(?:[.,]0+)?$/;
const SERIAL_EPOCH = Date.UTC(1899, 11, 30);

/**
 * A two-digit year (`14/03/07`, as French LibreOffice writes a CSV) is the latest year ending in
 * those digits that makes the candidate at least BIRTH_AGE.min in the session's year: for the
 * 2026 session, 00–12 are 2000–2012 and 13–99 are 1913–1999 (a year that then gives more than
 * BIRTH_AGE.max is refused as implausible, never moved to another century).
 */
export function fullYear(twoDigits: number, sessionYear: number): number {
  const latest = sessionYear - BIRTH_AGE.min;
  return latest - ((((latest - twoDigits) % 100) + 100) % 100);
}

/**
 * Accepts DD/MM/YYYY and DD/MM/YY (also with `-` or `.`), YYYY-MM-DD (with a time or not), a
 * month's name (`14 mars 2007`) and a spreadsheet's day number (`39155`, a date cell whose format
 * was lost); answers YYYY-MM-DD.
 */
export function readBirthDate(
  value: string | undefined,
  sessionYear: number,
): Result<string, 'birth_date_required' | 'birth_date_format' | 'birth_date_invalid' | 'birth_date_implausible'> {
  const text = cleanText(value);
  if (!text) return { error: 'birth_date_required' };
  let y: number, m: number, d: number;
  const dmy = DMY.exec(text);
  const ymd = YMD.exec(text);
  const named = D_MONTH_Y.exec(comparable(text));
  const serial = SERIAL.exec(text);
  const year = (digits: string) => (digits.length === 2 ? fullYear(Number(digits), sessionYear) : Number(digits));
  if (dmy) [d, m, y] = [Number(dmy[1]), Number(dmy[2]), year(dmy[3]!)];
  else if (ymd) [y, m, d] = [Number(ymd[1]), Number(ymd[2]), Number(ymd[3])];
  else if (named && monthOf(named[2]!)) [d, m, y] = [Number(named[1]), monthOf(named[2]!)!, year(named[3]!)];
  else if (serial) {
    const date = new Date(SERIAL_EPOCH + Number(serial[1]) * 86_400_000);
    [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
  } else return { error: 'birth_date_format' };
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return { error: 'birth_date_invalid' };
  const age = sessionYear - y;
  if (age < BIRTH_AGE.min || age > BIRTH_AGE.max || date.getTime() > Date.now()) return { error: 'birth_date_implausible' };
  return { value: `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}` };
}

/** Age (in the session's year) of a candidate of the national exam: from 14 to 70. */
export const BIRTH_AGE = { min: 14, max: 70 } as const;

const GENDERS: Record<string, 'M' | 'F'> = {
  m: 'M',
  h: 'M',
  g: 'M',
  masculin: 'M',
  homme: 'M',
  male: 'M',
  garcon: 'M',
  masc: 'M',
  f: 'F',
  feminin: 'F',
  femme: 'F',
  female: 'F',
  fille: 'F',
  fem: 'F',
};

export function readGender(value: string | undefined): Result<'M' | 'F', 'gender_required' | 'gender_invalid'> {
  const text = comparable(value).replace(/\.$/, '');
  if (!text) return { error: 'gender_required' };
  const gender = GENDERS[text];
  return gender ? { value: gender } : { error: 'gender_invalid' };
}

/**
 * "72,5", "72.5", "72,5 %", "72,50": tenths of a percent (725). The diploma prints the percentage
 * as given, so a finer one ("68,25") is refused rather than rounded: the results are kept to the
 * tenth nationally (the results registry, the candidate check, the credential).
 */
export function readPercentage(value: string | undefined): Result<number, 'percentage_required' | 'percentage_invalid' | 'percentage_too_precise'> {
  const text = cleanText(value).replace(/\s/g, '').replace(/%$/, '').replace(',', '.');
  if (!text) return { error: 'percentage_required' };
  if (!/^\d{1,3}(?:\.\d+)?$/.test(text)) return { error: 'percentage_invalid' };
  const percent = Number(text);
  if (percent < 0 || percent > 100) return { error: 'percentage_invalid' };
  const decimals = text.split('.')[1]?.replace(/0+$/, '') ?? '';
  if (decimals.length > 1) return { error: 'percentage_too_precise' };
  return { value: Math.round(percent * 10) };
}

/** For matching codes and names: no case, no accents, single spaces. */
export function comparable(value: string | undefined): string {
  return cleanText(value).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

type PhoneProblem = 'phone_digits_only' | 'phone_too_short' | 'phone_too_long' | 'phone_length_exact' | 'phone_length_range';

/**
 * A candidate's phone, optional, as lists write it (`+243 81 234 5678`, `00243…`, `243812345678`
 * without its `+`, a national `0812345678`): the contracts' one rule (normalizePhone), the same as
 * the forms and the API. The problem's params fill its message.
 */
export function readPhone(value: string | undefined): Result<string | null, PhoneProblem> & { params?: Record<string, number> } {
  const text = cleanText(value);
  if (!text) return { value: null };
  const check = normalizePhone(text);
  // Only punctuation (`-`, `/`): no number given.
  if (check.error === 'field.phone_required') return { value: null };
  return check.error ? { error: check.error.replace('field.', '') as PhoneProblem, ...(Object.keys(check.params).length ? { params: check.params } : {}) } : { value: check.value };
}

const EMAIL = z.email();

/** A candidate's e-mail, optional; lower-cased. */
export function readEmail(value: string | undefined): Result<string | null, 'email_invalid'> {
  const text = cleanText(value).toLowerCase();
  if (!text) return { value: null };
  if (text.length > 254 || !EMAIL.safeParse(text).success) return { error: 'email_invalid' };
  return { value: text };
}
