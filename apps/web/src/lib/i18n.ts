import { DEFAULT_LOCALE, isLocale, LOCALES, STORAGE_KEYS, type Locale } from '@sceau/contracts';
import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readLocalValue, writeLocalValue } from '@/lib/storage';

/**
 * The namespaces the web app reads: `web`, `errors` (the API's codes and field messages) and
 * `verification` (checks, reasons, verdicts). Not `messages`: e-mails and SMS are the server's.
 */
export const WEB_NAMESPACES = ['web', 'errors', 'verification'] as const;
type WebNamespace = (typeof WEB_NAMESPACES)[number];
type Catalogues = Record<WebNamespace, object>;

/**
 * One chunk per language, fetched the first time that language is needed: a visitor downloads
 * the texts of the language they read, not of both (`npm run size`; ADR 0097).
 */
const LANGUAGE_CATALOGUES: Record<Locale, () => Promise<{ default: Catalogues }>> = {
  fr: () => import('@/lib/i18n-fr'),
  en: () => import('@/lib/i18n-en'),
};

/** An i18next backend over those chunks. */
const catalogueBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    if (!isLocale(language)) return callback(new Error(`unsupported language ${language}`), false);
    LANGUAGE_CATALOGUES[language]().then(
      (module) => callback(null, module.default[namespace as WebNamespace] as never),
      // A failed download (offline, a deployment replaced the chunk) is retried by i18next.
      (error: unknown) => callback(error as Error, true),
    );
  },
};

/** The stored language if it is a supported one; anything else is ignored (spec section 1). */
export function readStoredLocale(): Locale {
  const stored = readLocalValue(STORAGE_KEYS.lang);
  return isLocale(stored) ? stored : DEFAULT_LOCALE;
}

function applyDocumentLanguage(lang: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}

/** An i18next instance whose language's catalogues are loaded when the promise resolves. */
export async function createI18n(lng: Locale = readStoredLocale()): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance
    .use(catalogueBackend)
    .use(initReactI18next)
    .init({
      lng,
      // No fallback language: it would download the other language's catalogues as well, and the
      // catalogue tests already require every key in both.
      fallbackLng: false,
      supportedLngs: LOCALES,
      load: 'currentOnly',
      ns: [...WEB_NAMESPACES],
      defaultNS: 'web',
      interpolation: { escapeValue: false },
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

/**
 * The app's instance. The module waits for the reader's catalogues (top-level await), so nothing
 * renders or translates before its texts are there; a change of language loads the other
 * language's chunk before switching (i18next's changeLanguage awaits the backend).
 */
export const i18n = await createI18n();

export function currentLocale(instance: I18n = i18n): Locale {
  const lang = instance.resolvedLanguage ?? instance.language;
  return isLocale(lang) ? lang : DEFAULT_LOCALE;
}

export async function changeLocale(next: string, instance: I18n = i18n): Promise<void> {
  if (!isLocale(next)) return;
  await instance.changeLanguage(next);
}
