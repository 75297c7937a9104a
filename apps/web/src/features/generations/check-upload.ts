import { endpoints } from '@/lib/endpoints';
import { createApiClient } from '@/lib/api';
import { currentLocale, i18n } from '@/lib/i18n';
import { createHttpClient } from '@/lib/http';
import { readToken } from '@/lib/storage';
import { translate } from '@/lib/text-keys';
import type { ImportCheckResult } from '@/features/generations/issuing-api';

/** Bytes sent so far and in all (the multipart body, a little more than the files). */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * Files together past this size are sent with XMLHttpRequest, whose upload events give the
 * progress (fetch cannot report an upload's progress in today's browsers); a smaller list goes in
 * an instant through the app's usual client.
 */
export const PROGRESS_FROM_BYTES = 512 * 1024;

/**
 * A `fetch` made of XMLHttpRequest: the same request (method, headers, body, abort signal), its
 * upload's progress reported, the answer given back as a Response so that the app's HTTP client
 * (headers, token, translated errors) is used unchanged.
 */
export function progressFetch(onProgress: (progress: UploadProgress) => void): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const signal = init.signal ?? null;
      if (signal?.aborted) {
        reject(new DOMException('The upload was cancelled', 'AbortError'));
        return;
      }
      const xhr = new XMLHttpRequest();
      xhr.open(init.method ?? 'GET', typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      for (const [name, value] of new Headers(init.headers)) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress({ loaded: event.loaded, total: event.total });
      };
      const onAbort = () => xhr.abort();
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      xhr.onload = () => {
        done();
        const headers = new Headers();
        for (const line of xhr
          .getAllResponseHeaders()
          .trim()
          .split(/[\r\n]+/)) {
          const at = line.indexOf(':');
          if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
        }
        const empty = xhr.status === 204 || xhr.status === 304;
        resolve(new Response(empty ? null : xhr.responseText, { status: xhr.status, statusText: xhr.statusText, headers }));
      };
      xhr.onerror = () => {
        done();
        reject(new TypeError('The connection was lost during the upload'));
      };
      xhr.onabort = () => {
        done();
        reject(new DOMException('The upload was cancelled', 'AbortError'));
      };
      xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null);
    });
}

export interface CheckUploadInput {
  templateId: number;
  sessionId: number;
  provinceId: number;
  generationType: string | null;
  file: File;
  photos: File | null;
  generationId: number | null;
  /** The workbook's sheet to read; by default the server takes the first holding the list. */
  sheet?: string | null;
  signal?: AbortSignal;
  onProgress?: (progress: UploadProgress) => void;
}

/**
 * Sends a list (and photos zip) to be checked (`POST /check-import-file`). A large upload reports
 * its progress and may be cancelled with `signal` (the answer then rejects with an AbortError).
 */
export async function checkUpload(input: CheckUploadInput): Promise<ImportCheckResult> {
  const form = new FormData();
  form.append('template', String(input.templateId));
  form.append('session_id', String(input.sessionId));
  form.append('province_id', String(input.provinceId));
  if (input.generationType) form.append('generation_type', input.generationType);
  if (input.generationId) form.append('generation_id', String(input.generationId));
  if (input.sheet) form.append('sheet', input.sheet);
  form.append('file', input.file, input.file.name);
  if (input.photos) form.append('photos', input.photos, input.photos.name);
  const size = input.file.size + (input.photos?.size ?? 0);
  const withProgress = size >= PROGRESS_FROM_BYTES && typeof XMLHttpRequest !== 'undefined';
  const client = createApiClient(
    createHttpClient({
      fetch: withProgress ? progressFetch(input.onProgress ?? (() => {})) : (...args) => globalThis.fetch(...args),
      getLocale: () => currentLocale(),
      getToken: readToken,
      translate: (key) => translate(i18n, key),
      baseUrl: '/api',
    }),
    '/api',
  );
  return (await client.call(endpoints.imports.checkFile, { body: form, signal: input.signal })).data;
}
