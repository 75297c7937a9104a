import type { CandidateCheckResult } from '@sceau/contracts';
import { endpoints } from '@/lib/endpoints';
import { useMutation } from '@tanstack/react-query';
import { createApiClient } from '@/lib/api';
import { appConfig } from '@/lib/config';
import { createHttpClient, type ApiError } from '@/lib/http';
import { currentLocale, i18n } from '@/lib/i18n';
import { translate } from '@/lib/text-keys';

/**
 * The v2 candidate check (spec section 7: "external v2 verification endpoint"): the platform's own
 * `/api/v2/verify-candidate` by default, or the exam authority's service when configured
 * (`CANDIDATE_CHECK_URL`). Never sends the user's bearer token, which is meant for this platform
 * only; the api-token identifies the form (ADR 0090).
 */
const candidateHttp = createHttpClient({
  fetch: (...args) => globalThis.fetch(...args),
  getLocale: () => currentLocale(),
  getToken: () => null,
  translate: (key) => translate(i18n, key),
  baseUrl: appConfig.candidateCheckUrl,
});
/** The definition gives the path and the answer's type; the base URL stays the configured one. */
const candidateApi = createApiClient(candidateHttp, appConfig.candidateCheckUrl);

export interface CandidateCheckInput {
  fullname: string;
  code: string;
  birthdate: string;
  classmate1: string;
  classmate2: string;
  sessionId: number;
  phone: string;
}

export function useCandidateCheck() {
  return useMutation<CandidateCheckResult, ApiError, CandidateCheckInput>({
    mutationFn: async (input) => {
      const form = new FormData();
      form.append('fullname', input.fullname);
      form.append('api-token', appConfig.candidateCheckToken);
      form.append('code', input.code);
      form.append('birthdate', input.birthdate);
      form.append('fullname_collegue_1', input.classmate1);
      form.append('fullname_collegue_2', input.classmate2);
      form.append('session_id', String(input.sessionId));
      // Optional: sent only when given.
      if (input.phone) form.append('phone', input.phone);
      return (await candidateApi.call(endpoints.verification.candidateCheck, { body: form })).data;
    },
  });
}
