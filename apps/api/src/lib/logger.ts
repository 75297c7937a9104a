import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';
import type { Config } from '../config.ts';

type Pretty = typeof import('pino-pretty');

/** pino-pretty when installed (it is a dependency; a trimmed install without it falls back to JSON). */
function loadPretty(): Pretty | null {
  try {
    return createRequire(import.meta.url)('pino-pretty') as Pretty;
  } catch {
    return null;
  }
}

/**
 * The process's logger: readable lines in development (`npm start`), JSON lines otherwise, for log
 * collectors (production) and for the tests that read them.
 */
export function createLogger(config: Pick<Config, 'env' | 'logLevel'>): Logger {
  const pretty = config.env === 'development' ? loadPretty() : null;
  if (!pretty) return pino({ level: config.logLevel });
  // In this thread and synchronous: no line lost when the process exits right after writing it.
  return pino({ level: config.logLevel }, pretty({ sync: true, singleLine: true, colorize: process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' }));
}
