import { describe, expect, it } from 'vitest';
import { resources } from '@sceau/i18n';
import { changeLocale, createI18n, i18n, loadRouteTexts, readStoredLocale } from '@/lib/i18n';

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

  it('loads the boot texts of the language it shows, then the parts its pages need, in every language loaded', async () => {
    const english = await createI18n('en');
    expect(english.t('guard.role')).toBe('Insufficient role');
    expect(english.hasResourceBundle('en', 'messages')).toBe(false);
    expect(english.hasResourceBundle('fr', 'web')).toBe(false);
    // The home page's texts and the forms' field messages come with their routes.
    expect(english.exists('home.title')).toBe(false);
    expect(english.exists('errors:field.required')).toBe(false);
    await loadRouteTexts({ path: '/' }, english);
    expect(english.exists('home.title')).toBe(true);
    expect(english.exists('errors:field.required')).toBe(false);
    await loadRouteTexts({ path: '/contact', access: 'public' }, english);
    expect(english.t('errors:field.required')).not.toBe('field.required');
    // A language loaded afterwards gets every part loaded so far.
    await english.changeLanguage('fr');
    expect(english.t('errors:field.required')).toBe(resources.fr.errors.field.required);
    expect(english.t('home.title')).toBe(resources.fr.web.home.title);
    // And a part loaded then is added to both languages.
    await loadRouteTexts({ path: '/verify/:id', access: 'public' }, english);
    for (const language of ['fr', 'en'] as const) {
      expect(english.getResource(language, 'verification', 'verdict.authentic')).toBe(resources[language].verification.verdict.authentic);
    }
    // A signed-in page gets the back office's texts.
    expect(english.exists('dashboard.title')).toBe(false);
    await loadRouteTexts({ path: '/dashboard', access: 'auth' }, english);
    expect(english.exists('dashboard.title')).toBe(true);
  });
});
