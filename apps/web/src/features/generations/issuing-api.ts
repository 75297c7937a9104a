import type { GenerationStatus, GenerationType, ImportationStatus, ImportRowError, SignatureStatus, TemplateView } from '@sceau/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appConfig } from '@/lib/config';
import { http } from '@/lib/http';
import { useApiQuery } from '@/lib/query';
import { saveFile } from '@/lib/save-file';

/**
 * The issuing steps' calls (spec section 7 "Generation"): templates (step 1), the student list's
 * check and import (step 2), the national results, the launch with a one-time code, the
 * generation's progress and the official signature.
 */

export type TemplateDetail = TemplateView & { design: Record<string, unknown> };
export interface GenerationTypeOption {
  code: GenerationType;
  label: string;
}

/** The country's Diplôme d'État template (its owner gives the country's id). */
export function useCountryTemplate() {
  return useApiQuery({
    queryKey: ['templates', 'drc'],
    queryFn: async ({ signal }) => (await http.get<{ data: TemplateDetail }>('/templates/drc', { signal })).data,
  });
}

/** An owner's templates (`{id}_country` / `{id}_institution`), or every template the user may use (null). */
export function useTemplates(owner: string | null, enabled = true) {
  return useApiQuery({
    queryKey: ['templates', 'list', owner],
    enabled,
    queryFn: async ({ signal }) => (await http.get<{ data: TemplateView[] }>('/templates', { signal, query: { owner } })).data,
  });
}

export function useTemplate(id: number) {
  return useApiQuery({
    queryKey: ['templates', 'one', id],
    enabled: Number.isInteger(id) && id > 0,
    queryFn: async ({ signal }) => (await http.get<{ data: TemplateDetail }>(`/templates/${id}`, { signal })).data,
  });
}

export function useGenerationTypes() {
  return useApiQuery({
    queryKey: ['generations', 'types'],
    queryFn: async ({ signal }) => (await http.get<{ data: GenerationTypeOption[] }>('/generations/types', { signal })).data,
  });
}

// ---------------------------------------------------------------- step 2: the list

export interface ImportCheckResult {
  generation_id: number;
  rows: number;
  valid_rows: number;
  errors: ImportRowError[];
  error_count: number;
  format: 'csv' | 'xlsx';
  photos: { files: number; matched: number } | null;
}

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
  return (await http.post<{ data: ImportCheckResult }>('/check-import-file', form)).data;
}

/** Queues the import of a checked draft; the answer is the importation to follow. */
export async function startImport(generationId: number, title: string): Promise<number> {
  return (await http.post<{ data: { importation_id: number } }>('/start-import-process', { generation_id: generationId, title })).data.importation_id;
}

export interface ImportationTracking {
  id: number;
  generation_id: number;
  status: ImportationStatus;
  rows_total: number;
  rows_done: number;
  percent: number;
  error: string | null;
}

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
    queryFn: async ({ signal }) => (await http.get<{ data: ImportationTracking }>(`/importations/${importationId}/tracking`, { signal })).data,
  });
}

/** The example list, fetched behind the token (CSV or XLSX). */
export async function downloadImportExample(format: 'csv' | 'xlsx'): Promise<void> {
  const { blob, fileName } = await http.download('/import/example', { query: format === 'xlsx' ? { format } : {} });
  saveFile(blob, fileName ?? `exemple-liste-candidats.${format}`);
}

// ---------------------------------------------------------------- national results

export interface NationalResult {
  candidate_code: string;
  last_name: string;
  middle_name: string | null;
  first_name: string | null;
  birth_date: string;
  birth_place: string;
  gender: 'M' | 'F';
  school: { code: string; name: string | null };
  centre: { code: string; name: string | null };
  option: { code: string; name: string | null };
  percentage: number;
  passed: boolean;
  session: { id: number; name: string; year: number };
}

export async function findNationalResult(matricule: string, session: number): Promise<NationalResult> {
  return (await http.post<{ data: NationalResult }>(`/generations/find-${appConfig.product}`, { matricule, session })).data;
}

export interface FromRegistryAnswer {
  generation_id: number;
  importation_id: number;
  rows: number;
  skipped: number;
}

export async function createBatchFromRegistry(input: { template_id: number; session_id: number; province_id: number; title?: string }): Promise<FromRegistryAnswer> {
  return (await http.post<{ data: FromRegistryAnswer }>(`/generations/import/from-${appConfig.product}cd`, input)).data;
}

// ---------------------------------------------------------------- launch, progress, signature

export interface LaunchCodeSent {
  message: string;
  channel: 'sms' | 'email';
  resend_in: number;
  expires_in: number;
}

export async function sendLaunchCode(generationId: number): Promise<LaunchCodeSent> {
  return (await http.get<{ data: LaunchCodeSent }>('/generations/send-otp', { query: { generation_id: generationId } })).data;
}

export async function verifyLaunchCode(generationId: number, code: string): Promise<string> {
  return (await http.post<{ data: { message: string } }>('/generations/verify-otp', { code, generation_id: generationId })).data.message;
}

export function useStartGeneration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (generationId: number) => (await http.post<{ data: { message: string } }>('/start-generation-process', { generation_id: generationId })).data.message,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['generations'] }),
  });
}

export interface GenerationProgressStatus {
  id: number;
  status: GenerationStatus;
  signature_status: SignatureStatus;
  progress: { done: number; total: number; percent: number };
  last_error: string | null;
}

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
    queryFn: async ({ signal }) => (await http.get<{ data: GenerationProgressStatus }>(`/generations/${id}/status`, { signal })).data,
  });
}

export function useApplySignature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (generationId: number) => (await http.post<{ data: { message: string } }>(`/generations/${generationId}/apply-signature`)).data.message,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['generations'] }),
  });
}
