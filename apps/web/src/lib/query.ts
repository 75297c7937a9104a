import { QUERY_STALE_TIME_MS } from '@sceau/contracts';
import { QueryClient, useQuery, type QueryKey, type UseQueryOptions, type UseQueryResult } from '@tanstack/react-query';
import { isApiError, type ApiError } from '@/lib/http';
import { isOffline } from '@/lib/online';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: QUERY_STALE_TIME_MS,
        // A client error will not change on retry; a network hiccup may. Offline, retrying only
        // keeps the spinner up: the error shows at once, with its retry button (ADR 0127).
        retry: (failureCount, error) => failureCount < 2 && !isOffline() && (!isApiError(error) || error.status === 0 || error.status >= 500),
        refetchOnWindowFocus: false,
        // React Query's default ('online') pauses a query while the browser is offline: a spinner
        // with no end. The call runs and fails (http.ts fails fast offline).
        networkMode: 'always',
      },
      mutations: { networkMode: 'always' },
    },
  });
}

/**
 * useQuery whose data is empty while the last load failed (spec section 8: "each failed load
 * empties its stored data"): a page never shows stale data next to an error.
 */
export function useApiQuery<T, K extends QueryKey = QueryKey>(options: UseQueryOptions<T, ApiError, T, K>): UseQueryResult<T, ApiError> {
  const result = useQuery(options);
  if (!result.isError) return result;
  return { ...result, data: undefined } as UseQueryResult<T, ApiError>;
}
