import type { CreateShareRequest, HolderDiplomaView, SharedDiplomaView, ShareLinkView, WalletOfferView } from '@sceau/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import type { ApiError } from '@/lib/http';
import { useApiQuery } from '@/lib/query';
import { saveFile } from '@/lib/save-file';

/** The holder's side (ADR 0132): my diplomas and results, my share links, what a share link opens. */

export type { HolderDiplomaView, SharedDiplomaView, ShareField, ShareLinkView, WalletOfferView } from '@sceau/contracts';
export { DEFAULT_SHARE_FIELDS, HOLDER_LIMITS, SHARE_FIELDS } from '@sceau/contracts';

const SHARES = ['holder', 'shares'] as const;

export function useMyDiplomas() {
  return useApiQuery<HolderDiplomaView[]>({
    queryKey: ['holder', 'diplomas'],
    queryFn: async ({ signal }) => (await api.call(endpoints.holder.diplomas, { signal })).data,
  });
}

export function useMyShares() {
  return useApiQuery<ShareLinkView[]>({
    queryKey: SHARES,
    queryFn: async ({ signal }) => (await api.call(endpoints.holder.shares, { signal })).data,
  });
}

export function useCreateShare() {
  const client = useQueryClient();
  return useMutation<{ share: ShareLinkView; url: string }, ApiError, CreateShareRequest>({
    mutationFn: async (body) => (await api.call(endpoints.holder.createShare, { body })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: SHARES }),
  });
}

export function useRevokeShare() {
  const client = useQueryClient();
  return useMutation<ShareLinkView, ApiError, number>({
    mutationFn: async (id) => (await api.call(endpoints.holder.revokeShare, { params: { id } })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: SHARES }),
  });
}

/** What a share link opens; a refused link is not tried again (it will not start working). */
export function useSharedDiploma(token: string) {
  return useApiQuery<SharedDiplomaView>({
    queryKey: ['shared', token],
    retry: false,
    queryFn: async ({ signal }) => (await api.call(endpoints.holder.shared, { params: { token }, signal, anonymous: true })).data,
  });
}

export const diplomaPdfUrl = (id: string) => api.url(endpoints.verification.pdf, { params: { id } });
export const sharedPhotoUrl = (token: string) => api.url(endpoints.holder.sharedPhoto, { params: { token } });
/** The SD-JWT VC presentation of what a link shows (ADR 0152): a public file, as its address gives it. */
export const sharedSdJwtUrl = (token: string) => api.url(endpoints.holder.sharedSdJwt, { params: { token } });

/**
 * One of my diplomas' full credential (every field with its salt and proof, as its PDF embeds it),
 * saved as a file. `GET /verify/{id}` gives strangers only its public fields (ADR 0134).
 */
export async function downloadCredential(id: string): Promise<void> {
  const { blob, fileName } = await api.download(endpoints.holder.credential, { params: { id } });
  saveFile(blob, fileName ?? `diplome-${id}.json`);
}

/** One of my diplomas as an Open Badges 3.0 / W3C VC 2.0 credential (ADR 0144), saved as a file. */
export async function downloadVc(id: string): Promise<void> {
  const { blob, fileName } = await api.download(endpoints.holder.vc, { params: { id } });
  saveFile(blob, fileName ?? `diplome-${id}.vc.json`);
}

/** One of my diplomas as an SD-JWT VC (ADR 0145), whose personal claims I disclose one by one; saved as a file. */
export async function downloadSdJwt(id: string): Promise<void> {
  const { blob, fileName } = await api.download(endpoints.holder.sdJwt, { params: { id } });
  saveFile(blob, fileName ?? `diplome-${id}.sd-jwt`);
}

/**
 * A credential offer for a wallet (OpenID4VCI, ADR 0146): its QR code's content and phone link
 * (`offer_uri`), good once until `expires_at`; with `txCode`, also the 6-digit code the wallet asks
 * for. Each call makes a new offer.
 */
export function useWalletOffer() {
  return useMutation<WalletOfferView, ApiError, { id: string; txCode: boolean }>({
    mutationFn: async ({ id, txCode }) => (await api.call(endpoints.holder.walletOffer, { params: { id }, body: { tx_code: txCode } })).data,
  });
}
