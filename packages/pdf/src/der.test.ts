// DER integers built from unsigned numbers: the shortest form, always positive.
import { describe, expect, it } from 'vitest';
import { unsignedInteger, unsignedIntegerContent } from './der.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('unsignedInteger', () => {
  it.each([
    ['01', '01'],
    ['7f', '7f'],
    ['80', '0080'],
    ['ff01', '00ff01'],
    // Leading zeros are padding DER forbids ("illegal padding" to OpenSSL)...
    ['0001', '01'],
    ['00007f10', '7f10'],
    // ...but one stays when the next byte has its top bit set.
    ['0080', '0080'],
    ['000000ff', '00ff'],
    // Zero is one zero byte.
    ['0000', '00'],
    ['', '00'],
  ])('writes %s as the content %s', (input, content) => {
    expect(hex(unsignedIntegerContent(Buffer.from(input, 'hex')))).toBe(content);
    expect(hex(unsignedInteger(Buffer.from(input, 'hex')))).toBe(`02${(content.length / 2).toString(16).padStart(2, '0')}${content}`);
  });
});
