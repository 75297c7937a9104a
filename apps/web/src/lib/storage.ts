import { STORAGE_KEYS, type Profile } from '@sceau/contracts';

/**
 * Browser storage rules of spec section 4: the token lives in localStorage when the user chose
 * "remember me", otherwise in sessionStorage; it is read from sessionStorage first. The profile is
 * cached in localStorage. Storage can throw (private browsing, quota): every access is guarded.
 */

function safeGet(storage: Storage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

function safeSet(storage: Storage, key: string, value: string): void {
  try {
    storage.setItem(key, value);
  } catch {
    // Nothing to do: the app keeps working for this page view.
  }
}

function safeRemove(storage: Storage, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    // ignore
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isNamed = (value: unknown): value is Record<string, unknown> & { id: number; name: string } =>
  isRecord(value) && Number.isInteger(value.id) && typeof value.name === 'string';

/**
 * What the app needs of a cached profile (id, name, roles with their permissions, permissions).
 * Checked loosely on purpose: the cache was written from a server answer, and a field the server
 * adds later must not throw the cache away. Checked by hand, not with zod: this runs at start, and
 * zod would be ~25 KB (gzip) more on every first visit (ADR 0097).
 */
function isCachedProfile(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value.id === 'number' &&
    typeof value.name === 'string' &&
    Array.isArray(value.roles) &&
    value.roles.every((role) => isNamed(role) && Array.isArray(role.permissions) && role.permissions.every(isNamed)) &&
    Array.isArray(value.permissions) &&
    value.permissions.every((permission) => typeof permission === 'string')
  );
}

export function readToken(): string | null {
  return safeGet(sessionStorage, STORAGE_KEYS.token) ?? safeGet(localStorage, STORAGE_KEYS.token);
}

export function saveToken(token: string, remember: boolean): void {
  // One place only, so that a later read cannot pick a stale copy from the other storage.
  safeRemove(remember ? sessionStorage : localStorage, STORAGE_KEYS.token);
  safeSet(remember ? localStorage : sessionStorage, STORAGE_KEYS.token, token);
}

export function readCachedProfile(): Profile | null {
  const raw = safeGet(localStorage, STORAGE_KEYS.profile);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isCachedProfile(parsed) ? (parsed as Profile) : null;
  } catch {
    return null;
  }
}

export function saveCachedProfile(profile: Profile): void {
  safeSet(localStorage, STORAGE_KEYS.profile, JSON.stringify(profile));
}

/** Logout and failed login: nothing of the session may remain in either storage. */
export function clearSessionStorage(): void {
  for (const storage of [sessionStorage, localStorage]) {
    safeRemove(storage, STORAGE_KEYS.token);
    safeRemove(storage, STORAGE_KEYS.profile);
  }
}

export function readLocalValue(key: string): string | null {
  return safeGet(localStorage, key);
}

export function writeLocalValue(key: string, value: string): void {
  safeSet(localStorage, key, value);
}

export function readSessionValue(key: string): string | null {
  return safeGet(sessionStorage, key);
}

export function writeSessionValue(key: string, value: string): void {
  safeSet(sessionStorage, key, value);
}
