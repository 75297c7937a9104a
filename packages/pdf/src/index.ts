export {
  createDiplomaRenderer,
  CREDENTIAL_ATTACHMENT_NAME,
  type DiplomaRenderer,
  type DiplomaRendererOptions,
  type QrContents,
  type RenderOptions,
  type SignatureImages,
  type RenderStats,
} from './renderer.ts';
export {
  signPdf,
  verifyPdfSignature,
  addValidationData,
  addDocumentTimestamp,
  extendToLongTerm,
  verifyDocumentTimestamps,
  latestTimestamp,
  type HashedPrefix,
  type PdfSignatureCheck,
  type SignOptions,
  type ValidationData,
  type DocumentTimestampCheck,
  type DocumentTimestampOptions,
} from './pades.ts';
export {
  createHttpTimeStamper,
  createLocalTimeStampAuthority,
  createTimeStampRequest,
  readTimeStampResponse,
  verifyTimeStampToken,
  TimeStampError,
  MAX_TIME_STAMP_REQUEST_BYTES,
  TIME_STAMPING_EKU,
  type HttpTimeStamperOptions,
  type LocalTimeStampAuthority,
  type LocalTimeStampAuthorityOptions,
  type TimeStampInfo,
  type TimeStamper,
} from './tsp.ts';
export { createKeySigner, type Signer } from './cms.ts';
export {
  IncrementalUpdate,
  appendIncrementalUpdate,
  readCrossReference,
  readDictionaryObject,
  readPlainStream,
  addDictionaryEntry,
  type CrossReference,
  type AppendedObject,
  type IncrementalResult,
} from './incremental.ts';
export { extractAttachment } from './attachment.ts';
export {
  createDevelopmentPki,
  createDevelopmentTsa,
  createCertificateRevocationList,
  type CaMaterial,
  type DevelopmentPki,
  type DevelopmentPkiOptions,
  type DevelopmentTsa,
  type RevokedCertificate,
} from './dev-pki.ts';
export { diplomeEtatTemplate } from './default-template.ts';
export {
  diplomaTemplateSchema,
  diplomaFieldsSchema,
  parseDiplomaTemplate,
  issuerNameFields,
  signatureRoles,
  type DiplomaTemplate,
  type DiplomaTemplateInput,
  type DiplomaFields,
  type SignatureRole,
} from './template.ts';
export { loadDefaultFontFiles, fontRoles, type FontFiles, type FontRole } from './fonts.ts';
export { preparePhoto, isFittedPhoto, defaultPhotoLimits, type PhotoLimits } from './images.ts';
export { createQrMatrix, offlineQrOptions, verifyQrOptions } from './qr.ts';
