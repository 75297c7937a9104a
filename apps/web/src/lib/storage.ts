import { roleView, STORAGE_KEYS, type Profile } from '@sceau/contracts';
import { z } from 'zod';

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

/**
 * What the app needs of a cached profile. Checked loosely on purpose: the cache was written from a
 * server answer, and a field the server adds later must not throw the cache away.
 */
const cachedProfileShape = z.looseObject({
  id: z.number(),
  name: z.string(),
  roles: z.array(roleView),
  permissions: z.array(z.string()),
});

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
    const parsed = cachedProfileShape.safeParse(JSON.parse(raw));
    return parsed.success ? (parsed.data as unknown as Profile) : null;
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
