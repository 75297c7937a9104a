export {
  createDiplomaRenderer,
  CREDENTIAL_ATTACHMENT_NAME,
  type DiplomaRenderer,
  type DiplomaRendererOptions,
  type QrContents,
  type SignatureImages,
  type RenderStats,
} from './renderer.ts';
export { signPdf, verifyPdfSignature, type HashedPrefix, type PdfSignatureCheck, type SignOptions } from './pades.ts';
export { createKeySigner, type Signer } from './cms.ts';
export {
  IncrementalUpdate,
  appendIncrementalUpdate,
  readCrossReference,
  readDictionaryObject,
  addDictionaryEntry,
  type CrossReference,
  type AppendedObject,
  type IncrementalResult,
} from './incremental.ts';
export { extractAttachment } from './attachment.ts';
export { createDevelopmentPki, type DevelopmentPki, type DevelopmentPkiOptions } from './dev-pki.ts';
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
