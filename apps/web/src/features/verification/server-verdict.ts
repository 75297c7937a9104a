import type { VerificationResultData } from '@/features/verification/verification-api';

/** The element the server writes into /verify/{id}'s HTML (apps/api verification/verify-page.ts). */
const ELEMENT_ID = 'sceau-verify-data';

export interface ServerVerdict {
  data: VerificationResultData;
  /** When the server verified it (ms since the epoch). */
  checkedAt: number;
}

/**
 * The answer the server verified and wrote into the page (ADR 0128), for this diploma only: the SPA
 * starts from it, so taking over the page costs no second request and shows no spinner.
 */
export function serverVerdict(id: string): ServerVerdict | null {
  if (typeof document === 'undefined') return null;
  const element = document.getElementById(ELEMENT_ID);
  if (!element || element.dataset.id !== id) return null;
  try {
    const { checked_at: checkedAt, ...data } = JSON.parse(element.textContent ?? '') as VerificationResultData & { checked_at?: string };
    const at = checkedAt ? Date.parse(checkedAt) : Number.NaN;
    return { data, checkedAt: Number.isNaN(at) ? Date.now() : at };
  } catch {
    return null;
  }
}
