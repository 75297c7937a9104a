import { DIPLOMA_ID_PATTERN, type PublicDiplomaView, type VerificationCheck, type VerificationResultData } from '@sceau/contracts';
import { endpoints } from '@/lib/endpoints';
import { api } from '@/lib/api';
import { useApiQuery } from '@/lib/query';
import { serverVerdict } from '@/features/verification/server-verdict';
import { isOffline } from '@/lib/online';

export { VERDICTS, type Verdict, type VerificationCheck, type VerificationResultData } from '@sceau/contracts';
export type CheckStatus = VerificationCheck['status'];
export type PublicDiploma = PublicDiplomaView;

/** The server refuses larger documents; checked here too, before the file travels on a slow network. */
export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;
/** What the server reads (by content): our PDF, the credential JSON or W3C VC, an SD-JWT VC, or a text file with the QR's content. */
export const DOCUMENT_ACCEPT = '.pdf,.json,.txt,.sd-jwt,application/pdf,application/json,text/plain,application/dc+sd-jwt';

/** The offline QR's text: `SC1:` then base45, whose alphabet includes the space (ADR 0011). */
const QR_TEXT = /^SC1:[0-9A-Z $%*+\-./:]+$/;

/** The field's value as it is sent (base45 never ends with its space, ADR 0011: trimming is safe). */
export function normaliseLink(value: string): string {
  return value.trim();
}

/**
 * What the link field accepts: a web address (the server says whether it leads to a diploma), a
 * diploma's number, or the text of the offline QR code (`SC1:…`).
 */
export function isAcceptableLink(value: string): boolean {
  const text = normaliseLink(value);
  if (DIPLOMA_ID_PATTERN.test(text) || QR_TEXT.test(text)) return true;
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export function isValidDiplomaId(value: string | undefined): value is string {
  return !!value && DIPLOMA_ID_PATTERN.test(value);
}

export function useVerifyById(id: string, enabled = true) {
  return useApiQuery<VerificationResultData>({
    queryKey: ['verify', id],
    enabled,
    // The page the server wrote carries its answer (ADR 0128).
    initialData: () => serverVerdict(id)?.data,
    initialDataUpdatedAt: () => serverVerdict(id)?.checkedAt,
    // A server error is shown at once, with its retry button; a dropped connection is tried again
    // once, unless the browser is offline (ADR 0127).
    retry: (failureCount, error) => failureCount < 1 && error.status === 0 && !isOffline(),
    queryFn: async ({ signal }) => (await api.call(endpoints.verification.verify, { params: { id }, signal })).data,
  });
}
