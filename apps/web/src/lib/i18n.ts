import { DEFAULT_LOCALE, isLocale, LOCALES, STORAGE_KEYS, type Locale } from '@sceau/contracts';
import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { routeTextParts, type TextPart } from '@/lib/i18n-parts';
import { nextTask } from '@/lib/next-task';
import { readLocalValue, writeLocalValue } from '@/lib/storage';

/**
 * The namespaces the web app reads: `web`, `errors` (the API's codes and field messages) and
 * `verification` (checks, reasons, verdicts). Not `messages`: e-mails and SMS are the server's.
 */
export const WEB_NAMESPACES = ['web', 'errors', 'verification'] as const;
type Catalogue = Record<string, Record<string, unknown>>;
type Chunk = () => Promise<{ default: Catalogue }>;

/**
 * The texts, one chunk per language and part (i18n-parts.ts, built by vite.config.ts): a visit
 * downloads the boot texts of its language and those of the pages it opens (ADR 0097).
 */
const CHUNKS: Record<Locale, Record<TextPart | 'boot', Chunk>> = {
  fr: {
    boot: () => import('virtual:sceau-texts/fr/boot'),
    home: () => import('virtual:sceau-texts/fr/home'),
    verify: () => import('virtual:sceau-texts/fr/verify'),
    legal: () => import('virtual:sceau-texts/fr/legal'),
    scan: () => import('virtual:sceau-texts/fr/scan'),
    forms: () => import('virtual:sceau-texts/fr/forms'),
    contact: () => import('virtual:sceau-texts/fr/contact'),
    candidate: () => import('virtual:sceau-texts/fr/candidate'),
    holder: () => import('virtual:sceau-texts/fr/holder'),
    staff: () => import('virtual:sceau-texts/fr/staff'),
  },
  en: {
    boot: () => import('virtual:sceau-texts/en/boot'),
    home: () => import('virtual:sceau-texts/en/home'),
    verify: () => import('virtual:sceau-texts/en/verify'),
    legal: () => import('virtual:sceau-texts/en/legal'),
    scan: () => import('virtual:sceau-texts/en/scan'),
    forms: () => import('virtual:sceau-texts/en/forms'),
    contact: () => import('virtual:sceau-texts/en/contact'),
    candidate: () => import('virtual:sceau-texts/en/candidate'),
    holder: () => import('virtual:sceau-texts/en/holder'),
    staff: () => import('virtual:sceau-texts/en/staff'),
  },
};

/** The parts each instance has loaded: a language loaded later gets them too. */
const loadedParts = new WeakMap<I18n, Set<TextPart>>();

function partsOf(instance: I18n): Set<TextPart> {
  let parts = loadedParts.get(instance);
  if (!parts) loadedParts.set(instance, (parts = new Set()));
  return parts;
}

/** A namespace of a language: the boot texts, with those of the parts loaded so far. */
async function readNamespace(instance: I18n, language: Locale, namespace: string): Promise<Record<string, unknown>> {
  const chunks = [CHUNKS[language].boot(), ...[...partsOf(instance)].map((part) => CHUNKS[language][part]())];
  const texts: Record<string, unknown> = {};
  for (const { default: catalogue } of await Promise.all(chunks)) mergeDeep(texts, catalogue[namespace] ?? {});
  return texts;
}

/** A part may bring a few keys of a namespace another part brings whole: merge, never replace. */
function mergeDeep(into: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(from)) {
    const current = into[key];
    if (value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object' && !Array.isArray(current)) {
      mergeDeep(current as Record<string, unknown>, value as Record<string, unknown>);
    } else into[key] = value;
  }
}

/** An i18next backend over those chunks, for one instance. */
function catalogueBackend(instance: I18n): BackendModule {
  return {
    type: 'backend',
    init: () => undefined,
    read(language, namespace, callback) {
      if (!isLocale(language)) return callback(new Error(`unsupported language ${language}`), false);
      readNamespace(instance, language, namespace).then(
        (texts) => callback(null, texts as never),
        // A failed download (offline, a deployment replaced the chunk) is retried by i18next.
        (error: unknown) => callback(error as Error, true),
      );
    },
  };
}

/**
 * Loads the texts of some parts, in every language already loaded (the one shown and any shown
 * before, so that switching back needs nothing more).
 */
export async function loadTextParts(parts: readonly TextPart[], instance: I18n = i18n): Promise<void> {
  const known = partsOf(instance);
  const missing = parts.filter((part) => !known.has(part));
  if (missing.length === 0) return;
  for (const part of missing) known.add(part);
  const languages = LOCALES.filter((language) => instance.hasResourceBundle(language, 'web'));
  await Promise.all(
    languages.flatMap((language) =>
      missing.map(async (part) => {
        const { default: catalogue } = await CHUNKS[language][part]();
        for (const [namespace, texts] of Object.entries(catalogue)) instance.addResourceBundle(language, namespace, texts, true, true);
      }),
    ),
  ).catch((error: unknown) => {
    for (const part of missing) known.delete(part);
    throw error;
  });
}

/** The texts of a route's page (a route of the contracts' table), before it shows. */
export function loadRouteTexts(route: { path: string; access?: string }, instance: I18n = i18n): Promise<void> {
  return loadTextParts(routeTextParts(route), instance);
}

/** The stored language if it is a supported one; anything else is ignored (spec section 1). */
export function readStoredLocale(): Locale {
  const stored = readLocalValue(STORAGE_KEYS.lang);
  return isLocale(stored) ? stored : DEFAULT_LOCALE;
}

function applyDocumentLanguage(lang: string): void {
  // Unchanged on a page the server wrote in that language: no restyle of the whole page for nothing.
  if (typeof document !== 'undefined' && document.documentElement.lang !== lang) document.documentElement.lang = lang;
}

/** The cookie the server reads for the pages it writes (ADR 0128); the API calls send the header. */
export const LOCALE_COOKIE = 'sceau-lang';

/**
 * The language to start in: the stored choice, else the page's own (a page the server wrote in the
 * reader's language, ADR 0128; index.html says French), else French.
 */
function initialLocale(): Locale {
  const stored = readLocalValue(STORAGE_KEYS.lang);
  if (isLocale(stored)) return stored;
  const page = typeof document !== 'undefined' ? document.documentElement.lang : '';
  return isLocale(page) ? page : DEFAULT_LOCALE;
}

/** An i18next instance whose language's catalogues are loaded when the promise resolves. */
export async function createI18n(lng: Locale = initialLocale()): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance
    .use(catalogueBackend(instance))
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
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from many of the phones this serves.
    if (typeof document !== 'undefined') document.cookie = `${LOCALE_COOKIE}=${next}; path=/; max-age=31536000; samesite=lax`;
    applyDocumentLanguage(next);
  });
  return instance;
}

/**
 * The app's instance. The module waits for the reader's catalogues (top-level await), so nothing
 * renders or translates before its texts are there; a change of language loads the other
 * language's chunk before switching (i18next's changeLanguage awaits the backend).
 */
// In a task of its own (next-task.ts): the modules evaluated before it are one task already.
export const i18n = await nextTask().then(() => createI18n());

export function currentLocale(instance: I18n = i18n): Locale {
  const lang = instance.resolvedLanguage ?? instance.language;
  return isLocale(lang) ? lang : DEFAULT_LOCALE;
}

export async function changeLocale(next: string, instance: I18n = i18n): Promise<void> {
  if (!isLocale(next)) return;
  await instance.changeLanguage(next);
}
