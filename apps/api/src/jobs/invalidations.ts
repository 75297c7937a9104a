import pg from 'pg';
import type { Logger } from 'pino';

const CHANNEL = 'sceau_invalidate';

/**
 * Tells every process of the platform that something it may hold in memory changed (PostgreSQL
 * LISTEN/NOTIFY): today the verification answers of a revoked diploma (ADR 0106). A process that
 * changes something publishes its key; every process, the publisher included, receives it. The
 * listening connection is re-opened after a loss; what was published meanwhile is lost, which
 * bounds staleness by the caches' own time to live (and the chain's revocation events).
 */
export class Invalidations {
  private client: pg.Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  async start(onKey: (key: string) => void): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => {
      if (message.channel === CHANNEL && message.payload) onKey(message.payload);
    });
    client.on('error', (error) => {
      this.log.warn({ err: error }, 'invalidations: listening connection lost, reconnecting');
      this.client = null;
      client.end().catch(() => {});
      this.reconnect(onKey);
    });
    await client.connect();
    await client.query(`listen ${CHANNEL}`);
    if (this.stopped) {
      await client.end();
      return;
    }
    this.client = client;
  }

  /** Tries again every second until the database answers (a failed connect emits no 'error' to retry on). */
  private reconnect(onKey: (key: string) => void): void {
    if (this.stopped) return;
    if (this.retry) clearTimeout(this.retry); // one attempt at a time, whichever path asked
    this.retry = setTimeout(() => void this.start(onKey).catch(() => this.reconnect(onKey)), 1000);
  }

  /** Sends a key to every process (through any connection: NOTIFY is delivered at commit). */
  async publish(db: { query(text: string, values: unknown[]): Promise<unknown> }, key: string): Promise<void> {
    await db.query('select pg_notify($1, $2)', [CHANNEL, key]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    await this.client?.end().catch(() => {});
    this.client = null;
  }
}
