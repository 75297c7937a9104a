/**
 * The ministry's published keys (`/.well-known/jwks.json`), kept in localStorage with the time they
 * were fetched, so that a QR code can be checked with no call to the server once they are there
 * (ADR 0096). A QR signed by a key the cached set lacks (a key published since) refreshes the set
 * once, when the network allows.
 */
import type { Jwks } from '@sceau/credential/jwk';

export const JWKS_PATH = '/.well-known/jwks.json';
export const KEYS_STORAGE_KEY = 'sceau.jwks';

export interface PublishedKeys {
  jwks: Jwks;
  /** When they were fetched (ISO 8601). */
  fetchedAt: string;
}

/** The keys could not be fetched (no network, or the server answered something else). */
export class KeysUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('published keys unavailable', { cause });
    this.name = 'KeysUnavailableError';
  }
}

function isJwks(value: unknown): value is Jwks {
  return typeof value === 'object' && value !== null && Array.isArray((value as { keys?: unknown }).keys);
}

export function readCachedKeys(storage: Storage = localStorage): PublishedKeys | null {
  try {
    const raw = storage.getItem(KEYS_STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<PublishedKeys>;
    if (!isJwks(parsed.jwks) || typeof parsed.fetchedAt !== 'string' || Number.isNaN(Date.parse(parsed.fetchedAt))) return null;
    return { jwks: parsed.jwks, fetchedAt: parsed.fetchedAt };
  } catch {
    return null;
  }
}

/** Fetches the published keys and caches them. Throws KeysUnavailableError. */
export async function fetchPublishedKeys(storage: Storage = localStorage, now: () => Date = () => new Date()): Promise<PublishedKeys> {
  let body: unknown;
  try {
    const response = await globalThis.fetch(JWKS_PATH, { headers: { Accept: 'application/json' }, cache: 'no-cache' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    body = await response.json();
  } catch (error) {
    throw new KeysUnavailableError(error);
  }
  if (!isJwks(body)) throw new KeysUnavailableError(new Error('not a key set'));
  const keys = { jwks: { keys: body.keys }, fetchedAt: now().toISOString() };
  try {
    storage.setItem(KEYS_STORAGE_KEY, JSON.stringify(keys));
  } catch {
    // Private browsing or a full storage: the keys serve this check, the next one fetches again.
  }
  return keys;
}

/** The cached keys, or fetched ones when none are cached. */
export async function publishedKeys(storage: Storage = localStorage): Promise<{ keys: PublishedKeys; fromCache: boolean }> {
  const cached = readCachedKeys(storage);
  if (cached) return { keys: cached, fromCache: true };
  return { keys: await fetchPublishedKeys(storage), fromCache: false };
}
