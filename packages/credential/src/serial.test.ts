import { describe, expect, it } from 'vitest';
import { formatSerial, isSerial, normaliseSerial } from './serial.ts';

describe('diploma serial', () => {
  it('prints the prefix, the year, seven digits and a Damm check digit', () => {
    const serial = formatSerial('DE', 2026, 428715);
    expect(serial).toMatch(/^DE-2026-0428715-\d$/);
    expect(isSerial(serial)).toBe(true);
    expect(formatSerial('DE', 2026, 1)).toMatch(/^DE-2026-0000001-\d$/);
  });

  it('catches every single wrong digit and every swap of two different neighbours', () => {
    const serial = formatSerial('AR', 2025, 1234567);
    const digits = serial.replace(/\D/g, '');
    for (let i = 0; i < digits.length; i++) {
      for (let d = 0; d <= 9; d++) {
        if (String(d) === digits[i]) continue;
        const typo = digits.slice(0, i) + d + digits.slice(i + 1);
        expect(normaliseSerial(`AR${typo}`)).toBeNull();
      }
      if (i + 1 < digits.length && digits[i] !== digits[i + 1]) {
        const swapped = digits.slice(0, i) + digits[i + 1] + digits[i] + digits.slice(i + 2);
        expect(normaliseSerial(`AR${swapped}`)).toBeNull();
      }
    }
  });

  it('reads a serial however it is typed', () => {
    const serial = formatSerial('DE', 2026, 428715);
    const compact = serial.replace(/-/g, '');
    expect(normaliseSerial(compact.toLowerCase())).toBe(serial);
    expect(normaliseSerial(` ${serial.replace(/-/g, ' ')} `)).toBe(serial);
    expect(normaliseSerial(serial.replace(/-/g, '–'))).toBe(serial);
    expect(normaliseSerial('DE-2026-428715-1')).toBeNull();
    expect(normaliseSerial('x'.repeat(100))).toBeNull();
  });

  it('refuses what it cannot number', () => {
    expect(() => formatSerial('de', 2026, 1)).toThrow(/prefix/);
    expect(() => formatSerial('DE', 26, 1)).toThrow(/year/);
    expect(() => formatSerial('DE', 2026, 0)).toThrow(/number/);
    expect(() => formatSerial('DE', 2026, 10_000_000)).toThrow(/number/);
    expect(isSerial('DE-2026-0428715')).toBe(false);
    expect(isSerial(42)).toBe(false);
  });
});
