import { checkRequirement, type ImportationSummary } from '@sceau/contracts';
import { endpoints } from '@/lib/endpoints';
import { api } from '@/lib/api';
import { useApiQuery } from '@/lib/query';
import { useGrants } from '@/lib/session-context';

/** Who may follow an import (the same requirement as `GET /importations`). */
const FOLLOW = { anyPermission: ['generation.create', 'generation.view'], section: 'generation' } as const;

/**
 * The signed-in user's imports, newest first (`GET /importations`): with `active`, only those queued
 * or running, so that a page left during an import finds it again.
 */
export function useMyImportations(active: boolean) {
  const grants = useGrants();
  return useApiQuery<ImportationSummary[]>({
    queryKey: ['importations', 'mine', active],
    enabled: checkRequirement(grants, FOLLOW) === null,
    staleTime: 0,
    queryFn: async ({ signal }) => (await api.call(endpoints.imports.mine, { query: active ? { active: 'true' } : {}, signal })).data,
  });
}
