import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytesStrict, isLowerHex } from './bytes.ts';

describe('hexToBytesStrict', () => {
  it('decodes lowercase hex of every byte value', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(hexToBytesStrict(bytesToHex(all))).toEqual(all);
    expect(hexToBytesStrict('00ff7f80a5', 5)).toEqual(new Uint8Array([0, 255, 127, 128, 165]));
    expect(hexToBytesStrict('')).toEqual(new Uint8Array(0));
  });

  it.each([
    ['uppercase', 'AB'],
    ['mixed case', 'aB'],
    ['odd length', 'abc'],
    ['one character', 'a'],
    ['a letter past f', '0g'],
    ['characters next to the digits', '/:'],
    ['characters next to the letters', '`a'],
    ['a space', 'a '],
    ['a trailing newline', 'ab\n'],
    ['a leading newline', '\nab'],
    ['a 0x prefix', '0xab'],
    ['a non-ASCII digit', 'a\u0661'],
    ['a character whose low byte is a hex digit', '\u0161a'],
    ['a fullwidth digit', '\uff10\uff10'],
  ])('refuses %s', (_, text) => {
    expect(() => hexToBytesStrict(text)).toThrow('not lowercase hex');
  });

  it('refuses what is not a string', () => {
    for (const value of [undefined, null, 12, ['ab'], { length: 2 }]) {
      expect(() => hexToBytesStrict(value as unknown as string)).toThrow('not lowercase hex');
    }
  });

  it('checks the length after the spelling', () => {
    expect(() => hexToBytesStrict('abcd', 3)).toThrow('expected 3 bytes, got 2');
    expect(() => hexToBytesStrict('ABCD', 3)).toThrow('not lowercase hex');
    expect(hexToBytesStrict('abcd', 2)).toEqual(new Uint8Array([0xab, 0xcd]));
  });
});

describe('isLowerHex', () => {
  it('is lowercase hex of exactly the length', () => {
    expect(isLowerHex('ab01', 2)).toBe(true);
    expect(isLowerHex('ab01', 3)).toBe(false);
    expect(isLowerHex('AB01', 2)).toBe(false);
    expect(isLowerHex('ab0\u0161', 2)).toBe(false);
    expect(isLowerHex(12, 1)).toBe(false);
  });
});
