/**
 * Flash messages: a short message that survives one redirect (the guards' "Accès non autorisé"
 * shown on /dashboard). Kept outside React so route loaders can push them.
 */
import type { TextKey } from '@/lib/text-keys';

export type FlashTone = 'error' | 'success' | 'info';

export type Flash = { id: number; tone: FlashTone } & (
  | /** A translation key, translated when shown so a language change applies. */ { messageKey: TextKey; text?: never }
  | /** A message already translated (a server's answer), shown as is. */ { text: string; messageKey?: never }
);

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
    push(messageKey: TextKey, tone: FlashTone = 'error'): void {
      const others = flashes.filter((flash) => flash.messageKey !== messageKey);
      emit([...others, { id: nextId++, messageKey, tone }]);
    },
    /** A message already translated, e.g. the server's "Signature enregistrée". */
    pushText(text: string, tone: FlashTone = 'success'): void {
      const others = flashes.filter((flash) => flash.text !== text);
      emit([...others, { id: nextId++, text, tone }]);
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
