import type { ResponseOf, SignatureKind } from '@sceau/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import { useApiQuery } from '@/lib/query';

type StateAnswer = ResponseOf<typeof endpoints.signatures.state>;
export type SignaturesState = StateAnswer['data'];
/** What the signed-in user may do on /settings (official signatures are national: the server's policy). */
export type SignatureAbilities = StateAnswer['abilities'];

const STATE_KEY = ['signatures', 'state'];

/** The signatures on file and, sent with them, what the user may do on them. */
export function useSignaturesState() {
  return useApiQuery({
    queryKey: STATE_KEY,
    queryFn: async () => {
      const answer = await api.call(endpoints.signatures.state);
      return { signatures: answer.data, abilities: answer.abilities };
    },
  });
}

/** Multipart: kind, name, title and the image (spec section 7). */
export function useSaveSignature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { kind: SignatureKind; name: string; title: string; image: File }) => {
      const form = new FormData();
      form.append('kind', input.kind);
      form.append('name', input.name);
      form.append('title', input.title);
      form.append('image', input.image, input.image.name);
      return (await api.call(endpoints.signatures.save, { body: form })).data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STATE_KEY }),
  });
}

export function useDeleteSignature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (kind: SignatureKind) => (await api.call(endpoints.signatures.remove, { params: { kind } })).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STATE_KEY }),
  });
}
