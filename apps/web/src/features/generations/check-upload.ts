import { API_PREFIX, RESUMABLE_UPLOADS_PATH } from '@sceau/contracts';
import { type DetailedError, Upload as TusUpload } from 'tus-js-client';
import { endpoints } from '@/lib/endpoints';
import { createApiClient } from '@/lib/api';
import { currentLocale, i18n } from '@/lib/i18n';
import { ApiError, createHttpClient } from '@/lib/http';
import { readToken } from '@/lib/storage';
import { translate } from '@/lib/text-keys';
import type { ImportCheckResult } from '@/features/generations/issuing-api';

/** Bytes sent so far and in all (the multipart body, a little more than the files). */
export interface UploadProgress {
  loaded: number;
  total: number;
  /** The connection dropped: the upload waits and resumes where the server stopped (resumable uploads only). */
  reconnecting?: boolean;
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

/**
 * Files together past this size go by resumable upload (tus 1.0, ADR 0150): in pieces of
 * CHUNK_BYTES, each piece resent alone after a drop, and resumed after a reload of the page (the
 * browser keeps where each file's upload stands until it is used).
 */
export const RESUMABLE_FROM_BYTES = 2 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
/** Waits before each new try after a drop: about three minutes of a network gone, then the upload stops (resumable later). */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000, 60_000, 60_000];

type Kind = 'list' | 'photos';

/** A refusal of the upload server (tus answers plain text): as the app's errors, on the form's field. */
function uploadRefusal(error: unknown, field: 'file' | 'photos'): Error {
  const response = (error as DetailedError).originalResponse;
  if (!response) return new ApiError(0, 'network_error', translate(i18n, 'errors.network'));
  const status = response.getStatus();
  const text = response.getBody()?.trim();
  if (status === 404) return new ApiError(404, 'not_found', translate(i18n, 'errors:field.upload_unknown'), { [field]: [translate(i18n, 'errors:field.upload_unknown')] });
  const message = text && text.length < 300 ? text : translate(i18n, 'errors.generic');
  const code = status === 413 ? 'payload_too_large' : status === 429 ? 'rate_limited' : status >= 500 ? 'service_unavailable' : 'conflict';
  return new ApiError(status, code, message, status === 413 || status === 400 ? { [field]: [message] } : {});
}

/**
 * One file by resumable upload: resolves to the upload's id, which the list check then names. A
 * drop is retried on its own (`onReconnecting` says so); `signal` stops it and abandons the upload.
 */
function sendResumable(
  file: File,
  kind: Kind,
  options: { signal?: AbortSignal; onBytes: (sent: number) => void; onReconnecting: (reconnecting: boolean) => void },
): Promise<string> {
  const field = kind === 'list' ? 'file' : 'photos';
  return new Promise<string>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new DOMException('The upload was cancelled', 'AbortError'));
      return;
    }
    const token = readToken();
    const upload = new TusUpload(file, {
      endpoint: `${API_PREFIX}${RESUMABLE_UPLOADS_PATH}`,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      metadata: { kind, filename: file.name },
      headers: { 'X-Locale': currentLocale(), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onProgress: (sent) => options.onBytes(sent),
      onChunkComplete: () => options.onReconnecting(false),
      onShouldRetry: (error) => {
        const status = (error as DetailedError).originalResponse?.getStatus() ?? 0;
        // No answer, or the server busy: the network dropped or will be back; a refusal is final.
        const retry = status === 0 || status === 409 || status === 423 || status >= 500;
        if (retry) options.onReconnecting(true);
        return retry;
      },
      onError: (error) => {
        options.signal?.removeEventListener('abort', onAbort);
        reject(uploadRefusal(error, field));
      },
      onSuccess: () => {
        options.signal?.removeEventListener('abort', onAbort);
        const id = upload.url?.split('/').pop();
        if (id) resolve(id);
        else reject(new ApiError(0, 'unknown_error', translate(i18n, 'errors.generic')));
      },
    });
    const onAbort = () => {
      void upload.abort(true).catch(() => undefined);
      reject(new DOMException('The upload was cancelled', 'AbortError'));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    // The same file chosen again after a reload or a drop: go on from where the server stopped.
    void upload
      .findPreviousUploads()
      .then((previous) => {
        if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
        if (!options.signal?.aborted) upload.start();
      })
      .catch(() => upload.start());
  });
}

/**
 * One file by resumable upload, its progress reported as the pages show it (bytes, and whether the
 * connection dropped); resolves to the upload's id for the call that then names it.
 */
export function sendFileResumable(file: File, kind: Kind, onProgress: (progress: UploadProgress) => void, signal?: AbortSignal): Promise<string> {
  let reconnecting = false;
  let sent = 0;
  const report = () => onProgress({ loaded: sent, total: file.size, reconnecting });
  return sendResumable(file, kind, {
    signal,
    onBytes: (bytes) => {
      sent = bytes;
      report();
    },
    onReconnecting: (now) => {
      reconnecting = now;
      report();
    },
  });
}

/** The list and the zip by resumable upload, one after the other, their progress added up; resolves to their ids. */
async function sendFilesResumable(input: CheckUploadInput): Promise<{ list: string; photos: string | null }> {
  const total = input.file.size + (input.photos?.size ?? 0);
  let done = 0;
  let reconnecting = false;
  let current = 0;
  const report = () => input.onProgress?.({ loaded: done + current, total, reconnecting });
  const send = async (file: File, kind: Kind) => {
    current = 0;
    const id = await sendResumable(file, kind, {
      signal: input.signal,
      onBytes: (sent) => {
        current = sent;
        report();
      },
      onReconnecting: (now) => {
        reconnecting = now;
        report();
      },
    });
    done += file.size;
    current = 0;
    report();
    return id;
  };
  const list = await send(input.file, 'list');
  const photos = input.photos ? await send(input.photos, 'photos') : null;
  return { list, photos };
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
  const size = input.file.size + (input.photos?.size ?? 0);
  const resumable = size >= RESUMABLE_FROM_BYTES && typeof XMLHttpRequest !== 'undefined';
  const uploaded = resumable ? await sendFilesResumable(input) : null;
  const form = new FormData();
  form.append('template', String(input.templateId));
  form.append('session_id', String(input.sessionId));
  form.append('province_id', String(input.provinceId));
  if (input.generationType) form.append('generation_type', input.generationType);
  if (input.generationId) form.append('generation_id', String(input.generationId));
  if (input.sheet) form.append('sheet', input.sheet);
  if (uploaded) {
    // Already on the server: the check names the uploads.
    form.append('file_upload', uploaded.list);
    if (uploaded.photos) form.append('photos_upload', uploaded.photos);
  } else {
    form.append('file', input.file, input.file.name);
    if (input.photos) form.append('photos', input.photos, input.photos.name);
  }
  const withProgress = !uploaded && size >= PROGRESS_FROM_BYTES;
  const client = uploadClient(withProgress ? (input.onProgress ?? (() => {})) : null);
  return (await client.call(endpoints.imports.checkFile, { body: form, signal: input.signal })).data;
}

/**
 * The app's API client (token, language, translated errors) for a call carrying files: with
 * `onProgress`, sent by XMLHttpRequest so that the upload's progress is reported.
 */
export function uploadClient(onProgress: ((progress: UploadProgress) => void) | null) {
  const withProgress = onProgress !== null && typeof XMLHttpRequest !== 'undefined';
  return createApiClient(
    createHttpClient({
      fetch: withProgress ? progressFetch(onProgress) : (...args) => globalThis.fetch(...args),
      getLocale: () => currentLocale(),
      getToken: readToken,
      translate: (key) => translate(i18n, key),
      baseUrl: '/api',
    }),
    '/api',
  );
}
