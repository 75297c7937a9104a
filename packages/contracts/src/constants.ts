export const LOCALES = ['fr', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'fr';

/** A candidate's gender as the lists and the diploma write it. */
export const GENDERS = ['M', 'F'] as const;
export type Gender = (typeof GENDERS)[number];

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Browser storage keys (spec section 9). */
export const STORAGE_KEYS = { lang: 'lang', token: 'token', profile: 'profile' } as const;

/** The header carrying the request locale (spec section 7). */
export const LOCALE_HEADER = 'x-locale';

/** Where the API is served, and its resumable uploads under it (tus 1.0, ADR 0150: a protocol of its own, not an endpoint definition). */
export const API_PREFIX = '/api';
export const RESUMABLE_UPLOADS_PATH = '/uploads';

export const CANDIDATE_CODE_LENGTH = 14;
export const PASSWORD_MIN_LENGTH = 8;
export const NAME_MIN_LENGTH = 3;
export const QUERY_STALE_TIME_MS = 5 * 60 * 1000;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/**
 * Plain values the public pages need, kept here, away from zod schemas: a bundle that imports one
 * binding of a schema file keeps every schema of it (size budget, ADR 0126).
 */

/**
 * A diploma's public id: 22 characters of base64url. The credential defines it (@sceau/credential's
 * DIPLOMA_ID_PATTERN, which the verifier uses); written again here rather than imported, since the
 * credential's module would bring its byte helpers into the first page (constants.test.ts keeps both equal).
 */
export const DIPLOMA_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** The answer's verdicts, from the strongest yes to the strongest no. */
export const VERDICTS = ['authentic', 'revoked', 'altered', 'unknown', 'unpublished', 'incomplete'] as const;
export type Verdict = (typeof VERDICTS)[number];
