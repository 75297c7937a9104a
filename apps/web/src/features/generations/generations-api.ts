import { type GenerationItemView, isPublished, type ResponseOf } from '@sceau/contracts';
import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import { useApiQuery } from '@/lib/query';
import { saveFile } from '@/lib/save-file';

export interface MyGenerationsFilter {
  page: number;
  search: string;
  session: number | null;
}

export const MY_GENERATIONS_PAGE_SIZE = 10;
/** The largest page the API serves: the dashboard's counters read one such page. */
const SUMMARY_PAGE_SIZE = 100;

export type GenerationDetail = ResponseOf<typeof endpoints.generations.one>;

/** The batches the signed-in user created, newest first (the dashboard). */
export function useMyGenerations(filter: MyGenerationsFilter) {
  return useApiQuery({
    queryKey: ['generations', 'by-user', filter],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      api.call(endpoints.generations.byUser, {
        signal,
        query: { page: filter.page, per_page: MY_GENERATIONS_PAGE_SIZE, search: filter.search, session: filter.session },
      }),
  });
}

/** Counters over the user's batches: the total, and diplomas summed over the newest hundred. */
export function useMyGenerationsSummary() {
  return useApiQuery({
    queryKey: ['generations', 'by-user', 'summary'],
    queryFn: async ({ signal }) => {
      const answer = await api.call(endpoints.generations.byUser, { signal, query: { page: 1, per_page: SUMMARY_PAGE_SIZE } });
      return {
        batches: answer.meta.total,
        published: answer.data.filter((batch) => isPublished(batch.status)).length,
        diplomas: answer.data.reduce((sum, batch) => sum + batch.counts.diplomas, 0),
        partial: answer.meta.total > answer.data.length,
      };
    },
  });
}

export interface GenerationItemsFilter {
  page: number;
  search: string;
  institution: number | null;
  centre: number | null;
}

export const GENERATION_ITEMS_PAGE_SIZE = 20;

/** A batch and one page of its candidates (404 outside the user's scope). */
export function useGeneration(id: number, filter: GenerationItemsFilter) {
  return useApiQuery<GenerationDetail>({
    queryKey: ['generations', 'one', id, filter],
    // Another page of the same batch keeps showing the current one while it loads; another batch does not.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === id ? previous : undefined),
    enabled: Number.isInteger(id) && id > 0,
    // A batch being generated or anchored moves on its own: follow it.
    refetchInterval: (query) => {
      const status = query.state.data?.data.status;
      return status === 'in_progress' || (status === 'ready_for_signature' && query.state.data?.data.signature_status === 'in_progress') ? 5000 : false;
    },
    queryFn: ({ signal }) =>
      api.call(endpoints.generations.one, {
        signal,
        params: { id },
        query: { page: filter.page, per_page: GENERATION_ITEMS_PAGE_SIZE, search: filter.search, institution: filter.institution, centre: filter.centre },
      }),
  });
}

function useInvalidateGenerations() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['generations'] });
}

/** Revokes one published diploma; the answer is the server's translated message. */
export function useRevokeDiploma() {
  const invalidate = useInvalidateGenerations();
  return useMutation({
    mutationFn: async ({ diplomaId, reason }: { diplomaId: string; reason: string }) =>
      (await api.call(endpoints.revocation.revoke, { params: { id: diplomaId }, body: { reason } })).data.message,
    onSuccess: () => invalidate(),
  });
}

/** Revokes every diploma of a published batch. */
export function useRevokeGeneration() {
  const invalidate = useInvalidateGenerations();
  return useMutation({
    mutationFn: async ({ generationId, reason }: { generationId: number; reason: string }) =>
      (await api.call(endpoints.revocation.revokeGeneration, { params: { id: generationId }, body: { reason } })).data.message,
    onSuccess: () => invalidate(),
  });
}

/** Fetches a candidate's signed PDF behind the token and hands it to the browser. */
export async function downloadDiplomaPdf(item: Pick<GenerationItemView, 'id' | 'candidate_code'>): Promise<void> {
  const { blob, fileName } = await api.download(endpoints.generations.itemPdf, { params: { id: item.id } });
  saveFile(blob, fileName ?? `diplome-${item.candidate_code}.pdf`);
}

/** Cancels a batch before its signature starts; what it produced is removed. */
export function useCancelGeneration() {
  const invalidate = useInvalidateGenerations();
  return useMutation({
    mutationFn: async (generationId: number) => (await api.call(endpoints.generations.cancel, { params: { id: generationId } })).data.message,
    onSuccess: () => invalidate(),
  });
}

/** A batch's rejected candidates as a spreadsheet for the school (XLSX or CSV for French Excel, ADR 0143). */
export async function downloadRejected(generationId: number, format: 'xlsx' | 'csv'): Promise<void> {
  const { blob, fileName } = await api.download(endpoints.generations.rejectedExport, { params: { id: generationId }, query: { format } });
  saveFile(blob, fileName ?? `candidats-rejetes-lot-${generationId}.${format}`);
}

/** Fetches the zip of a batch's signed diplomas behind the token and hands it to the browser. */
export async function downloadBatchZip(generationId: number): Promise<void> {
  const { blob, fileName } = await api.download(endpoints.generations.exportZip, { params: { id: generationId } });
  saveFile(blob, fileName ?? `diplomes-lot-${generationId}.zip`);
}
