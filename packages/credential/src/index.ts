// The package's public API (browser-safe; the node:crypto signer is '@sceau/credential/node-signer').
export * from './record.ts';
export { newDiplomaId } from './ids.ts';
export { formatSerial, isSerial, normaliseSerial, MAX_SERIAL_NUMBER, SERIAL_PATTERN } from './serial.ts';
export { hashField, computeTargetHash, SALT_BYTES, HASH_BYTES } from './hashing.ts';
export {
  buildMerkleTree,
  computeMerkleRoot,
  verifyMerkleProof,
  hashLeaf,
  hashPair,
  MAX_PROOF_LENGTH,
  type MerkleTree,
} from './merkle.ts';
export * from './document.ts';
export {
  createSoftwareSigner,
  generateEs256Jwk,
  toPublicJwk,
  jwkThumbprint,
  shortKeyId,
  findJwk,
  verifyEs256,
  SHORT_KID_BYTES,
  type EcPublicJwk,
  type EcPrivateJwk,
  type Es256Signer,
  type Jwks,
} from './keys.ts';
export { signCoseSign1, verifyCoseSign1, type CoseVerification } from './cose.ts';
export * from './qr.ts';
export { bytesToHex, hexToBytesStrict, toBase64url, fromBase64url } from './bytes.ts';
