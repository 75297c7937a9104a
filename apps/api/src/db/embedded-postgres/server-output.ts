/** PostgreSQL's own output: kept (the last lines, for error messages) and logged by severity. */
import type { EmbeddedPostgresLogger } from './types.ts';

const IMPORTANT_LOG = /was interrupted|not properly shut down|automatic recovery|redo (starts|done)/;

export function makeServerLogger(log: EmbeddedPostgresLogger, recent: string[]): (chunk: string) => void {
  const debug = log.debug?.bind(log);
  return (chunk: string) => {
    for (const raw of String(chunk).split('\n')) {
      const line = raw.replace(/^\[STDERR\]\s*/, '').trimEnd();
      if (!line) continue;
      recent.push(line);
      if (recent.length > 50) recent.shift();
      if (/\bPANIC:/.test(line)) log.error({ postgres: line }, 'PostgreSQL');
      else if (/\bWARNING:/.test(line)) log.warn({ postgres: line }, 'PostgreSQL');
      else if (/\bFATAL:/.test(line) && !/administrator command/.test(line)) log.warn({ postgres: line }, 'PostgreSQL');
      else if (IMPORTANT_LOG.test(line)) log.info({ postgres: line }, 'PostgreSQL');
      else debug?.({ postgres: line }, 'PostgreSQL');
    }
  };
}
