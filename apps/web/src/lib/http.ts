import { LOCALE_HEADER, type ErrorResponse } from '@sceau/contracts';
import { currentLocale, i18n } from '@/lib/i18n';
import { isOffline } from '@/lib/online';
import { readToken } from '@/lib/storage';
import { translate, type TextKey } from '@/lib/text-keys';

/** Codes of failures that never reached the server or whose answer was not the API's error shape. */
export type ClientErrorCode = 'network_error' | 'unknown_error';

export type FieldErrors = Record<string, string[]>;

/**
 * Every failed call becomes one of these; `message` is always ready to show (already translated).
 * A message this client wrote itself (no connection, an answer without the server's words) also
 * keeps its catalogue key, so that a page shows it in the language chosen since (lib/message.ts).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorResponse['code'] | ClientErrorCode;
  readonly fieldErrors: FieldErrors;
  /** Seconds from a Retry-After header (429 answers), when there was one. */
  readonly retryAfter: number | null;
  /** The catalogue key of `message` when this client wrote it; null for the server's own words. */
  readonly messageKey: TextKey | null;

  constructor(status: number, code: ApiError['code'], message: string, fieldErrors: FieldErrors = {}, retryAfter: number | null = null, messageKey: TextKey | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fieldErrors = fieldErrors;
    this.retryAfter = retryAfter;
    this.messageKey = messageKey;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export interface HttpDeps {
  fetch: typeof fetch;
  getLocale: () => string;
  getToken: () => string | null;
  translate: (key: TextKey) => string;
  baseUrl: string;
  /** Whether the browser knows it is offline (default: `navigator.onLine === false`). */
  isOffline?: () => boolean;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain value is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
  /** Send no bearer token even when one is stored (the token request itself). */
  anonymous?: boolean;
}

function isErrorBody(value: unknown): value is ErrorResponse {
  return !!value && typeof value === 'object' && typeof (value as ErrorResponse).code === 'string' && typeof (value as ErrorResponse).message === 'string';
}

function buildUrl(baseUrl: string, path: string, query: RequestOptions['query']): string {
  const url = `${baseUrl}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function readRetryAfter(response: Response): number | null {
  const value = Number(response.headers.get('Retry-After'));
  return Number.isFinite(value) && value > 0 ? Math.ceil(value) : null;
}

/** The file name of a Content-Disposition header (`filename*=UTF-8''…` preferred), without any path. */
export function fileNameOf(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  let name: string | null = null;
  if (extended?.[1]) {
    try {
      name = decodeURIComponent(extended[1].trim());
    } catch {
      name = null;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/.exec(header);
    name = plain ? (plain[1] ?? plain[2] ?? '').replace(/\\(.)/g, '$1').trim() : null;
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : null;
}

/** The one HTTP client of the app (spec section 7). No timeout, on purpose: slow mobile networks. */
export function createHttpClient(deps: HttpDeps) {
  /** A failure in this client's words: translated now, its key kept for a later language. */
  function clientError(status: number, code: ApiError['code'], key: TextKey, fieldErrors: FieldErrors = {}, retryAfter: number | null = null): ApiError {
    return new ApiError(status, code, deps.translate(key), fieldErrors, retryAfter, key);
  }

  async function send(path: string, options: RequestOptions): Promise<Response> {
    const locale = deps.getLocale();
    const headers = new Headers({
      'X-Requested-With': 'XMLHttpRequest',
      Accept: 'application/json',
      [LOCALE_HEADER]: locale,
      'Accept-Language': locale,
    });
    const token = options.anonymous ? null : deps.getToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);

    let body: BodyInit | undefined;
    if (options.body instanceof FormData) body = options.body;
    else if (options.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(options.body);
    }

    // Known offline: the connection error at once, rather than a request the browser may hold.
    if ((deps.isOffline ?? isOffline)()) throw clientError(0, 'network_error', 'web:errors.network');
    try {
      return await deps.fetch(buildUrl(deps.baseUrl, path, options.query), {
        method: options.method ?? (body === undefined ? 'GET' : 'POST'),
        headers,
        body,
        signal: options.signal,
      });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      throw clientError(0, 'network_error', 'web:errors.network');
    }
  }

  async function failure(response: Response): Promise<ApiError> {
    const payload = await readJson(response);
    const retryAfter = readRetryAfter(response);
    if (isErrorBody(payload)) {
      if (payload.message.trim() !== '') return new ApiError(response.status, payload.code, payload.message, payload.errors ?? {}, retryAfter);
      return clientError(response.status, payload.code, payload.code === 'validation_failed' ? 'web:errors.invalidData' : 'web:errors.generic', payload.errors ?? {}, retryAfter);
    }
    return clientError(response.status, 'unknown_error', 'web:errors.generic', {}, retryAfter);
  }

  async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const response = await send(path, options);
    if (!response.ok) throw await failure(response);
    return (await readJson(response)) as T;
  }

  /**
   * A file the API serves behind the bearer token (a signature image, a diploma's PDF), with the
   * name its Content-Disposition gives, if any. Accepts the API's own absolute links (`/api/…`) as
   * well as paths relative to the API.
   */
  async function download(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<{ blob: Blob; fileName: string | null }> {
    const relative = path.startsWith(`${deps.baseUrl}/`) ? path.slice(deps.baseUrl.length) : path;
    const [pathname = '', search = ''] = relative.split('?');
    const query = { ...Object.fromEntries(new URLSearchParams(search)), ...options.query };
    const response = await send(pathname, { ...options, method: 'GET', query });
    if (!response.ok) throw await failure(response);
    return { blob: await response.blob(), fileName: fileNameOf(response.headers.get('Content-Disposition')) };
  }

  async function getBlob(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<Blob> {
    return (await download(path, options)).blob;
  }

  return {
    request,
    getBlob,
    download,
    get: <T>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}) => request<T>(path, { ...options, method: 'GET' }),
    post: <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) => request<T>(path, { ...options, method: 'POST', body: body ?? {} }),
    put: <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) => request<T>(path, { ...options, method: 'PUT', body: body ?? {} }),
    delete: <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) => request<T>(path, { ...options, method: 'DELETE', body }),
  };
}

export type HttpClient = ReturnType<typeof createHttpClient>;

export const http: HttpClient = createHttpClient({
  fetch: (...args) => globalThis.fetch(...args),
  getLocale: () => currentLocale(),
  getToken: readToken,
  translate: (key) => translate(i18n, key),
  baseUrl: '/api',
});
