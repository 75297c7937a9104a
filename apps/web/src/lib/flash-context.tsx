import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { Flash, FlashStore } from '@/lib/flash';

const FlashContext = createContext<FlashStore | null>(null);

export function FlashProvider({ store, children }: { store: FlashStore; children: ReactNode }) {
  return <FlashContext.Provider value={store}>{children}</FlashContext.Provider>;
}

export function useFlashStore(): FlashStore {
  const store = useContext(FlashContext);
  if (!store) throw new Error('useFlashStore must be used inside FlashProvider');
  return store;
}

export function useFlashes(): readonly Flash[] {
  const store = useFlashStore();
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
