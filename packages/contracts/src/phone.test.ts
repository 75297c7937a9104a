import { describe, expect, it } from 'vitest';
import { internationalPhone, mailOrPhone } from './accounts.ts';
import { checkInternationalPhone, checkPhone, DEFAULT_PHONE_COUNTRY, defaultPhoneCountry, detectPhoneCountry, normalizePhone, setDefaultPhoneCountry } from './phone.ts';

describe('checkPhone (what the person typed, for a country)', () => {
  it('gives the spec messages in their order', () => {
    expect(checkPhone('', 'CD').error).toBe('field.phone_required');
    expect(checkPhone('81234a678', 'CD').error).toBe('field.phone_digits_only');
    expect(checkPhone('8123456', 'CD')).toMatchObject({ error: 'field.phone_too_short', params: { count: 8 } });
    expect(checkPhone('1234567890123456', 'XX')).toMatchObject({ error: 'field.phone_too_long', params: { count: 15 } });
  });

  it('applies the per-country lengths', () => {
    expect(checkPhone('81234567', 'CD')).toMatchObject({ error: 'field.phone_length_exact', params: { count: 9 } });
    expect(checkPhone('812345678', 'CD')).toEqual({ value: '+243812345678', error: null, params: {} });
    expect(checkPhone('12345678901', 'FR')).toMatchObject({ error: 'field.phone_length_range', params: { min: 9, max: 10 } });
    expect(checkPhone('2025550123', 'US').value).toBe('+12025550123');
    expect(checkPhone('41234567', 'BE').value).toBe('+3241234567');
    expect(checkPhone('1234567890123', 'XX').error).toBe('field.phone_length_range');
  });

  it('drops the national 0 of a French number typed with it', () => {
    expect(checkPhone('0612345678', 'FR').value).toBe('+33612345678');
    expect(checkPhone('612345678', 'FR').value).toBe('+33612345678');
  });
});

describe('detectPhoneCountry', () => {
  it('selects the country of a pasted international number', () => {
    expect(detectPhoneCountry('+33 6 12 34 56 78')?.country.code).toBe('FR');
    expect(detectPhoneCountry('00243812345678')?.country.code).toBe('CD');
    expect(detectPhoneCountry('+32 471 23 45 67')?.national).toBe('471234567');
    expect(detectPhoneCountry('0812345678')).toBeNull();
  });
});

describe('checkInternationalPhone (the server side)', () => {
  it('accepts what the input outputs and refuses wrong national lengths', () => {
    expect(checkInternationalPhone('+243812345678')).toBeNull();
    expect(checkInternationalPhone('+33612345678')).toBeNull();
    expect(checkInternationalPhone('+24381234567')).toMatchObject({ error: 'field.phone_length_exact', params: { count: 9 } });
    expect(checkInternationalPhone('+3361234567')).toMatchObject({ error: 'field.phone_length_exact' });
    expect(checkInternationalPhone('+2250102030405')).toBeNull();
    expect(checkInternationalPhone('+243-812')).toMatchObject({ error: 'field.phone_digits_only' });
  });
});

describe('the national leading 0 (one rule for every form, the API and the import)', () => {
  it('accepts a Congolese number typed with its 0 in the phone input', () => {
    expect(checkPhone('0812345678', 'CD')).toEqual({ value: '+243812345678', error: null, params: {} });
    expect(checkPhone('081234567', 'CD')).toMatchObject({ error: 'field.phone_length_exact', params: { count: 9 } });
  });

  it('refuses in the input what the server would refuse', () => {
    expect(checkPhone('6123456789', 'FR')).toMatchObject({ value: null, error: 'field.phone_length_exact', params: { count: 9 } });
  });

  it('normalises what people write to E.164', () => {
    for (const written of ['0812345678', '812345678', '081 234 5678', '+243 81 234 5678', '00243812345678', '243812345678', '(081) 234-5678']) {
      expect(normalizePhone(written), written).toEqual({ value: '+243812345678', error: null, params: {} });
    }
    expect(normalizePhone('+33 6 12 34 56 78').value).toBe('+33612345678');
  });

  it('gives the spec messages for what it refuses', () => {
    expect(normalizePhone('').error).toBe('field.phone_required');
    expect(normalizePhone('08123abc').error).toBe('field.phone_digits_only');
    expect(normalizePhone('0812')).toMatchObject({ error: 'field.phone_too_short', params: { count: 8 } });
    expect(normalizePhone('08123456789')).toMatchObject({ error: 'field.phone_length_exact', params: { count: 9 } });
  });

  it('reads national numbers for the configured country', () => {
    try {
      setDefaultPhoneCountry('FR');
      expect(defaultPhoneCountry()).toBe('FR');
      expect(normalizePhone('0612345678').value).toBe('+33612345678');
    } finally {
      setDefaultPhoneCountry(DEFAULT_PHONE_COUNTRY);
    }
    expect(normalizePhone('0812345678').value).toBe('+243812345678');
    expect(() => setDefaultPhoneCountry('ZZ')).toThrow();
  });

  it('is what the API schemas apply', () => {
    expect(internationalPhone.parse('0812345678')).toBe('+243812345678');
    expect(mailOrPhone.parse('081 234 5678')).toBe('+243812345678');
    expect(mailOrPhone.parse('Agent@Example.org')).toBe('Agent@Example.org');
    expect(mailOrPhone.safeParse('abc').error?.issues[0]?.message).toBe('field.mail_or_phone');
    expect(internationalPhone.safeParse('0812').error?.issues[0]?.message).toBe('field.phone_too_short');
  });
});
