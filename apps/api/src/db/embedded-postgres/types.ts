import type { RestartPolicy } from '@sceau/chain';

export interface EmbeddedPostgresLogger {
  debug?(msg: string | object, ...a: unknown[]): void;
  info(msg: string | object, ...a: unknown[]): void;
  warn(msg: string | object, ...a: unknown[]): void;
  error(msg: string | object, ...a: unknown[]): void;
}

export interface EmbeddedPostgresOptions {
  /** The cluster directory, e.g. `${DATA_DIR}/postgres`. */
  dataDir: string;
  /** TCP port; the server listens on 127.0.0.1 only. */
  port: number;
  /** Database superuser name, default 'sceau'. */
  user?: string;
  /** Superuser password, default 'sceau' (the server is reachable on loopback only). */
  password?: string;
  /** A pino-like logger; postgres' own output goes to `debug` (dropped if the logger has none). */
  log?: EmbeddedPostgresLogger;
  /** Restart the server when it dies unexpectedly (ADR 0112); unset: it stays dead (`pid` null). */
  restart?: RestartPolicy;
}

export interface EmbeddedPostgresHandle {
  /** postgres://user:password@127.0.0.1:port/<database> */
  connectionString(database?: string): string;
  /** Creates the database; no error if it exists. */
  createDatabase(name: string): Promise<void>;
  /** Drops the database (WITH (FORCE): disconnects its sessions); no error if it does not exist. */
  dropDatabase(name: string): Promise<void>;
  /** Fast shutdown (SIGINT), waits for the server to exit; idempotent. */
  stop(): Promise<void>;
  /** The postmaster's pid; null once stopped or if the server died. */
  readonly pid: number | null;
}

export type EmbeddedPostgresErrorCode = 'PORT_IN_USE' | 'IN_USE' | 'NOT_A_CLUSTER' | 'NOT_ACCESSIBLE' | 'BAD_CREDENTIALS' | 'START_FAILED' | 'INIT_FAILED' | 'STOPPED';

export class EmbeddedPostgresError extends Error {
  constructor(
    readonly code: EmbeddedPostgresErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EmbeddedPostgresError';
  }
}
