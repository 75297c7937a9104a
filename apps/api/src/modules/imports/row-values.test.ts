import { describe, expect, it } from 'vitest';
import { readEmail, readPercentage, readPhone } from './row-values.ts';

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
