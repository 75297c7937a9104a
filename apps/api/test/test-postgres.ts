/**
 * The test run's embedded PostgreSQL: a server in a fresh temporary folder (`sceau-test-pg-*`),
 * on the first port of `ports` it can listen on. A start that fails removes its folder (and the
 * lock file beside it) before the next port is tried or the error is thrown, so that a failed run
 * leaves nothing in the temporary folder.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@sceau/process';
import { EmbeddedPostgresError, startEmbeddedPostgres, type EmbeddedPostgresHandle, type EmbeddedPostgresLogger } from '../src/db/embedded-postgres.ts';

export interface TestPostgres {
  embedded: EmbeddedPostgresHandle;
  dataDir: string;
  port: number;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** Other ports tried, chosen by the system, when the preferred one is taken. */
const OTHER_PORTS = 3;

export async function startTestPostgres(options: {
  /** The port tried first. */
  port: number;
  /** How many other ports to try when a port is taken (default 3). */
  otherPorts?: number;
  /** Where the folder is made (default: the system's temporary folder). */
  tmpRoot?: string;
  log?: EmbeddedPostgresLogger;
}): Promise<TestPostgres> {
  const tmpRoot = options.tmpRoot ?? os.tmpdir();
  const attempts = 1 + (options.otherPorts ?? OTHER_PORTS);
  let port = options.port;
  for (let attempt = 1; ; attempt++) {
    const dataDir = await mkdtemp(path.join(tmpRoot, 'sceau-test-pg-'));
    try {
      const embedded = await startEmbeddedPostgres({ dataDir, port, ...(options.log ? { log: options.log } : {}) });
      return {
        embedded,
        dataDir,
        port,
        async stop() {
          await embedded.stop();
          await removeFolder(dataDir);
        },
      };
    } catch (error) {
      await removeFolder(dataDir);
      const taken = error instanceof EmbeddedPostgresError && error.code === 'PORT_IN_USE';
      if (!taken || attempt >= attempts) throw error;
      options.log?.warn({ port }, 'the embedded PostgreSQL port is taken; trying another');
      // A port the system says is free now (taken again before the server listens: the next one is tried).
      port = await freePort();
    }
  }
}

/** The cluster's folder and the lock file `startEmbeddedPostgres` keeps beside it. */
async function removeFolder(dataDir: string): Promise<void> {
  await rm(dataDir, { recursive: true, force: true });
  await rm(`${dataDir}.lock`, { force: true });
}
