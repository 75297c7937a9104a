/**
 * `@sceau/vc`: a Sceau diploma as a W3C Verifiable Credential 2.0 / Open Badges 3.0
 * `OpenBadgeCredential`, secured with a Data Integrity proof (`ecdsa-rdfc-2019`, P-256) by the
 * ministry's key, its revocation in the ministry's status lists, the ministry's `did:web`, and the
 * verification of all of these with local contexts only (ADR 0144).
 */
export { CONTEXTS, CONTEXT_URLS } from './contexts.ts';
export { buildDidDocument, didWebDocumentUrl, didWebFor, multikeyOf, verificationMethodId, type DidDocument, type IssuerKey, type VerificationMethod } from './did-web.ts';
export { createDocumentLoader, DocumentNotFoundError, type DocumentLoader, type LoaderOptions, type RemoteDocument } from './document-loader.ts';
export {
  buildOpenBadgeCredential,
  issuerProfile,
  issuerProfileDocument,
  type DiplomaAchievement,
  type DiplomaCredentialInput,
  type DiplomaHolder,
  type IssuerProfile,
} from './open-badge.ts';
export { proofSigner, secureCredential, secureOpenBadgeCredential, verificationSuite, type ProofSigner } from './sign.ts';
export {
  bitstringEntry,
  buildStatusListCredential,
  decodeBitstring,
  encodeBitstring,
  encodeTokenStatusList,
  isoSeconds,
  MAX_STATUS_LIST_BYTES,
  STATUS_LIST_SIZE,
  statusEntry,
  StatusListError,
  tokenStatusListEntry,
  type BitstringStatusListEntry,
} from './status-list.ts';
export { MAX_CREDENTIAL_CHARS, verifyOpenBadgeCredential, type VcCheck, type VcCheckName, type VcCheckStatus, type VcVerification, type VerifyOptions } from './verify.ts';
