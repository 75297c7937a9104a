/**
 * The portable forms of a diploma on /verification (ADR 0145): its SD-JWT VC (a `.sd-jwt` or
 * `.txt` file, or the compact text pasted in the link field) and its W3C VC / Open Badges JSON.
 * The server verifies them; here they are only recognised and bounded before being sent.
 */

/** The server refuses a portable form past this size; the page says so before sending it. */
export const MAX_PORTABLE_BYTES = 256 * 1024;

const SD_JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+~[A-Za-z0-9_.~-]*$/;
/** Its beginning, enough to tell the form of a text too large to be read whole. */
const SD_JWT_START = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+~/;

/** An SD-JWT in its compact form (`<jwt>~<disclosure>~…~`). */
export function isSdJwtText(text: string): boolean {
  return SD_JWT.test(text.trim());
}

/** Whether the beginning of a text is that of a portable form (an SD-JWT, or a JSON with `@context`). */
function startsLikePortable(head: string): boolean {
  const text = head.trimStart();
  return SD_JWT_START.test(text) || (text.startsWith('{') && text.includes('"@context"'));
}

/** A chosen file that is a portable form larger than the server reads (only its first 4 KB are read here). */
export async function isPortableTooLarge(file: File): Promise<boolean> {
  if (file.size <= MAX_PORTABLE_BYTES) return false;
  if (/\.(sd-jwt|jwt)$/i.test(file.name)) return true;
  return startsLikePortable(await file.slice(0, 4096).text());
}

/**
 * Text pasted in the link field that is a portable form, as the file the server reads; null for
 * anything else (a link, a number, a QR text). `too_large` past the bound.
 */
export function pastedPortable(text: string): File | 'too_large' | null {
  const trimmed = text.trim();
  const sdJwt = SD_JWT_START.test(trimmed);
  const json = trimmed.startsWith('{');
  if (!sdJwt && !json) return null;
  if (new Blob([trimmed]).size > MAX_PORTABLE_BYTES) return 'too_large';
  if (sdJwt) return isSdJwtText(trimmed) ? new File([trimmed], 'pasted.sd-jwt', { type: 'application/dc+sd-jwt' }) : null;
  return trimmed.includes('"@context"') ? new File([trimmed], 'pasted.json', { type: 'application/json' }) : null;
}
