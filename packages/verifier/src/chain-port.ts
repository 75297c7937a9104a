// The registry port over @sceau/chain's read-only client (the API passes its own registry; the
// independent verifier connects to the RPC URL it is given, for the contract a credential names).
import { classifyChainError, connectChain, createRegistry, diplomaRegistryArtifact, type DiplomaRegistry } from '@sceau/chain';
import type { RevocationLogSource } from './revocation-index.ts';
import type { Hex, RegistryPort, RegistryRef } from './types.ts';

export function registryPort(registry: DiplomaRegistry): RegistryPort {
  return {
    chainId: registry.connection.chainId,
    address: registry.address,
    isIssued: (root) => registry.isIssued(root),
    isRevoked: (hash) => registry.isRevoked(hash),
    findIssuance: (root) => registry.findIssuance(root),
    findRevocation: (hash) => registry.findRevocation(hash),
  };
}

/**
 * The registry's Revoked events, for the revocation index (ADR 0102). Read failures come out as
 * @sceau/chain's ChainError (kind 'unreachable' when the node does not answer).
 */
export function revocationLog(registry: DiplomaRegistry): RevocationLogSource {
  const client = registry.connection.publicClient;
  const read = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      throw classifyChainError(error);
    }
  };
  return {
    head: async () => Number(await read(() => client.getBlockNumber({ cacheTime: 0 }))),
    async revocations(fromBlock, toBlock) {
      const logs = await read(() =>
        client.getContractEvents({ address: registry.address, abi: diplomaRegistryArtifact.abi, eventName: 'Revoked', fromBlock: BigInt(fromBlock), toBlock: BigInt(toBlock) }),
      );
      return logs
        .filter((log) => typeof log.args.hash === 'string' && log.blockNumber !== null)
        .map((log) => ({ hash: log.args.hash!, blockNumber: Number(log.blockNumber), blockHash: log.blockHash ?? null }));
    },
  };
}

export interface ReadOnlyChainOptions {
  rpcUrl: string;
  /** Timeout of one RPC request (default 5 s: a verifier should answer "could not check" quickly). */
  requestTimeoutMs?: number;
}

/**
 * A read-only registry for the contract a credential names. The endpoint must serve that chain id
 * (checked before the first read), or every chain check reports `chain_error`.
 */
export function connectRegistryPort(ref: RegistryRef, options: ReadOnlyChainOptions): RegistryPort {
  const connection = connectChain({ rpcUrl: options.rpcUrl, chainId: ref.chainId, requestTimeoutMs: options.requestTimeoutMs ?? 5_000, retryCount: 0 });
  const registry = createRegistry(connection, ref.address as Hex);
  const checked =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      await connection.assertChainId();
      return fn(...args);
    };
  return {
    chainId: ref.chainId,
    address: ref.address,
    isIssued: checked((root: Hex) => registry.isIssued(root)),
    isRevoked: checked((hash: Hex) => registry.isRevoked(hash)),
    findIssuance: checked((root: Hex) => registry.findIssuance(root)),
    findRevocation: checked((hash: Hex) => registry.findRevocation(hash)),
  };
}
