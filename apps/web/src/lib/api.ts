import { type EndpointShape, pathOf, type RequestOf, type ResponseOf } from '@sceau/contracts';
import { type HttpClient, http } from '@/lib/http';

/**
 * The web's typed API client, derived from the endpoint definitions in `@sceau/contracts`
 * (ADR 0125): the path, method and the types of what is sent and answered come from there, so the
 * web writes no API path and no answer type of its own.
 */

export interface CallOptions {
  signal?: AbortSignal;
  /** Send no bearer token even when one is stored (a public call made by a guest's form). */
  anonymous?: boolean;
}

type Input<E extends EndpointShape> = RequestOf<E> & CallOptions;
/** The input may be left out when the definition needs none. */
type InputArgs<E extends EndpointShape> = object extends RequestOf<E> ? [input?: Input<E>] : [input: Input<E>];

type Query = Record<string, string | number | boolean | null | undefined>;

function pathFor(definition: EndpointShape, input: { params?: unknown } | undefined): string {
  return pathOf(definition, input?.params as Record<string, string | number> | undefined);
}

export function createApiClient(client: HttpClient, baseUrl: string) {
  return {
    /** Calls `definition` and resolves to its JSON answer; failures reject with an ApiError. */
    call<E extends EndpointShape>(definition: E, ...[input]: InputArgs<E>): Promise<ResponseOf<E>> {
      const { body, query, signal, anonymous } = (input ?? {}) as Input<EndpointShape> & { body?: unknown; query?: Query };
      const sendsBody = definition.method !== 'GET' && definition.method !== 'DELETE';
      return client.request<ResponseOf<E>>(pathFor(definition, input), {
        method: definition.method,
        body: body ?? (sendsBody ? {} : undefined),
        query,
        signal,
        anonymous,
      });
    },

    /** A file the API serves (a PDF, a zip, an image), with the name its Content-Disposition gives. */
    download<E extends EndpointShape & { file: string }>(definition: E, ...[input]: InputArgs<E>): Promise<{ blob: Blob; fileName: string | null }> {
      const { query, signal, anonymous } = (input ?? {}) as Input<EndpointShape> & { query?: Query };
      return client.download(pathFor(definition, input), { query, signal, anonymous });
    },

    /** The absolute address of a public GET (a link or an image source). */
    url<E extends EndpointShape & { method: 'GET' }>(definition: E, ...[input]: InputArgs<E>): string {
      const path = `${baseUrl}${pathFor(definition, input)}`;
      const query = (input as { query?: Query } | undefined)?.query;
      if (!query) return path;
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
      const text = search.toString();
      return text ? `${path}?${text}` : path;
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

export const api: ApiClient = createApiClient(http, '/api');
