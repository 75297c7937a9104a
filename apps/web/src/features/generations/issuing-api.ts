import { type GenerationProgress, registryName, type ResponseOf } from '@sceau/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import { appConfig } from '@/lib/config';
import { useApiQuery } from '@/lib/query';
import { saveFile } from '@/lib/save-file';

/**
 * The issuing steps' calls (spec section 7 "Generation"): templates (step 1), the student list's
 * check and import (step 2), the national results, the launch with a one-time code, the
 * generation's progress and the official signature.
 */

export type TemplateDetail = ResponseOf<typeof endpoints.templates.one>['data'];
export type GenerationTypeOption = ResponseOf<typeof endpoints.templates.generationTypes>['data'][number];

/** The country's Diplôme d'État template (its owner gives the country's id). */
export function useCountryTemplate() {
  return useApiQuery({
    queryKey: ['templates', 'drc'],
    queryFn: async ({ signal }) => (await api.call(endpoints.templates.country, { signal })).data,
  });
}

/** An owner's templates (`{id}_country` / `{id}_institution`), or every template the user may use (null). */
export function useTemplates(owner: string | null, enabled = true) {
  return useApiQuery({
    queryKey: ['templates', 'list', owner],
    enabled,
    queryFn: async ({ signal }) => (await api.call(endpoints.templates.list, { signal, query: { owner: owner ?? undefined } })).data,
  });
}

export function useTemplate(id: number) {
  return useApiQuery({
    queryKey: ['templates', 'one', id],
    enabled: Number.isInteger(id) && id > 0,
    queryFn: async ({ signal }) => (await api.call(endpoints.templates.one, { params: { id }, signal })).data,
  });
}

export function useGenerationTypes() {
  return useApiQuery({
    queryKey: ['generations', 'types'],
    queryFn: async ({ signal }) => (await api.call(endpoints.templates.generationTypes, { signal })).data,
  });
}

// ---------------------------------------------------------------- step 2: the list

export type ImportCheckResult = ResponseOf<typeof endpoints.imports.checkFile>['data'];

export interface CheckImportInput {
  templateId: number;
  sessionId: number;
  provinceId: number;
  generationType?: string | null;
  file: File;
  photos?: File | null;
  /** The draft of an earlier check: its list is replaced. */
  generationId?: number | null;
}

/** `POST /check-import-file` (multipart): nothing is imported, every problem comes back. */
export async function checkImportFile(input: CheckImportInput): Promise<ImportCheckResult> {
  const form = new FormData();
  form.append('template', String(input.templateId));
  form.append('session_id', String(input.sessionId));
  form.append('province_id', String(input.provinceId));
  if (input.generationType) form.append('generation_type', input.generationType);
  if (input.generationId) form.append('generation_id', String(input.generationId));
  form.append('file', input.file, input.file.name);
  if (input.photos) form.append('photos', input.photos, input.photos.name);
  return (await api.call(endpoints.imports.checkFile, { body: form })).data;
}

/** Queues the import of a checked draft; the answer is the importation to follow. */
export async function startImport(generationId: number, title: string, listId?: string): Promise<number> {
  return (await api.call(endpoints.imports.startImport, { body: { generation_id: generationId, title, ...(listId ? { list_id: listId } : {}) } })).data.importation_id;
}

export type ImportationTracking = ResponseOf<typeof endpoints.imports.tracking>['data'];

/** An import's progress, polled every second until it completed or failed. */
export function useImportTracking(importationId: number | null) {
  return useApiQuery<ImportationTracking>({
    queryKey: ['importations', importationId, 'tracking'],
    enabled: importationId !== null,
    staleTime: 0,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'completed' || status === 'failed' ? false : 1000;
    },
    queryFn: async ({ signal }) => (await api.call(endpoints.imports.tracking, { params: { id: importationId! }, signal })).data,
  });
}

/** The example list, fetched behind the token (CSV or XLSX). */
export async function downloadImportExample(format: 'csv' | 'xlsx'): Promise<void> {
  const { blob, fileName } = await api.download(endpoints.imports.example, { query: format === 'xlsx' ? { format } : {} });
  saveFile(blob, fileName ?? `exemple-liste-candidats.${format}`);
}

/** Every error of a draft's list check as a spreadsheet for the school (XLSX or CSV for French Excel, ADR 0143). */
export async function downloadCheckErrors(generationId: number, format: 'xlsx' | 'csv'): Promise<void> {
  const { blob, fileName } = await api.download(endpoints.imports.checkErrors, { params: { id: generationId }, query: { format } });
  saveFile(blob, fileName ?? `erreurs-liste-${generationId}.${format}`);
}

// ---------------------------------------------------------------- national results

export type NationalResult = ResponseOf<typeof endpoints.imports.findResult>['data'];

export async function findNationalResult(matricule: string, session: number): Promise<NationalResult> {
  return (await api.call(endpoints.imports.findResult, { params: { product: appConfig.product }, body: { matricule, session } })).data;
}

export type FromRegistryAnswer = ResponseOf<typeof endpoints.imports.fromRegistry>['data'];

export async function createBatchFromRegistry(input: { template_id: number; session_id: number; province_id: number; title?: string }): Promise<FromRegistryAnswer> {
  return (await api.call(endpoints.imports.fromRegistry, { params: { registry: registryName(appConfig.product) }, body: input })).data;
}

// ---------------------------------------------------------------- launch, progress, signature

export type LaunchCodeSent = ResponseOf<typeof endpoints.generations.sendLaunchCode>['data'];

export async function sendLaunchCode(generationId: number): Promise<LaunchCodeSent> {
  return (await api.call(endpoints.generations.sendLaunchCode, { query: { generation_id: generationId } })).data;
}

export async function verifyLaunchCode(generationId: number, code: string): Promise<string> {
  return (await api.call(endpoints.generations.verifyLaunchCode, { body: { code, generation_id: generationId } })).data.message;
}

export type GenerationProgressStatus = GenerationProgress;

/** Still moving on its own: being generated, or being anchored. */
export function isMoving(state: Pick<GenerationProgressStatus, 'status' | 'signature_status'> | undefined): boolean {
  if (!state) return true;
  return state.status === 'in_progress' || (state.status === 'ready_for_signature' && state.signature_status === 'in_progress');
}

export const STATUS_POLL_MS = 1500;

/** A batch's status and progress, polled while it moves on its own (or while `follow` says so). */
export function useGenerationStatus(id: number, follow: boolean) {
  return useApiQuery<GenerationProgressStatus>({
    queryKey: ['generations', 'status', id],
    enabled: Number.isInteger(id) && id > 0,
    staleTime: 0,
    refetchInterval: (query) => (follow || isMoving(query.state.data) ? STATUS_POLL_MS : false),
    queryFn: async ({ signal }) => (await api.call(endpoints.generations.status, { params: { id }, signal })).data,
  });
}

export function useApplySignature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (generationId: number) => (await api.call(endpoints.generations.applySignature, { params: { id: generationId } })).data.message,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['generations'] }),
  });
}
