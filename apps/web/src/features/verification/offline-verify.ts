/**
 * The offline check of a diploma's signed QR code (SC1:…), in the browser: the payload is read by
 * the credential package's own codec (qr-codec: base45, zlib, COSE_Sign1, CBOR claims), the key
 * its kid names is taken from the ministry's published set (cached, offline-keys.ts) and the ES256
 * signature is checked with WebCrypto, or, where WebCrypto is missing (a page served over plain
 * HTTP is not a secure context), with @noble/curves, loaded only then. ADR 0096.
 */
import { qrVerification, readQrPayload, type QrReading, type QrVerification } from '@sceau/credential/qr-codec';
import { fetchPublishedKeys, publishedKeys, type PublishedKeys } from '@/features/verification/offline-keys';

export type SignatureEngine = 'webcrypto' | 'javascript';

export interface OfflineCheck {
  verification: QrVerification;
  /** Which ECDSA implementation checked the signature (none when there was nothing to check). */
  engine: SignatureEngine | null;
  keys: PublishedKeys;
  /** Whether the keys came from the cache (no server call at all). */
  keysFromCache: boolean;
}

export interface OfflineDeps {
  /** WebCrypto's SubtleCrypto (default: the browser's, absent outside a secure context); null: none. */
  subtle?: SubtleCrypto | null;
  storage?: Storage;
}

type SignedReading = Extract<QrReading, { status: 'signed' }>;

/** BufferSource typing: a copy backed by a plain ArrayBuffer. */
const buffer = (bytes: Uint8Array) => new Uint8Array(bytes) as Uint8Array<ArrayBuffer>;

async function verifyWithWebCrypto(subtle: SubtleCrypto, reading: SignedReading): Promise<boolean> {
  const { kty, crv, x, y } = reading.jwk;
  const key = await subtle.importKey('jwk', { kty, crv, x, y }, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  return subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, buffer(reading.signature), buffer(reading.signed));
}

async function verifyWithJavaScript(reading: SignedReading): Promise<boolean> {
  const { verifyEs256 } = await import('@sceau/credential/keys');
  return verifyEs256(reading.jwk, reading.signed, reading.signature);
}

/** Checks the ES256 signature of a read payload: WebCrypto when it is there, else JavaScript. */
export async function checkSignature(reading: SignedReading, subtle: SubtleCrypto | undefined): Promise<{ valid: boolean; engine: SignatureEngine }> {
  if (subtle) {
    try {
      return { valid: await verifyWithWebCrypto(subtle, reading), engine: 'webcrypto' };
    } catch {
      // A key WebCrypto refuses to import, or a browser without ECDSA in WebCrypto: the JavaScript
      // implementation decides (it says "false" for a malformed key).
    }
  }
  return { valid: await verifyWithJavaScript(reading), engine: 'javascript' };
}

function defaultSubtle(): SubtleCrypto | undefined {
  return globalThis.isSecureContext !== false ? globalThis.crypto?.subtle : undefined;
}

/**
 * Checks a scanned SC1 text offline. Throws KeysUnavailableError only when no keys are cached and
 * they cannot be fetched; every other outcome is in `verification`.
 */
export async function checkOffline(text: string, deps: OfflineDeps = {}): Promise<OfflineCheck> {
  const subtle = deps.subtle === undefined ? defaultSubtle() : (deps.subtle ?? undefined);
  const storage = deps.storage ?? localStorage;
  let { keys, fromCache } = await publishedKeys(storage);
  let reading = readQrPayload(text, keys.jwks);
  if (reading.status === 'unknown-key' && fromCache) {
    // A key published after the cache was filled: ask once, if the network allows.
    try {
      keys = await fetchPublishedKeys(storage);
      fromCache = false;
      reading = readQrPayload(text, keys.jwks);
    } catch {
      // Offline: the cached keys are all there is; the payload stays "unknown key".
    }
  }
  if (reading.status !== 'signed') return { verification: reading, engine: null, keys, keysFromCache: fromCache };
  const { valid, engine } = await checkSignature(reading, subtle);
  return { verification: qrVerification(reading, valid), engine, keys, keysFromCache: fromCache };
}
