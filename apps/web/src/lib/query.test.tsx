import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/http';
import { createQueryClient, useApiQuery } from '@/lib/query';

describe('useApiQuery', () => {
  it('keeps results fresh for 5 minutes', () => {
    expect(createQueryClient().getDefaultOptions().queries?.staleTime).toBe(5 * 60 * 1000);
  });

  it('shows no stale data once a reload has failed', async () => {
    const client = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    let fail = false;
    const { result } = renderHook(
      () =>
        useApiQuery<string[]>({
          queryKey: ['sessions'],
          queryFn: async () => {
            if (fail) throw new ApiError(404, 'not_found', 'Ressource introuvable');
            return ['2025'];
          },
          retry: false,
        }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.data).toEqual(['2025']));

    fail = true;
    await act(async () => {
      await result.current.refetch();
    });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error?.message).toBe('Ressource introuvable');
    expect(result.current.data).toBeUndefined();
  });
});
