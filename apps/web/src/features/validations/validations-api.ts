import type { ItemValidationState, PhotoEdits, ResponseOf, ValidationFilters, ValidationItemView } from '@sceau/contracts';
import { endpoints } from '@/lib/endpoints';
import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { useApiQuery } from '@/lib/query';

export type ValidationItemsPage = ResponseOf<typeof endpoints.validations.photoItems>;
export type ValidationsPage = ResponseOf<typeof endpoints.validations.batches>;
export type ChangeResult = ResponseOf<typeof endpoints.validations.validatePhotos>['data'];

export type ValidationList = 'photos' | 'data' | 'rejected';

export interface ValidationItemsFilter {
  page: number;
  search: string;
  institution: number | null;
  centre: number | null;
  option: number | null;
  status: ItemValidationState | null;
  /** Candidates per page: one of VALIDATION_PAGE_SIZES. */
  perPage: number;
}

export const VALIDATION_PAGE_SIZE = 20;
/** The page sizes the validation pages offer (the API takes 1 to 100). */
export const VALIDATION_PAGE_SIZES = [20, 50, 100] as const;

function itemsPage(list: ValidationList, id: number, filter: ValidationItemsFilter, signal: AbortSignal): Promise<ValidationItemsPage> {
  const query = { page: filter.page, per_page: filter.perPage, search: filter.search, institution: filter.institution, centre: filter.centre };
  // The rejected list takes neither option nor status.
  if (list === 'rejected') return api.call(endpoints.validations.rejectedItems, { params: { id }, query, signal });
  const definition = list === 'photos' ? endpoints.validations.photoItems : endpoints.validations.dataItems;
  return api.call(definition, { params: { generationId: id }, query: { ...query, option: filter.option, status: filter.status ?? undefined }, signal });
}

/** One page of a batch's candidates for a validation screen, with the batch (header, counters). */
export function useValidationItems(list: ValidationList, id: number, filter: ValidationItemsFilter) {
  return useApiQuery<ValidationItemsPage>({
    queryKey: ['validations', list, id, filter],
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === id ? previous : undefined),
    enabled: Number.isInteger(id) && id > 0,
    queryFn: ({ signal }) => itemsPage(list, id, filter, signal),
  });
}

/** The schools, centres and options of a batch's candidates (the filters' choices); they change only with the batch's list. */
export function useValidationFilters(id: number) {
  return useApiQuery<ValidationFilters>({
    queryKey: ['validations', 'filters', id],
    enabled: Number.isInteger(id) && id > 0,
    queryFn: async ({ signal }) => (await api.call(endpoints.validations.filters, { params: { generationId: id }, signal })).data,
  });
}

/** The batches of the user's scope in validation (or ready for generation), with their counters. */
export function useValidations(page: number) {
  return useApiQuery<ValidationsPage>({
    queryKey: ['validations', 'overview', page],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => api.call(endpoints.validations.batches, { query: { page, per_page: VALIDATION_PAGE_SIZE }, signal }),
  });
}

/**
 * A candidate's photo, behind the bearer token (the lists' `photo_url`, whose `v` changes with the
 * photo so a private cache may keep each one).
 */
export async function fetchItemPhoto(item: Pick<ValidationItemView, 'id' | 'generation_id' | 'photo_url'>, signal: AbortSignal): Promise<Blob> {
  const v = item.photo_url ? (new URL(item.photo_url, 'http://photo.invalid').searchParams.get('v') ?? undefined) : undefined;
  return (await api.download(endpoints.validations.photo, { params: { generationId: item.generation_id, itemId: item.id }, query: { v }, signal })).blob;
}

/** A candidate's original photo (ADR 0147), which the editor crops from; rejects (404) when none is kept. */
export async function fetchOriginalPhoto(item: Pick<ValidationItemView, 'id' | 'generation_id' | 'photo_url'>, signal: AbortSignal): Promise<Blob> {
  const v = item.photo_url ? (new URL(item.photo_url, 'http://photo.invalid').searchParams.get('v') ?? undefined) : undefined;
  return (await api.download(endpoints.validations.originalPhoto, { params: { generationId: item.generation_id, itemId: item.id }, query: { v }, signal })).blob;
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

function send(change: ValidationChange) {
  const v = endpoints.validations;
  switch (change.kind) {
    case 'photos':
      return api.call(v.validatePhotos, { body: { items: change.items } });
    case 'photo':
      return api.call(v.validatePhotos, { body: change.edits ? { item: change.item, edits: change.edits } : { item: change.item } });
    case 'uploadPhoto': {
      const form = new FormData();
      form.append('photo', change.file, change.file.name);
      return api.call(v.uploadPhoto, { params: { itemId: change.item }, body: form });
    }
    case 'rejectPhoto':
      return api.call(v.rejectPhoto, { body: { item: change.item, reason: change.reason } });
    case 'data':
      return api.call(v.validateData, { body: { items: change.items } });
    case 'dataEdit':
      return api.call(v.validateData, { body: { item: change.item, ...change.fields } });
    case 'rejectData':
      return api.call(v.rejectData, { body: { item: change.item, reason: change.reason } });
    case 'reopen':
      return api.call(change.side === 'photo' ? v.reopenPhoto : v.reopenData, { body: { item: change.item } });
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

/** The list's filter without its page, as "validate all pending" and its count take it (empty fields left out). */
function pendingFilter(filter: ValidationItemsFilter) {
  return {
    ...(filter.search ? { search: filter.search } : {}),
    ...(filter.institution ? { institution: filter.institution } : {}),
    ...(filter.centre ? { centre: filter.centre } : {}),
    ...(filter.option ? { option: filter.option } : {}),
    ...(filter.status ? { status: filter.status } : {}),
  };
}

export type PendingCount = ResponseOf<typeof endpoints.validations.photosPending>['data'];
export type ValidateAllResult = ResponseOf<typeof endpoints.validations.validateAllPhotos>['data'];

/** How many candidates "validate all pending" would validate now (asked when the confirmation opens). */
export function usePendingCount(aspect: 'photos' | 'data', id: number, filter: ValidationItemsFilter, enabled: boolean) {
  const body = pendingFilter(filter);
  return useApiQuery<PendingCount>({
    queryKey: ['validations', 'pending', aspect, id, body],
    enabled,
    staleTime: 0,
    queryFn: async ({ signal }) =>
      (await api.call(aspect === 'photos' ? endpoints.validations.photosPending : endpoints.validations.dataPending, { params: { generationId: id }, query: body, signal })).data,
  });
}

/** Validates every pending candidate of the filter on one side; afterwards the lists and batch pages are read again. */
export function useValidateAll() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ aspect, id, filter }: { aspect: 'photos' | 'data'; id: number; filter: ValidationItemsFilter }) =>
      (
        await api.call(aspect === 'photos' ? endpoints.validations.validateAllPhotos : endpoints.validations.validateAllData, {
          params: { generationId: id },
          body: pendingFilter(filter),
        })
      ).data,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['validations'] });
      void queryClient.invalidateQueries({ queryKey: ['generations'] });
    },
  });
}
