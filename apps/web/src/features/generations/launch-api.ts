import type { LaunchSignatures, SignatureKind, StartGenerationRequest } from '@sceau/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import { useApiQuery } from '@/lib/query';

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
