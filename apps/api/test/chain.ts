import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@sceau/process';
import { pino, type Logger } from 'pino';
import { openChain, type OpenChain } from '../src/modules/chain/open-chain.ts';
import { loadMinistryKeys, type MinistryKeys } from '../src/modules/keys/ministry-keys.ts';
import { createTestApp, type TestContext } from './helpers.ts';

/** A test app with what issuing needs: its own DATA_DIR, a local chain with the registry deployed, and the ministry's keys. */
export interface ChainTestContext extends TestContext {
  /** DATA_DIR: the keys, the local chain's state and deployment record, the outbox (and the files, unless S3). */
  dataDir: string;
  /** The chain now open (restartChain replaces it). */
  chain: OpenChain;
  keys: MinistryKeys;
  log: Logger;
  /** Stops the chain, runs `meanwhile` (e.g. losing its state), opens it again and answers the new one (also `chain`). */
  restartChain(meanwhile?: () => Promise<void>): Promise<OpenChain>;
  /** Closes the chain and the app, drops the database and removes DATA_DIR. */
  close(): Promise<void>;
}

/**
 * The real app on its own database (createTestApp) with a local Anvil on a free port, the registry
 * deployed on it, and development keys, all in a fresh DATA_DIR. `env` adds to or overrides the
 * configuration (PUBLIC_URL, FILE_STORAGE…). Each test file builds its services and app from it.
 */
export async function createChainTestApp(env: Record<string, string> = {}): Promise<ChainTestContext> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sceau-chain-test-'));
  // The local chain and the embedded PostgreSQL may run as another user, who must reach it.
  await chmod(dataDir, 0o755);
  const log = pino({ level: 'silent' });
  let app: TestContext | undefined;
  let chain: OpenChain | undefined;
  try {
    app = await createTestApp({ DATA_DIR: dataDir, CHAIN_PORT: String(await freePort()), ...env });
    chain = await openChain(app.config, log);
    const keys = await loadMinistryKeys(app.config.keys, log);
    const base = app;
    const context: ChainTestContext = {
      ...base,
      dataDir,
      chain,
      keys,
      log,
      async restartChain(meanwhile) {
        await context.chain.close();
        await meanwhile?.();
        context.chain = await openChain(base.config, log);
        return context.chain;
      },
      async close() {
        await context.chain.close();
        await base.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
    return context;
  } catch (error) {
    await chain?.close().catch(() => {});
    await app?.close().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
