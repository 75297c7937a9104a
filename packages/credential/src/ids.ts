import { randomBytes, toBase64url } from './bytes.ts';

/** A fresh diploma id: 128 random bits, base64url without padding (22 characters). */
export function newDiplomaId(): string {
  return toBase64url(randomBytes(16));
}
