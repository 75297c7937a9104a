/**
 * The trust list shipped with the verifier (`packages/verifier/trust-list.json`), bundled with this
 * code: the offline QR check pins its issuers and their keys, so that neither the keys a server
 * answers nor those kept in this browser can add one (ADR 0133).
 */
import shipped from '@sceau/verifier/trust-list.json';
import { parseTrustList, pinnedIssuers, type PinnedIssuer } from '@sceau/verifier/trust-list';

export function bundledPinnedIssuers(): PinnedIssuer[] {
  return pinnedIssuers(parseTrustList(shipped, 'trust-list.json'));
}
