import type { ItemValidationState, PageMeta, PhotoEdits, ValidationBatchView, ValidationChangeResponse, ValidationFilters, ValidationItemView } from '@sceau/contracts';
import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/lib/http';
import { useApiQuery } from '@/lib/query';

export type ValidationItemsPage = { data: ValidationItemView[]; meta: PageMeta; generation: ValidationBatchView };
export type ValidationsPage = { data: ValidationBatchView[]; meta: PageMeta };
export type ChangeResult = ValidationChangeResponse['data'];

export type ValidationList = 'photos' | 'data' | 'rejected';

export interface ValidationItemsFilter {
  page: number;
  search: string;
  institution: number | null;
  centre: number | null;
  option: number | null;
  status: ItemValidationState | null;
}

export const VALIDATION_PAGE_SIZE = 20;

const listPath = (list: ValidationList, id: number) =>
  list === 'photos' ? `/validations/photos/${id}` : list === 'data' ? `/validations/data/${id}` : `/generations/${id}/items/rejected`;

/** One page of a batch's candidates for a validation screen, with the batch (header, counters). */
export function useValidationItems(list: ValidationList, id: number, filter: ValidationItemsFilter) {
  return useApiQuery<ValidationItemsPage>({
    queryKey: ['validations', list, id, filter],
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === id ? previous : undefined),
    enabled: Number.isInteger(id) && id > 0,
    queryFn: ({ signal }) =>
      http.get<ValidationItemsPage>(listPath(list, id), {
        signal,
        query: {
          page: filter.page,
          per_page: VALIDATION_PAGE_SIZE,
          search: filter.search,
          institution: filter.institution,
          centre: filter.centre,
          // The rejected list takes neither option nor status.
          option: list === 'rejected' ? null : filter.option,
          status: list === 'rejected' ? null : filter.status,
        },
      }),
  });
}

/** The schools, centres and options of a batch's candidates (the filters' choices); they change only with the batch's list. */
export function useValidationFilters(id: number) {
  return useApiQuery<ValidationFilters>({
    queryKey: ['validations', 'filters', id],
    enabled: Number.isInteger(id) && id > 0,
    queryFn: async ({ signal }) => (await http.get<{ data: ValidationFilters }>(`/validations/${id}/filters`, { signal })).data,
  });
}

/** The batches of the user's scope in validation (or ready for generation), with their counters. */
export function useValidations(page: number) {
  return useApiQuery<ValidationsPage>({
    queryKey: ['validations', 'overview', page],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => http.get<ValidationsPage>('/validations', { signal, query: { page, per_page: VALIDATION_PAGE_SIZE } }),
  });
}

export type ValidationChange =
  | { kind: 'photos'; items: number[] }
  | { kind: 'photo'; item: number; edits?: PhotoEdits }
  | { kind: 'uploadPhoto'; item: number; file: File }
  | { kind: 'rejectPhoto'; item: number; reason: string }
  | { kind: 'data'; items: number[] }
  | { kind: 'dataEdit'; item: number; fields: Record<string, string | null> }
  | { kind: 'rejectData'; item: number; reason: string }
  | { kind: 'reopen'; side: 'photo' | 'data'; item: number };

function send(change: ValidationChange): Promise<ValidationChangeResponse> {
  switch (change.kind) {
    case 'photos':
      return http.post('/validations/photos/validate', { items: change.items });
    case 'photo':
      return http.post('/validations/photos/validate', change.edits ? { item: change.item, edits: change.edits } : { item: change.item });
    case 'uploadPhoto': {
      const form = new FormData();
      form.append('photo', change.file, change.file.name);
      return http.post(`/validations/photos/${change.item}/upload`, form);
    }
    case 'rejectPhoto':
      return http.post('/validations/photos/reject', { item: change.item, reason: change.reason });
    case 'data':
      return http.post('/validations/data/validate', { items: change.items });
    case 'dataEdit':
      return http.post('/validations/data/validate', { item: change.item, ...change.fields });
    case 'rejectData':
      return http.delete('/validations/data/reject', { item: change.item, reason: change.reason });
    case 'reopen':
      return http.post(`/validations/${change.side === 'photo' ? 'photos' : 'data'}/reopen`, { item: change.item });
  }
}

/** Every validation change; afterwards the lists, the header and the batch pages are read again. */
export function useValidationChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: ValidationChange) => (await send(change)).data,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['validations'] });
      void queryClient.invalidateQueries({ queryKey: ['generations'] });
    },
  });
}
