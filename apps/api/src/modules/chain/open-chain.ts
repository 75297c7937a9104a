import { connectChain, ensureRegistry, startLocalChain, type ChainConnection, type DiplomaRegistry, type LocalChain, type RestartPolicy } from '@sceau/chain';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';

export interface OpenChain {
  connection: ChainConnection;
  registry: DiplomaRegistry;
  chainId: number;
  address: `0x${string}`;
  /** The registry's deployment block when this platform deployed it (no event before it); null for a configured address. */
  deploymentBlock?: number | null;
  /** The local Anvil when no external chain is configured. */
  local: LocalChain | null;
  /** 'redeployed' means anchors made on a lost local contract must be made again. */
  action: 'configured' | 'existing' | 'deployed' | 'redeployed';
  close(): Promise<void>;
}

/**
 * The chain the ministry anchors on: `CHAIN_RPC_URL` with its key and registry, or by default a
 * local Anvil the platform runs under `DATA_DIR/chain`, its registry deployed once and remembered.
 */
export async function openChain(config: Config, log: Logger, restart?: RestartPolicy): Promise<OpenChain> {
  let local: LocalChain | null = null;
  let connection: ChainConnection;
  if (config.chain.rpcUrl) {
    if (!config.chain.chainId) throw new Error('CHAIN_ID is required with CHAIN_RPC_URL');
    connection = connectChain({
      rpcUrl: config.chain.rpcUrl,
      chainId: config.chain.chainId,
      ...(config.chain.privateKey ? { privateKey: config.chain.privateKey } : {}),
      confirmations: config.chain.confirmations,
    });
  } else {
    // `restart`: the local Anvil is started again if it dies (ADR 0112).
    local = await startLocalChain({ dataDir: config.dataDir, port: config.chain.port, log, ...(restart ? { restart } : {}) });
    const chain = local;
    connection = connectChain({
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      privateKey: chain.ministryKey.privateKey,
      // A write reported done is on disk too: Anvil saves its state once a second.
      afterMined: async (receipt) => void (await chain.waitUntilSaved(receipt.blockNumber)),
    });
  }
  try {
    const ensured = await ensureRegistry({
      connection,
      ...(config.chain.registryAddress ? { address: config.chain.registryAddress } : { dataDir: config.dataDir }),
      log,
    });
    if (ensured.action === 'redeployed') log.warn('the local chain lost its registry: it was deployed again, anchored batches will be anchored again');
    log.info({ chainId: connection.chainId, address: ensured.registry.address, action: ensured.action }, 'diploma registry ready');
    return {
      connection,
      registry: ensured.registry,
      chainId: connection.chainId,
      address: ensured.registry.address,
      deploymentBlock: ensured.deployment?.blockNumber ?? null,
      local,
      action: ensured.action,
      close: async () => {
        await local?.stop();
      },
    };
  } catch (error) {
    await local?.stop();
    throw error;
  }
}
