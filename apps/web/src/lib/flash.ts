/**
 * Flash messages: a short message that survives one redirect (the guards' "Accès non autorisé"
 * shown on /dashboard). Kept outside React so route loaders can push them.
 */
import type { Message } from '@/lib/message';
import type { TextKey } from '@/lib/text-keys';

export type FlashTone = 'error' | 'success' | 'info';

/** A catalogue key is translated when shown, so a language change applies; a server's text is shown as is (lib/message.ts). */
export type Flash = { id: number; tone: FlashTone; message: Message };

function sameMessage(a: Message, b: Message): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function createFlashStore() {
  let flashes: readonly Flash[] = [];
  let nextId = 1;
  const listeners = new Set<() => void>();

  function emit(next: readonly Flash[]): void {
    flashes = next;
    for (const listener of listeners) listener();
  }

  /** A message kept as lib/message.ts makes it (a key with its values, a failed call's message…); the same message twice in a row is shown once. */
  function pushMessage(message: Message, tone: FlashTone = 'error'): void {
    const others = flashes.filter((flash) => !sameMessage(flash.message, message));
    emit([...others, { id: nextId++, tone, message }]);
  }

  return {
    getSnapshot: (): readonly Flash[] => flashes,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    pushMessage,
    /** A catalogue key, e.g. the guards' "guard.role". */
    push(messageKey: TextKey, tone: FlashTone = 'error'): void {
      pushMessage({ key: messageKey }, tone);
    },
    /** A message already translated, e.g. the server's "Signature enregistrée". */
    pushText(text: string, tone: FlashTone = 'success'): void {
      pushMessage({ text }, tone);
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
