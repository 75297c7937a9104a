import { endpoints } from '@/lib/endpoints';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { ApiError } from '@/lib/http';
import { normaliseLink, type VerificationResultData } from '@/features/verification/verification-api';

/**
 * `POST /generations/verify` (multipart `cert_url` or `cert_document`), for /verification only:
 * kept apart from verification-api.ts so that /verify/{id} does not download the mutation code.
 */
export type VerifyInput = { kind: 'link'; link: string } | { kind: 'document'; file: File };

export function useVerifyDocument() {
  return useMutation<VerificationResultData, ApiError, VerifyInput>({
    mutationFn: async (input) => {
      const form = new FormData();
      if (input.kind === 'link') form.append('cert_url', normaliseLink(input.link));
      else form.append('cert_document', input.file, input.file.name);
      return (await api.call(endpoints.verification.verifyDocument, { body: form })).data;
    },
  });
}
