import { describe, expect, it } from 'vitest';
import { maskContact } from './contact-mask.ts';

describe('maskContact', () => {
  it('keeps the start of an e-mail name and its domain', () => {
    expect(maskContact('admin@sceau.example')).toBe('ad•••@sceau.example');
    expect(maskContact('al@example.cd')).toBe('a•••@example.cd');
    expect(maskContact('a@example.cd')).toBe('•••@example.cd');
  });

  it("keeps a phone's prefix and last three digits only", () => {
    expect(maskContact('+243812345678')).toBe('+243••••••678');
    expect(maskContact('+2438123')).toBe('+243•123');
    expect(maskContact('1234567')).toBe('•••••••');
  });
});
