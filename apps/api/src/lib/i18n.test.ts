import { describe, expect, it } from 'vitest';
import { negotiateLocale } from './i18n.ts';

describe('negotiateLocale', () => {
  it('prefers the locale header, then Accept-Language by quality, then French', () => {
    expect(negotiateLocale('en', 'fr')).toBe('en');
    expect(negotiateLocale(undefined, 'de-DE,en;q=0.8,fr;q=0.5')).toBe('en');
    expect(negotiateLocale(undefined, 'fr;q=0.2, en;q=0.9')).toBe('en');
    expect(negotiateLocale('de', 'de')).toBe('fr');
    expect(negotiateLocale(undefined, undefined)).toBe('fr');
  });
});
