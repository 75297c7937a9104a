import { describe, expect, it } from 'vitest';
import { clearSessionStorage, readCachedProfile, readToken, saveCachedProfile, saveToken } from '@/lib/storage';
import { makeProfile } from '@/test/fixtures';

describe('session storage rules', () => {
  it('keeps the token in localStorage when remember-me is chosen', () => {
    saveToken('abc', true);
    expect(localStorage.getItem('token')).toBe('abc');
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it('keeps the token in sessionStorage otherwise', () => {
    saveToken('abc', false);
    expect(sessionStorage.getItem('token')).toBe('abc');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('reads the token from sessionStorage first, then localStorage', () => {
    localStorage.setItem('token', 'from-local');
    expect(readToken()).toBe('from-local');
    sessionStorage.setItem('token', 'from-session');
    expect(readToken()).toBe('from-session');
  });

  it('clears token and profile from both storages', () => {
    localStorage.setItem('token', 'a');
    sessionStorage.setItem('token', 'b');
    saveCachedProfile(makeProfile(['admin']));
    clearSessionStorage();
    expect(readToken()).toBeNull();
    expect(localStorage.getItem('profile')).toBeNull();
  });

  it('ignores a cached profile that is not a profile', () => {
    localStorage.setItem('profile', '{"name":"x"}');
    expect(readCachedProfile()).toBeNull();
    localStorage.setItem('profile', 'not json');
    expect(readCachedProfile()).toBeNull();
    const profile = makeProfile(['validateur']);
    saveCachedProfile(profile);
    expect(readCachedProfile()).toEqual(profile);
  });
});
