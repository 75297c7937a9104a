import type { GenerationStats } from '@sceau/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import { useApiQuery } from '@/lib/query';

/** What the user's scope has issued, for one session or every session (`GET /generations/stats`). */
export function useGenerationStats(session: number | null) {
  return useApiQuery<GenerationStats>({
    queryKey: ['generations', 'stats', session],
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => (await api.call(endpoints.generations.stats, { signal, query: { session } })).data,
  });
}
