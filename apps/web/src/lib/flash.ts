/**
 * Flash messages: a short message that survives one redirect (the guards' "Accès non autorisé"
 * shown on /dashboard). Kept outside React so route loaders can push them.
 */
export type FlashTone = 'error' | 'success' | 'info';

export interface Flash {
  id: number;
  /** A translation key, translated when shown so a language change applies. */
  messageKey: string;
  /** A message already translated (a server's answer), shown as is instead of the key. */
  text?: string;
  tone: FlashTone;
}

export function createFlashStore() {
  let flashes: readonly Flash[] = [];
  let nextId = 1;
  const listeners = new Set<() => void>();

  function emit(next: readonly Flash[]): void {
    flashes = next;
    for (const listener of listeners) listener();
  }

  return {
    getSnapshot: (): readonly Flash[] => flashes,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** The same message twice in a row is shown once. */
    push(messageKey: string, tone: FlashTone = 'error'): void {
      const others = flashes.filter((flash) => flash.messageKey !== messageKey);
      emit([...others, { id: nextId++, messageKey, tone }]);
    },
    /** A message already translated, e.g. the server's "Signature enregistrée". */
    pushText(text: string, tone: FlashTone = 'success'): void {
      const others = flashes.filter((flash) => flash.text !== text);
      emit([...others, { id: nextId++, messageKey: '', text, tone }]);
    },
    dismiss(id: number): void {
      emit(flashes.filter((flash) => flash.id !== id));
    },
    clear(): void {
      if (flashes.length) emit([]);
    },
  };
}

export type FlashStore = ReturnType<typeof createFlashStore>;
