import type { ContactRequest } from '@sceau/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import type { ApiError } from '@/lib/http';

/** `POST /contact`: the message is stored and e-mailed to the platform's team. */
export function useSendContactMessage() {
  return useMutation<{ message: string }, ApiError, ContactRequest>({
    mutationFn: async (body) => (await api.call(endpoints.contact.send, { body, anonymous: true })).data,
  });
}
