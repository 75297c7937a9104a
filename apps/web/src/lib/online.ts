/**
 * Whether the browser says it is offline (ADR 0127). `navigator.onLine === false` is reliable (no
 * network at all); `true` is only a hope, so a request still decides then.
 */
import { useSyncExternalStore } from 'react';

export function isOffline(): boolean {
  return globalThis.navigator?.onLine === false;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** True while the browser is offline; follows its `online` and `offline` events. */
export function useOffline(): boolean {
  return useSyncExternalStore(subscribe, isOffline, () => false);
}
