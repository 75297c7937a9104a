import { describe, expect, it } from 'vitest';
import { fullYear, readBirthDate, readCandidateCode, readEmail, readPercentage, readPhone } from './row-values.ts';

describe('a candidate phone in a list', () => {
  it('is optional', () => {
    expect(readPhone('')).toEqual({ value: null });
    expect(readPhone('   ')).toEqual({ value: null });
  });

  it('is read the ways lists write it, and answered in the international form', () => {
    expect(readPhone('+243 81 234 5678')).toEqual({ value: '+243812345678' });
    expect(readPhone('00243-81-234-5678')).toEqual({ value: '+243812345678' });
    // A spreadsheet number cell loses the +.
    expect(readPhone('243812345678')).toEqual({ value: '+243812345678' });
    // National DR Congo numbers, with or without the trunk 0.
    expect(readPhone('0812345678')).toEqual({ value: '+243812345678' });
    expect(readPhone('812 345 678')).toEqual({ value: '+243812345678' });
    expect(readPhone('+33 6 12 34 56 78')).toEqual({ value: '+33612345678' });
  });

  it("is checked with the phone input's rules, with the values its message needs", () => {
    expect(readPhone('81234abc')).toEqual({ error: 'phone_digits_only' });
    expect(readPhone('+243 812')).toMatchObject({ error: 'phone_too_short', params: { count: 8 } });
    expect(readPhone('+243 81 234')).toMatchObject({ error: 'phone_length_exact', params: { count: 9 } });
    expect(readPhone('+2438123456789012')).toMatchObject({ error: 'phone_too_long', params: { count: 15 } });
    expect(readPhone('+243 81 234 56789')).toMatchObject({ error: 'phone_length_exact', params: { count: 9 } });
    expect(readPhone('81234567')).toMatchObject({ error: 'phone_length_exact', params: { count: 9 } });
    expect(readPhone('+32 4 12')).toMatchObject({ error: 'phone_too_short' });
  });
});

describe('a candidate e-mail in a list', () => {
  it('is optional, trimmed and lower-cased', () => {
    expect(readEmail('')).toEqual({ value: null });
    expect(readEmail('  Marie.Kabongo@Example.CD ')).toEqual({ value: 'marie.kabongo@example.cd' });
  });

  it('must be an address', () => {
    expect(readEmail('marie.kabongo')).toEqual({ error: 'email_invalid' });
    expect(readEmail('marie@')).toEqual({ error: 'email_invalid' });
    expect(readEmail('a b@example.cd')).toEqual({ error: 'email_invalid' });
  });
});

describe('a percentage in a list', () => {
  it('is read as given, in tenths, with a comma or a dot, with or without the sign', () => {
    expect(readPercentage('72,5')).toEqual({ value: 725 });
    expect(readPercentage('72.5 %')).toEqual({ value: 725 });
    expect(readPercentage('72,50')).toEqual({ value: 725 });
    expect(readPercentage('100')).toEqual({ value: 1000 });
    expect(readPercentage('0')).toEqual({ value: 0 });
  });

  it('is refused, not rounded, when finer than the tenth the diploma and the results keep', () => {
    expect(readPercentage('68,25')).toEqual({ error: 'percentage_too_precise' });
    expect(readPercentage('68.2666667')).toEqual({ error: 'percentage_too_precise' });
  });

  it('is required and must be a number from 0 to 100', () => {
    expect(readPercentage('')).toEqual({ error: 'percentage_required' });
    expect(readPercentage('101')).toEqual({ error: 'percentage_invalid' });
    expect(readPercentage('soixante')).toEqual({ error: 'percentage_invalid' });
    expect(readPercentage('-5')).toEqual({ error: 'percentage_invalid' });
  });
});

describe('a birth date in a list', () => {
  it('is read the ways spreadsheets write it', () => {
    for (const typed of [
      '14/03/2007',
      '14.03.2007',
      '14-03-2007',
      '2007-03-14',
      '2007-03-14T00:00:00',
      '2007-03-14 00:00:00',
      '14 mars 2007',
      '14-Mar-07',
      '14 march 2007',
      '14 MARS 07',
      '39155',
    ])
      expect(readBirthDate(typed, 2026), typed).toEqual({ value: '2007-03-14' });
    expect(readBirthDate('1 févr. 2008', 2026)).toEqual({ value: '2008-02-01' });
  });

  it('reads a two-digit year as the latest that makes the candidate at least 14 in the session’s year', () => {
    expect(readBirthDate('14/03/07', 2026)).toEqual({ value: '2007-03-14' });
    expect(readBirthDate('31/12/12', 2026)).toEqual({ value: '2012-12-31' });
    expect(readBirthDate('01/01/13', 2026)).toEqual({ error: 'birth_date_implausible' });
    expect(readBirthDate('02/11/95', 2026)).toEqual({ value: '1995-11-02' });
    expect(readBirthDate('02.11.60', 2026)).toEqual({ value: '1960-11-02' });
    // The pivot moves with the session, not with today's date.
    expect(readBirthDate('01/01/13', 2027)).toEqual({ value: '2013-01-01' });
    expect([0, 12, 13, 99].map((y) => fullYear(y, 2026))).toEqual([2000, 2012, 1913, 1999]);
  });

  it('refuses what it cannot read, a date that does not exist and an implausible age', () => {
    expect(readBirthDate('', 2026)).toEqual({ error: 'birth_date_required' });
    expect(readBirthDate('mars 2007', 2026)).toEqual({ error: 'birth_date_format' });
    // "jui" is juin or juillet.
    expect(readBirthDate('14 jui 2007', 2026)).toEqual({ error: 'birth_date_format' });
    expect(readBirthDate('2007', 2026)).toEqual({ error: 'birth_date_format' });
    expect(readBirthDate('30/02/2007', 2026)).toEqual({ error: 'birth_date_invalid' });
    expect(readBirthDate('03/14/2007', 2026)).toEqual({ error: 'birth_date_invalid' });
    expect(readBirthDate('14/03/1950', 2026)).toEqual({ error: 'birth_date_implausible' });
    // A day number before 1956 is no candidate's.
    expect(readBirthDate('10000', 2026)).toEqual({ error: 'birth_date_implausible' });
  });
});

describe('a candidate code in a list', () => {
  it('is 14 digits, spaces, dots and dashes dropped', () => {
    expect(readCandidateCode(' 2026 0000 1000 01 ')).toEqual({ value: '20260000100001' });
    expect(readCandidateCode('2026-0000-1000-01')).toEqual({ value: '20260000100001' });
    expect(readCandidateCode('2026000010000')).toEqual({ error: 'code_format' });
    expect(readCandidateCode('')).toEqual({ error: 'code_required' });
  });

  it('turned into scientific notation by a spreadsheet is told apart, so that its message names the cause', () => {
    for (const typed of ['2,02680E+13', '2.0268E+13', '2,0268E13', '2.02680e+13', '2E+13']) expect(readCandidateCode(typed), typed).toEqual({ error: 'code_scientific' });
  });
});
