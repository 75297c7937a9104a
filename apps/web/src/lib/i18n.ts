import { DEFAULT_LOCALE, isLocale, LOCALES, STORAGE_KEYS, type Locale } from '@sceau/contracts';
import { resources } from '@sceau/i18n';
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readLocalValue, writeLocalValue } from '@/lib/storage';

/** The stored language if it is a supported one; anything else is ignored (spec section 1). */
export function readStoredLocale(): Locale {
  const stored = readLocalValue(STORAGE_KEYS.lang);
  return isLocale(stored) ? stored : DEFAULT_LOCALE;
}

function applyDocumentLanguage(lang: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}

export function createI18n(lng: Locale = readStoredLocale()): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources,
    lng,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: LOCALES,
    ns: ['web', 'errors'],
    defaultNS: 'web',
    interpolation: { escapeValue: false },
    initAsync: false,
    react: { useSuspense: false },
  });
  applyDocumentLanguage(lng);
  instance.on('languageChanged', (next) => {
    if (!isLocale(next)) return;
    writeLocalValue(STORAGE_KEYS.lang, next);
    applyDocumentLanguage(next);
  });
  return instance;
}

export const i18n = createI18n();

export function currentLocale(instance: I18n = i18n): Locale {
  const lang = instance.resolvedLanguage ?? instance.language;
  return isLocale(lang) ? lang : DEFAULT_LOCALE;
}

export async function changeLocale(next: string, instance: I18n = i18n): Promise<void> {
  if (!isLocale(next)) return;
  await instance.changeLanguage(next);
}
