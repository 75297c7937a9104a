import type { ContactRequest } from '@sceau/contracts';
import { useMutation } from '@tanstack/react-query';
import { http, type ApiError } from '@/lib/http';

/** `POST /contact`: the message is stored and e-mailed to the platform's team. */
export function useSendContactMessage() {
  return useMutation<{ message: string }, ApiError, ContactRequest>({
    mutationFn: async (body) => (await http.post<{ data: { received: true; message: string } }>('/contact', body, { anonymous: true })).data,
  });
}
