import { DEFAULT_LOCALE, LOCALES, type Locale, isLocale } from '@sceau/contracts';
import { resources } from '@sceau/i18n';
import i18next, { type ParseKeys, type TFunction } from 'i18next';

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

/**
 * The API's namespaces, `errors` first as at run time (defaultNS): a key without a namespace is an
 * error message's, the others are written `messages:…`, `web:…`, `verification:…`.
 */
type ApiNamespaces = readonly ['errors', 'messages', 'web', 'verification'];

/** A t() whose keys the compiler checks against the French catalogues, once they are declared to i18next (CustomTypeOptions). */
export type Translate = TFunction<ApiNamespaces>;

/** Any key of those namespaces, as t() takes it. */
export type TextKey = ParseKeys<ApiNamespaces>;

export function translator(locale: Locale): Translate {
  // Typed with every namespace so that `messages:…` keys type-check; looked up as before (defaultNS).
  return instance.getFixedT(locale) as unknown as Translate;
}

/** How many texts `keptText` keeps (a fixed set in practice; a key made from data stays bounded). */
const MAX_KEPT_TEXTS = 2_000;
const KEPT_TEXTS = new Map<string, string>();

/**
 * The text of a key without parameters in a language, translated once and kept: the hot public
 * answers (the verdict by id, its HTML page) write the same verdicts, checks and labels on every
 * request, and an i18next call costs more than the rest of presenting them.
 */
export function keptText(locale: Locale, key: string): string {
  const id = `${locale}|${key}`;
  let text = KEPT_TEXTS.get(id);
  if (text === undefined) {
    if (KEPT_TEXTS.size >= MAX_KEPT_TEXTS) KEPT_TEXTS.clear();
    text = (translator(locale) as unknown as (key: string) => string)(key);
    KEPT_TEXTS.set(id, text);
  }
  return text;
}

/**
 * A key known only at run time (an error code, a zod message, an e-mail's template name): the
 * compiler cannot check it, the catalogue tests check that every code and message has its text.
 */
export function dynamicKey(key: `${'errors' | 'messages' | 'web' | 'verification'}:${string}`): TextKey {
  return key as TextKey;
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
