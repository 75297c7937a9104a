import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import { useApiQuery } from '@/lib/query';

/** The users module's calls (spec section 7: users and signatures). */

export type UserSort = 'name' | 'created_at' | 'role';

export interface UsersFilter {
  page: number;
  search: string;
  role: string;
  sort: UserSort;
  archived: boolean;
}

export interface UserInput {
  name: string;
  first_name: string | null;
  email: string | null;
  phone: string | null;
  /** Left out when editing an account whose access the user may not change (its abilities). */
  roles?: number[];
  institution_id?: number | null;
  centre_id?: number | null;
  province_id?: number | null;
}

export const USERS_PAGE_SIZE = 20;

export function useUsers(filter: UsersFilter) {
  return useApiQuery({
    queryKey: ['users', 'list', filter],
    placeholderData: keepPreviousData,
    queryFn: () =>
      api.call(endpoints.accounts.users, {
        query: {
          page: filter.page,
          per_page: USERS_PAGE_SIZE,
          search: filter.search.trim(),
          role: filter.role,
          sort: filter.sort,
          archived: filter.archived ? '1' : '0',
        },
      }),
  });
}

export function useRoles() {
  return useApiQuery({
    queryKey: ['users', 'roles'],
    queryFn: async () => (await api.call(endpoints.accounts.roles)).data,
  });
}

function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['users', 'list'] });
}

export function useSaveUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: async ({ id, input }: { id: number | null; input: UserInput }) =>
      id === null
        ? (await api.call(endpoints.accounts.createUser, { body: { roles: [], ...input } })).data
        : (await api.call(endpoints.accounts.updateUser, { params: { id }, body: input })).data,
    onSuccess: () => invalidate(),
  });
}

export function useResetUserPassword() {
  return useMutation({
    mutationFn: async (id: number) => (await api.call(endpoints.accounts.resetUserPassword, { params: { id } })).data,
  });
}

export function useArchiveUsers() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: async (ids: number[]) => (await api.call(endpoints.accounts.archiveUsers, { body: { users: ids } })).data,
    onSuccess: () => invalidate(),
  });
}

/** Sends an account a one-time sign-in link (e-mail, else SMS); resolves to the server's message. */
export function useSendSignInLink() {
  return useMutation({
    mutationFn: async (id: number) => (await api.call(endpoints.accounts.sendSignInLink, { params: { id } })).data,
  });
}

/** One user afresh before editing (the list may be minutes old). */
export function useUser(id: number | null) {
  return useApiQuery({
    queryKey: ['users', 'one', id],
    enabled: id !== null,
    staleTime: 0,
    queryFn: async () => (await api.call(endpoints.accounts.user, { params: { id: id! } })).data,
  });
}
