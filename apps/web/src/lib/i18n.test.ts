import { describe, expect, it } from 'vitest';
import { changeLocale, createI18n, i18n, readStoredLocale } from '@/lib/i18n';

describe('language', () => {
  it('is French by default', async () => {
    expect(readStoredLocale()).toBe('fr');
    expect((await createI18n()).language).toBe('fr');
  });

  it('is stored under "lang", sets the html lang attribute and survives a reload', async () => {
    await changeLocale('en');
    expect(localStorage.getItem('lang')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.t('guard.role')).toBe('Insufficient role');

    // A reload builds a new instance from storage.
    const reloaded = await createI18n();
    expect(reloaded.language).toBe('en');
    expect(reloaded.t('guard.permission')).toBe('Unauthorized access');
  });

  it('ignores an unsupported stored value', async () => {
    localStorage.setItem('lang', 'de');
    expect(readStoredLocale()).toBe('fr');
    expect((await createI18n()).t('guard.section')).toBe('Accès à cette section non autorisé');
  });

  it('refuses to switch to an unsupported language', async () => {
    await changeLocale('de');
    expect(i18n.language).toBe('fr');
    expect(localStorage.getItem('lang')).not.toBe('de');
  });

  it('loads only the namespaces of the web app, in the language it shows', async () => {
    const english = await createI18n('en');
    expect(english.t('guard.role')).toBe('Insufficient role');
    expect(english.t('errors:field.required')).not.toBe('field.required');
    expect(english.t('verification:verdict.authentic')).not.toBe('verdict.authentic');
    expect(english.hasResourceBundle('en', 'messages')).toBe(false);
    expect(english.hasResourceBundle('fr', 'web')).toBe(false);
  });
});
