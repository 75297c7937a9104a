// A diploma's SD-JWT VC (ADR 0145): claims and type metadata, issuance, presentation, verification.
export * from './claims.ts';
export {
  issueDiplomaSdJwt,
  presentDiplomaSdJwt,
  publicJwkOf,
  jwtSigner,
  type IssueOptions,
  type KeyBindingOptions,
  type PublicJwk,
  type RawEs256Signer,
  type StatusReference,
} from './issue.ts';
export * from './verify.ts';
export { carriesPrivateKey, PRIVATE_JWK_MEMBERS } from './public-jwk.ts';
