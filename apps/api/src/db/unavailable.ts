/**
 * Whether an error means "the database cannot answer now" (hung, lost, restarting, overloaded)
 * rather than a fault of the request or of the code: such a request gets 503 with Retry-After, and
 * the same request succeeds once the database is back (ADR 0112). Drizzle wraps the driver's error
 * (`cause`); a connection refused on several addresses is an AggregateError (`errors`).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08'))) return true;
  if (typeof message === 'string' && DRIVER_MESSAGES.some((m) => message.includes(m))) return true;
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

/** The socket's own failures (refused, reset, unreachable, name not resolved). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL's: class 08 (connection exception, by prefix above), shutting down or starting up
 * (57P01-57P03), statement_timeout (57014), too many connections (53300), out of disk or memory.
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '57014', '53300', '53100', '53200']);

/** node-postgres and pg-pool say these in words only (no code). */
const DRIVER_MESSAGES = [
  'Query read timeout',
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];
