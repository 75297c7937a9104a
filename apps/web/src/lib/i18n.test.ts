import { describe, expect, it } from 'vitest';
import { changeLocale, createI18n, i18n, readStoredLocale } from '@/lib/i18n';

describe('language', () => {
  it('is French by default', () => {
    expect(readStoredLocale()).toBe('fr');
    expect(createI18n().language).toBe('fr');
  });

  it('is stored under "lang", sets the html lang attribute and survives a reload', async () => {
    await changeLocale('en');
    expect(localStorage.getItem('lang')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.t('guard.role')).toBe('Insufficient role');

    // A reload builds a new instance from storage.
    const reloaded = createI18n();
    expect(reloaded.language).toBe('en');
    expect(reloaded.t('guard.permission')).toBe('Unauthorized access');
  });

  it('ignores an unsupported stored value', () => {
    localStorage.setItem('lang', 'de');
    expect(readStoredLocale()).toBe('fr');
    expect(createI18n().t('guard.section')).toBe('Accès à cette section non autorisé');
  });

  it('refuses to switch to an unsupported language', async () => {
    await changeLocale('de');
    expect(i18n.language).toBe('fr');
    expect(localStorage.getItem('lang')).not.toBe('de');
  });
});
