// The registry port over @sceau/chain's read-only client (the API passes its own registry; the
// independent verifier connects to the RPC URL it is given, for the contract a credential names).
import { connectChain, createRegistry, type DiplomaRegistry } from '@sceau/chain';
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
  const checked = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) => async (...args: A) => {
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
