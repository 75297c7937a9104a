import type { LaunchSignatures, SignatureKind, StartGenerationRequest } from '@sceau/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import { useApiQuery } from '@/lib/query';
import { saveFile } from '@/lib/save-file';

/** The official signatures a launch may put on the batch, the batch's earlier choice, and whether it is fixed. */
export function useLaunchSignatures(generationId: number) {
  return useApiQuery<LaunchSignatures>({
    queryKey: ['generations', 'launch-signatures', generationId],
    staleTime: 0,
    queryFn: async ({ signal }) => (await api.call(endpoints.generations.launchSignatures, { params: { id: generationId }, signal })).data,
  });
}

/** Launches the generation with the chosen signatures (none sent: the server's default, see the contract). */
export function useLaunchGeneration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ generationId, signatures }: { generationId: number; signatures?: SignatureKind[] }) => {
      const body: StartGenerationRequest = { generation_id: generationId, ...(signatures ? { signatures } : {}) };
      return (await api.call(endpoints.generations.start, { body })).data.message;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['generations'] }),
  });
}

/**
 * Fetches a "SPÉCIMEN" preview of a candidate's diploma (the batch's first candidate when `itemId`
 * is absent), with the signatures being chosen, and hands it to the browser.
 */
export async function downloadSpecimen(generationId: number, options: { itemId?: number; signatures?: SignatureKind[] } = {}): Promise<void> {
  const query = { ...(options.itemId ? { item: options.itemId } : {}), ...(options.signatures ? { signatures: options.signatures.join(',') } : {}) };
  const { blob, fileName } = await api.download(endpoints.generations.specimen, { params: { id: generationId }, query });
  saveFile(blob, fileName ?? `specimen-${generationId}.pdf`);
}
