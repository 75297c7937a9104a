import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@/lib/config';
import { createHttpClient } from '@/lib/http';
import { createSessionStore } from '@/lib/session';
import { readToken } from '@/lib/storage';
import { jsonResponse, makeProfile, mockFetch } from '@/test/fixtures';

function storeWith(routes: Parameters<typeof mockFetch>[0]) {
  const double = mockFetch(routes);
  const http = createHttpClient({
    fetch: double.fetch,
    getLocale: () => 'fr',
    getToken: readToken,
    translate: (key) => key,
    baseUrl: '/api',
  });
  return { store: createSessionStore({ http, config: DEFAULT_CONFIG }), calls: double.calls };
}

const profile = makeProfile(['admin']);
const tokenOk = () => jsonResponse({ token_type: 'Bearer', access_token: 'tok-1', expires_in: 3600 });
const meOk = () => jsonResponse({ data: { data: profile } });

describe('session', () => {
  it('logs in with the password grant, keeps the token in sessionStorage and caches the profile', async () => {
    const { store, calls } = storeWith({ 'POST /api/oauth/token': tokenOk, 'GET /api/me': meOk });
    await store.login({ username: ' aline@example.cd ', password: 'secret-123', remember: false });

    const tokenCall = calls[0]!;
    expect(JSON.parse(String(tokenCall.init.body))).toEqual({
      grant_type: 'password',
      client_id: 'sceau-web',
      client_secret: 'sceau-web-dev-secret',
      username: 'aline@example.cd',
      password: 'secret-123',
      scope: '',
    });
    expect(new Headers(calls[1]!.init.headers).get('Authorization')).toBe('Bearer tok-1');
    expect(sessionStorage.getItem('token')).toBe('tok-1');
    expect(localStorage.getItem('token')).toBeNull();
    expect(JSON.parse(localStorage.getItem('profile')!)).toEqual(profile);
    expect(store.getSnapshot()).toEqual({ token: 'tok-1', profile });
  });

  it('keeps the token in localStorage with remember-me', async () => {
    const { store } = storeWith({ 'POST /api/oauth/token': tokenOk, 'GET /api/me': meOk });
    await store.login({ username: 'aline@example.cd', password: 'secret-123', remember: true });
    expect(localStorage.getItem('token')).toBe('tok-1');
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it('clears everything when login fails', async () => {
    localStorage.setItem('profile', JSON.stringify(profile));
    localStorage.setItem('token', 'old');
    const { store } = storeWith({
      'POST /api/oauth/token': () => jsonResponse({ code: 'invalid_credentials', message: 'Contact ou mot de passe invalide' }, 401),
    });
    await expect(store.login({ username: 'a@b.cd', password: 'wrong-pass', remember: true })).rejects.toMatchObject({
      code: 'invalid_credentials',
      message: 'Contact ou mot de passe invalide',
    });
    expect(store.getSnapshot()).toEqual({ token: null, profile: null });
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('profile')).toBeNull();
  });

  it('restores the cached profile at start-up only with a token', () => {
    localStorage.setItem('profile', JSON.stringify(profile));
    expect(storeWith({}).store.getSnapshot()).toEqual({ token: null, profile: null });
    sessionStorage.setItem('token', 'tok');
    expect(storeWith({}).store.getSnapshot()).toEqual({ token: 'tok', profile });
  });

  it('re-reads the profile from the server and ends the session on 401', async () => {
    sessionStorage.setItem('token', 'tok');
    const fresh = makeProfile(['root']);
    const first = storeWith({ 'GET /api/me': () => jsonResponse({ data: { data: fresh } }) }).store;
    await first.refreshProfile();
    expect(first.getSnapshot().profile).toEqual(fresh);
    expect(JSON.parse(localStorage.getItem('profile')!)).toEqual(fresh);

    const second = storeWith({ 'GET /api/me': () => jsonResponse({ code: 'unauthenticated', message: 'x' }, 401) }).store;
    await expect(second.refreshProfile()).resolves.toBeNull();
    expect(second.getSnapshot()).toEqual({ token: null, profile: null });
    expect(readToken()).toBeNull();
    expect(localStorage.getItem('profile')).toBeNull();
  });

  it('logs out on the server and clears both storages', async () => {
    localStorage.setItem('token', 'tok');
    sessionStorage.setItem('token', 'tok');
    localStorage.setItem('profile', JSON.stringify(profile));
    const { store, calls } = storeWith({ 'POST /api/user/logout': () => jsonResponse({ data: { message: 'ok' } }) });
    await store.logout();
    expect(calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual(['POST /api/user/logout']);
    expect(readToken()).toBeNull();
    expect(localStorage.getItem('profile')).toBeNull();
    expect(store.getSnapshot().token).toBeNull();
  });
});
