import type { BroadcastView } from '@sceau/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import { useApiQuery } from '@/lib/query';

/** Distribution of a published batch: its broadcast to candidates, and sending by e-mail. */

const broadcastKey = (generationId: number) => ['generations', 'broadcast', generationId] as const;

/** The batch's latest broadcast (null before the first); followed while it runs. */
export function useLatestBroadcast(generationId: number, enabled: boolean) {
  return useApiQuery<BroadcastView | null>({
    queryKey: broadcastKey(generationId),
    enabled,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'queued' || status === 'running' ? 3000 : false;
    },
    queryFn: async ({ signal }) => (await api.call(endpoints.distribution.latestBroadcast, { params: { id: generationId }, signal })).data,
  });
}

/** Queues a broadcast; resolves to the server's message (the spec's). */
export function useBroadcast(generationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await api.call(endpoints.distribution.broadcast, { params: { id: generationId } })).data,
    onSuccess: ({ broadcast }) => {
      queryClient.setQueryData(broadcastKey(generationId), broadcast);
      // The batch's history now holds the request.
      void queryClient.invalidateQueries({ queryKey: ['generations', 'history', generationId] });
    },
  });
}

/** E-mails one diploma (its PDF attached); resolves to the server's message. */
export async function sendDiplomaByMail(itemId: number, email: string): Promise<string> {
  return (await api.call(endpoints.distribution.itemByMail, { body: { item_id: itemId, email } })).data.message;
}

/** Queues the batch's zip for an e-mail; resolves to the server's message. */
export async function sendArchiveByMail(generationId: number, email: string): Promise<string> {
  return (await api.call(endpoints.distribution.archiveByMail, { body: { generation_id: generationId, email } })).data.message;
}
