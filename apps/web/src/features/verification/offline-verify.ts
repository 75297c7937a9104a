/**
 * The offline check of a diploma's signed QR code (SC1:…), in the browser: the payload is read by
 * the credential package's own codec (qr-codec: base45, zlib, COSE_Sign1, CBOR claims), the key
 * its kid names is taken from the issuers the bundled trust list pins (ADR 0133), or, when it pins
 * none, from the set this platform publishes (cached, offline-keys.ts), and the ES256 signature is
 * checked with WebCrypto, or, where WebCrypto is missing (a page served over plain HTTP is not a
 * secure context), with @noble/curves, loaded only then. ADR 0096.
 */
import { qrVerification, readQrPayload, type QrReading, type QrVerification } from '@sceau/credential/qr-codec';
import type { PinnedIssuer } from '@sceau/verifier/trust-list';
import { appConfig } from '@/lib/config';
import { fetchPublishedKeys, publishedKeys, type PublishedKeys } from '@/features/verification/offline-keys';
import { bundledPinnedIssuers } from '@/features/verification/offline-trust-list';

export type SignatureEngine = 'webcrypto' | 'javascript';

export interface OfflineIssuer {
  id: string;
  name: string;
  nameEn?: string;
  /** A development platform's keys. */
  development?: boolean;
}

export interface OfflineCheck {
  verification: QrVerification;
  /** Which ECDSA implementation checked the signature (none when there was nothing to check). */
  engine: SignatureEngine | null;
  /** The keys this platform publishes, when the trust list pins no issuer; null: the pinned keys. */
  keys: PublishedKeys | null;
  /** Whether the keys came from the cache (no server call at all). */
  keysFromCache: boolean;
  /** Whether the keys are the trust list's (pinned) or, when it pins no issuer, those this platform publishes. */
  pinned: boolean;
  /** The issuers whose keys were accepted: the pinned ones, or this platform's issuer. */
  expected: OfflineIssuer[];
  /** The issuer whose key signed the code (pinned, or this platform's); null when no known key did. */
  issuer: OfflineIssuer | null;
  /**
   * When the key that signed the code was retired (its `retired_at`, ADR 0136), or null. A code
   * signed after that is a forgery; offline nothing dates the code (the batch's anchoring time is
   * on the chain), so such a code is never called valid here: it must be checked online.
   */
  keyRetiredAt: string | null;
}

/** The signing key's retirement time, when the key set publishes one. */
function retiredAtOf(reading: QrReading): string | null {
  if (reading.status !== 'signed') return null;
  const retiredAt = (reading.jwk as { retired_at?: unknown }).retired_at;
  return typeof retiredAt === 'string' && retiredAt !== '' ? retiredAt : null;
}

export interface OfflineDeps {
  /** WebCrypto's SubtleCrypto (default: the browser's, absent outside a secure context); null: none. */
  subtle?: SubtleCrypto | null;
  storage?: Storage;
  /** The pinned issuers (default: the bundled trust list's). */
  pinned?: PinnedIssuer[];
}

const offlineIssuer = (p: PinnedIssuer): OfflineIssuer => ({
  id: p.id,
  name: p.name,
  ...(p.nameEn ? { nameEn: p.nameEn } : {}),
  ...(p.development ? { development: true } : {}),
});

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
  const pinned = deps.pinned ?? bundledPinnedIssuers();
  if (pinned.length) return checkPinned(text, pinned, subtle);
  const storage = deps.storage ?? localStorage;
  const platform: OfflineIssuer = { id: appConfig.issuer.id, name: appConfig.issuer.name, nameEn: appConfig.issuer.nameEn };
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
  const known = { keys, keysFromCache: fromCache, pinned: false, expected: [platform] };
  if (reading.status !== 'signed') return { verification: reading, engine: null, ...known, issuer: null, keyRetiredAt: null };
  const { valid, engine } = await checkSignature(reading, subtle);
  return { verification: qrVerification(reading, valid), engine, ...known, issuer: platform, keyRetiredAt: retiredAtOf(reading) };
}

/** Under a trust list: only its keys, nothing fetched or kept; the issuer named is the one whose key signed. */
async function checkPinned(text: string, pinned: PinnedIssuer[], subtle: SubtleCrypto | undefined): Promise<OfflineCheck> {
  const reading = readQrPayload(text, { keys: pinned.flatMap((p) => p.jwks.keys) });
  const base = { keys: null, keysFromCache: false, pinned: true, expected: pinned.map(offlineIssuer) };
  if (reading.status !== 'signed') return { verification: reading, engine: null, ...base, issuer: null, keyRetiredAt: null };
  const signer = pinned.find((p) => readQrPayload(text, p.jwks).status === 'signed');
  const { valid, engine } = await checkSignature(reading, subtle);
  return { verification: qrVerification(reading, valid), engine, ...base, issuer: signer ? offlineIssuer(signer) : null, keyRetiredAt: retiredAtOf(reading) };
}
