import type { Logger } from 'pino';
import { Invalidations } from './invalidations.ts';

type Listener = (key: string) => void;

/**
 * What processes hold in memory and must forget when something changes (today: the verification
 * answers of a revoked diploma, ADR 0106), as a service the others are built with. A change is
 * delivered at once to this process's listeners; once `share` has run, it also goes to every other
 * process of the platform through PostgreSQL NOTIFY (`Invalidations`), whose listeners get it too.
 * Without `share` (tests, a single process without a bus) delivery stays in this process.
 */
export class CacheInvalidation {
  private readonly listeners = new Set<Listener>();
  private bus: { publish(key: string): Promise<void>; stop(): Promise<void> } | null = null;

  constructor(private readonly log: Pick<Logger, 'warn'>) {}

  /** Calls `listener` for every key invalidated, here or elsewhere; returns the unsubscribe. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `key` changed: this process forgets it now, the others when the notification reaches them. */
  invalidate(key: string): void {
    this.deliver(key);
    this.bus?.publish(key).catch((error: unknown) => this.log.warn({ err: error }, 'could not publish an invalidation'));
  }

  /** From now on, invalidations are exchanged with the other processes on this database. */
  async share(connectionString: string, publisher: { query(text: string, values: unknown[]): Promise<unknown> }): Promise<void> {
    if (this.bus) return;
    const bus = new Invalidations(connectionString, this.log);
    await bus.start((key) => this.deliver(key));
    this.bus = { publish: (key) => bus.publish(publisher, key), stop: () => bus.stop() };
  }

  async stop(): Promise<void> {
    const bus = this.bus;
    this.bus = null;
    await bus?.stop();
  }

  private deliver(key: string): void {
    for (const listener of this.listeners) {
      try {
        listener(key);
      } catch (error) {
        this.log.warn({ err: error, key }, 'an invalidation listener failed');
      }
    }
  }
}
