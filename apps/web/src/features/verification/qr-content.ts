/**
 * What a diploma's QR code holds, once read: the verification link (…/verify/{id}) or the signed
 * offline payload (SC1:…); and its verification by the API (the link by the diploma's id, the
 * payload through POST /generations/verify as `cert_url`, as the link field sends it).
 */
import { endpoints } from '@/lib/endpoints';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { ApiError } from '@/lib/http';
import { isValidDiplomaId, type VerificationResultData } from '@/features/verification/verification-api';

export type QrContent =
  /** The printed verification link; verified by the diploma's id. */
  | { kind: 'link'; text: string; id: string }
  /** The signed payload; verifiable offline against the ministry's keys. */
  | { kind: 'signed'; text: string };

/** "SC1:" and base45 (RFC 9285), whose alphabet has the space: no trimming but of line breaks. */
const SIGNED_PAYLOAD = /^SC1:[0-9A-Z $%*+\-./:]+$/;

/** The QR's content if it is one of a diploma's two codes, else null (another QR code). */
export function classifyQrText(raw: string): QrContent | null {
  const signed = raw.replace(/^[\r\n]+|[\r\n]+$/g, '');
  if (SIGNED_PAYLOAD.test(signed)) return { kind: 'signed', text: signed };
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const id = /\/verify\/([^/?#]+)\/?$/.exec(url.pathname)?.[1];
  return id && isValidDiplomaId(id) ? { kind: 'link', text, id } : null;
}

export async function verifyQrContent(content: QrContent): Promise<VerificationResultData> {
  if (content.kind === 'link') return (await api.call(endpoints.verification.verify, { params: { id: content.id } })).data;
  const form = new FormData();
  form.append('cert_url', content.text);
  return (await api.call(endpoints.verification.verifyDocument, { body: form })).data;
}

export function useVerifyQr() {
  return useMutation<VerificationResultData, ApiError, QrContent>({ mutationFn: verifyQrContent });
}
