import type { Grants, Profile } from '@sceau/contracts';

/** What registration codes, password resets and Google sign-in answer: a token and the profile. */
export interface SignedIn {
  access_token: string;
  data: Profile;
}
import { createApiClient } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import type { AppConfig } from '@/lib/config';
import { isApiError, type HttpClient } from '@/lib/http';
import { clearSessionStorage, readCachedProfile, readToken, saveCachedProfile, saveToken } from '@/lib/storage';

/** Auth state of spec section 3: logged in when a token exists; the profile carries roles and permissions. */
export interface SessionState {
  token: string | null;
  profile: Profile | null;
}

export interface LoginInput {
  username: string;
  password: string;
  remember: boolean;
}

export const NO_GRANTS: Grants = { roles: [], permissions: [] };

export function grantsOf(profile: Profile | null): Grants {
  if (!profile) return NO_GRANTS;
  return { roles: profile.roles.map((role) => role.name), permissions: profile.permissions };
}

/**
 * The session lives outside React so that route loaders (the guards) and components read the same
 * state. Components subscribe through `useSession`.
 */
export function createSessionStore(deps: { http: HttpClient; config: Pick<AppConfig, 'oauthClientId' | 'oauthClientSecret'> }) {
  // At start-up: token from sessionStorage then localStorage; the cached profile only with a token.
  const api = createApiClient(deps.http, '/api');
  const token = readToken();
  let state: SessionState = { token, profile: token ? readCachedProfile() : null };
  let profileRequest: Promise<Profile | null> | null = null;
  const listeners = new Set<() => void>();

  function setState(next: SessionState): void {
    state = next;
    for (const listener of listeners) listener();
  }

  function clear(): void {
    clearSessionStorage();
    profileRequest = null;
    if (state.token !== null || state.profile !== null) setState({ token: null, profile: null });
  }

  async function fetchProfile(): Promise<Profile> {
    const body = await api.call(endpoints.accounts.me);
    return body.data.data;
  }

  /**
   * Loads the profile from the server. A 401 ends the session; any other failure propagates and
   * leaves the cached profile in place (the token may still be good, the network is not).
   */
  function refreshProfile(): Promise<Profile | null> {
    if (!state.token) return Promise.resolve(null);
    if (profileRequest) return profileRequest;
    const requestedWith = state.token;
    const request = fetchProfile()
      .then((profile) => {
        if (state.token !== requestedWith) return null;
        saveCachedProfile(profile);
        setState({ token: requestedWith, profile });
        return profile;
      })
      .catch((error: unknown) => {
        if (isApiError(error) && error.status === 401 && state.token === requestedWith) {
          clear();
          return null;
        }
        throw error;
      })
      .finally(() => {
        if (profileRequest === request) profileRequest = null;
      });
    profileRequest = request;
    return request;
  }

  /** The profile now if known (cached), else from the server. */
  function ensureProfile(): Promise<Profile | null> {
    if (!state.token) return Promise.resolve(null);
    if (state.profile) return Promise.resolve(state.profile);
    return refreshProfile();
  }

  async function login(input: LoginInput): Promise<Profile> {
    try {
      const token = await api.call(endpoints.accounts.token, {
        body: {
          grant_type: 'password',
          client_id: deps.config.oauthClientId,
          client_secret: deps.config.oauthClientSecret,
          username: input.username.trim(),
          password: input.password,
          scope: '',
        },
        anonymous: true,
      });
      clearSessionStorage();
      saveToken(token.access_token, input.remember);
      const profile = await fetchProfile();
      saveCachedProfile(profile);
      setState({ token: token.access_token, profile });
      return profile;
    } catch (error) {
      clear();
      throw error;
    }
  }

  /**
   * A sign-in that the answer itself completes (one-time code, password reset, Google): the token
   * goes to session storage (spec section 4) and replaces any previous one.
   */
  function signIn(answer: SignedIn): Profile {
    clearSessionStorage();
    profileRequest = null;
    saveToken(answer.access_token, false);
    saveCachedProfile(answer.data);
    setState({ token: answer.access_token, profile: answer.data });
    return answer.data;
  }

  async function logout(): Promise<void> {
    try {
      if (state.token) await api.call(endpoints.accounts.logout);
    } catch {
      // The server-side token may already be gone; the local session ends either way.
    } finally {
      clear();
    }
  }

  return {
    getSnapshot: (): SessionState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    login,
    signIn,
    logout,
    clear,
    refreshProfile,
    ensureProfile,
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
