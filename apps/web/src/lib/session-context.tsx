import type { Grants } from '@sceau/contracts';
import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { grantsOf, type SessionState, type SessionStore } from '@/lib/session';

const SessionContext = createContext<SessionStore | null>(null);

export function SessionProvider({ store, children }: { store: SessionStore; children: ReactNode }) {
  return <SessionContext.Provider value={store}>{children}</SessionContext.Provider>;
}

export function useSessionStore(): SessionStore {
  const store = useContext(SessionContext);
  if (!store) throw new Error('useSessionStore must be used inside SessionProvider');
  return store;
}

export function useSession(): SessionState & { isLoggedIn: boolean } {
  const store = useSessionStore();
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return { ...state, isLoggedIn: state.token !== null };
}

export function useGrants(): Grants {
  const { profile } = useSession();
  return useMemo(() => grantsOf(profile), [profile]);
}
