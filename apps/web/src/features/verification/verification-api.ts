import { useApiQuery } from '@/lib/query';
import { http } from '@/lib/http';

export const VERDICTS = ['authentic', 'revoked', 'altered', 'unknown', 'unpublished', 'incomplete'] as const;
export type Verdict = (typeof VERDICTS)[number];
export type CheckStatus = 'passed' | 'failed' | 'not-checked';

/** One check as the API reports it; `title` and `message` are already in the reader's language. */
export interface VerificationCheck {
  name: string;
  status: CheckStatus;
  code: string;
  title: string;
  message: string;
  details: Record<string, unknown> | null;
  /** The explorer's page of the anchoring transaction (`anchored` only, when configured). */
  link?: string;
}

export interface PublicDiploma {
  id: string;
  last_name?: string;
  middle_name?: string;
  first_name?: string;
  birth_date?: string;
  option?: string;
  school?: string;
  centre?: string;
  session?: string;
  session_year?: number;
  percentage?: number;
  issue_date?: string;
  issuer?: { id: string; name: string };
  hidden_fields?: string[];
}

export interface VerificationResultData {
  verdict: Verdict;
  verdict_label: string;
  source: 'pdf' | 'credential' | 'qr' | 'link';
  checks: VerificationCheck[];
  diploma: PublicDiploma | null;
  credential?: Record<string, unknown> | null;
}

export interface Envelope {
  data: VerificationResultData;
}

/** The server refuses larger documents; checked here too, before the file travels on a slow network. */
export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;
/** What the server reads (by content): our PDF, the credential JSON, or a text file with the QR's content. */
export const DOCUMENT_ACCEPT = '.pdf,.json,.txt,application/pdf,application/json,text/plain';

const DIPLOMA_ID = /^[A-Za-z0-9_-]{22}$/;
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
  if (DIPLOMA_ID.test(text) || QR_TEXT.test(text)) return true;
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export function isValidDiplomaId(value: string | undefined): value is string {
  return !!value && DIPLOMA_ID.test(value);
}

export function useVerifyById(id: string, enabled = true) {
  return useApiQuery<VerificationResultData>({
    queryKey: ['verify', id],
    enabled,
    queryFn: async ({ signal }) => (await http.get<Envelope>(`/verify/${encodeURIComponent(id)}`, { signal })).data,
  });
}
