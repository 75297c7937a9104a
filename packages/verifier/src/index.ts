export { verify, compareQrFields, keysServedByIssuer, CREDENTIAL_ATTACHMENT } from './verify.ts';
export { decideVerdict } from './verdict.ts';
export { registryPort, connectRegistryPort, revocationLog, type ReadOnlyChainOptions } from './chain-port.ts';
export {
  createRevocationIndex,
  withRevocationIndex,
  type RevocationIndex,
  type RevocationIndexOptions,
  type RevocationIndexStatus,
  type RevocationLogEntry,
  type RevocationLogSource,
} from './revocation-index.ts';
export { cachedRegistry, type CachedRegistry, type CachedRegistryOptions } from './cached-registry.ts';
export { createVerificationCache, verificationCacheKey, type VerificationCache, type VerificationCacheOptions } from './cache.ts';
export { readPdfQrCodes } from './pdf-qr.ts';
export { parsePdfParts, type PdfParts } from './pdf-parts.ts';
export { PDF_PARSE_LIMITS, PdfParserBusy, PdfTooComplex, assertPdfWithinLimits, measurePdf, type PdfComplexity, type PdfLimitReason, type PdfParseLimits } from './pdf-limits.ts';
export { createPdfParsePool, type PdfParsePool, type PdfParsePoolOptions, type PdfParsePoolStats } from './pdf-parse-pool.ts';
export {
  TRUST_LIST_FORMAT,
  emptyTrustList,
  formatTrustList,
  parseTrustList,
  pinnedIssuers,
  trustListEntry,
  upsertTrustListEntry,
  TrustListError,
  type PinnedIssuer,
  type TrustList,
  type TrustListEntry,
} from './trust-list.ts';
export { CHECK_CODES } from './types.ts';
export type {
  Check,
  CheckCode,
  CheckedIssuer,
  CheckName,
  CheckStatus,
  PublicDiploma,
  RegistryPort,
  RegistryRef,
  TrustedIssuer,
  Verdict,
  VerificationContext,
  VerificationInput,
  VerificationResult,
  VerificationSource,
} from './types.ts';
