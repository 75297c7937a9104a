/**
 * What the app's modules expect of a browser, for rendering its first screens on the server
 * (first-screen.tsx, ADR 0151): an empty in-memory storage (no stored language, no session), and
 * timers on `window`. Imported first, before any module of the app is evaluated.
 */
class MemoryStorage {
  private readonly values = new Map<string, string>();
  get length() {
    return this.values.size;
  }
  key(index: number) {
    return [...this.values.keys()][index] ?? null;
  }
  getItem(key: string) {
    return this.values.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.values.set(key, String(value));
  }
  removeItem(key: string) {
    this.values.delete(key);
  }
  clear() {
    this.values.clear();
  }
}

const scope = globalThis as Record<string, unknown>;
for (const name of ['localStorage', 'sessionStorage']) {
  Object.defineProperty(globalThis, name, { value: new MemoryStorage(), configurable: true, writable: true });
}
if (!('window' in scope)) scope.window = globalThis;

export {};
