import type { SignatureKind, SignatureView } from '@sceau/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@/lib/http';
import { useApiQuery } from '@/lib/query';

export type SignaturesState = Record<SignatureKind, SignatureView | null>;
/** What the signed-in user may do on /settings (official signatures are national: the server's policy). */
export type SignatureAbilities = { add: boolean; replace: boolean; remove: boolean };

const STATE_KEY = ['signatures', 'state'];

/** The signatures on file and, sent with them, what the user may do on them. */
export function useSignaturesState() {
  return useApiQuery({
    queryKey: STATE_KEY,
    queryFn: async () => {
      const answer = await http.get<{ data: SignaturesState; abilities: SignatureAbilities }>('/signatures/state');
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
      return (await http.post<{ data: { message: string } }>('/signatures', form)).data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STATE_KEY }),
  });
}

export function useDeleteSignature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (kind: SignatureKind) => (await http.delete<{ data: { message: string } }>(`/signatures/${kind}`)).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STATE_KEY }),
  });
}
