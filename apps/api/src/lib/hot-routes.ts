/**
 * What the public hot routes (verification by id and upload, the candidate check) share: a log
 * level no louder than `warn`, and security headers computed once instead of per request (ADR 0130).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** The quieter of two log levels (the public hot routes log at `warn` at most). */
export const quieter = (a: LogLevel, b: LogLevel): LogLevel => (LOG_LEVELS.indexOf(a) >= LOG_LEVELS.indexOf(b) ? a : b);

/**
 * The security headers of every response, as helmet sets them with the app's configuration, but
 * computed once: @fastify/helmet builds helmet's middleware again (the CSP parsed again) on every
 * request, a measurable share of a cached answer's cost (ADR 0102). The public hot routes (by id,
 * upload, the candidate check) turn it off (`helmet: false`) and use this `onRequest` hook, which
 * sets the same headers from what helmet set on their first response.
 */
export function fixedSecurityHeaders() {
  let securityHeaders: Array<[string, string | number | readonly string[]]> | null = null;
  return (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (securityHeaders) {
      for (const [name, value] of securityHeaders) reply.raw.setHeader(name, value);
    } else {
      const before = new Set(reply.raw.getHeaderNames());
      reply.helmet();
      securityHeaders = reply.raw
        .getHeaderNames()
        .filter((name) => !before.has(name))
        .map((name) => [name, reply.raw.getHeader(name)!]);
    }
    done();
  };
}
