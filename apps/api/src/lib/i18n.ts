import { DEFAULT_LOCALE, LOCALES, type Locale, isLocale } from '@sceau/contracts';
import { resources } from '@sceau/i18n';
import i18next, { type TFunction } from 'i18next';

const instance = i18next.createInstance();
await instance.init({
  resources,
  supportedLngs: [...LOCALES],
  fallbackLng: DEFAULT_LOCALE,
  ns: ['errors', 'web', 'messages', 'verification'],
  defaultNS: 'errors',
  interpolation: { escapeValue: false },
  initAsync: false,
});

export function translator(locale: Locale): TFunction {
  return instance.getFixedT(locale);
}

/**
 * The request's language: the locale header first (what the web client sends), then the first
 * supported language of Accept-Language, else French.
 */
export function negotiateLocale(localeHeader: unknown, acceptLanguage: unknown): Locale {
  if (isLocale(localeHeader)) return localeHeader;
  if (typeof acceptLanguage === 'string') {
    const ranked = acceptLanguage
      .split(',')
      .map((part) => {
        const [tag = '', ...params] = part.trim().split(';');
        const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
        return { lang: tag.toLowerCase().split('-')[0] ?? '', q: q ? Number(q.slice(2)) || 0 : 1 };
      })
      .filter((r) => r.q > 0)
      .sort((a, b) => b.q - a.q);
    for (const { lang } of ranked) if (isLocale(lang)) return lang;
  }
  return DEFAULT_LOCALE;
}
