import { isHex, type Address, type Hex, type TransactionReceipt } from 'viem';
import { requireWallet, waitForReceipt, type ChainConnection } from './connection.ts';
import { ChainError, classifyChainError } from './errors.ts';
import { diplomaRegistryArtifact } from './generated/diploma-registry.ts';

const abi = diplomaRegistryArtifact.abi;

/** Role bits of the contract (a bit set per account). */
export const ROLES = { admin: 1, issuer: 2, revoker: 4 } as const;
export type Role = keyof typeof ROLES;

export interface Deployment {
  chainId: number;
  address: Address;
  txHash: Hex;
  blockNumber: number;
  blockHash: Hex;
  deployer: Address;
}

export interface Anchor {
  root: Hex;
  /** null only if the node no longer serves the log of an old block (pruned history). */
  txHash: Hex | null;
  blockNumber: number;
  blockHash: Hex | null;
  /** Block timestamp, seconds since the epoch. */
  timestamp: number;
  issuer: Address | null;
}

export interface IssueResult extends Anchor {
  /** true when the root was already on chain: nothing was sent. */
  alreadyIssued: boolean;
  /** Gas of the transaction sent, null when nothing was sent. */
  gasUsed: bigint | null;
}

export interface Revocation {
  hash: Hex;
  txHash: Hex | null;
  blockNumber: number;
  blockHash: Hex | null;
  timestamp: number;
  revoker: Address | null;
  reason: string | null;
}

export interface RevokeResult extends Revocation {
  alreadyRevoked: boolean;
  gasUsed: bigint | null;
}

export interface RevocationEvent {
  hash: Hex;
  revoker: Address;
  reason: string;
  txHash: Hex;
  blockNumber: number;
  blockHash: Hex;
}

export interface WatchOptions {
  /** First block to look at; default the block after the current head. */
  fromBlock?: number;
  pollingIntervalMs?: number;
  /** Largest block range per eth_getLogs (public endpoints limit it). Default 5,000. */
  maxBlockRange?: number;
  /** Poll failures (chain down...); the watcher keeps polling. */
  onError?: (err: ChainError) => void;
}

export interface DiplomaRegistry {
  readonly address: Address;
  readonly connection: ChainConnection;
  isIssued(root: Hex): Promise<boolean>;
  isRevoked(hash: Hex): Promise<boolean>;
  /** Block timestamp and number of the issuing transaction, null if never issued. */
  issuedAt(root: Hex): Promise<{ timestamp: number; blockNumber: number } | null>;
  /** Where and when the root was anchored (storage, then the Issued log of that block). */
  findIssuance(root: Hex): Promise<Anchor | null>;
  findRevocation(hash: Hex): Promise<Revocation | null>;
  /** Anchors a batch root and waits for its receipt. Idempotent: an issued root is looked up, not re-sent. */
  issueRoot(root: Hex): Promise<IssueResult>;
  /** Revokes a diploma targetHash or a batch root. Idempotent like issueRoot. */
  revoke(hash: Hex, reason: string): Promise<RevokeResult>;
  hasRole(account: Address, role: Role): Promise<boolean>;
  grantRole(role: Role, account: Address): Promise<Hex>;
  revokeRole(role: Role, account: Address): Promise<Hex>;
  /** Polls the Revoked events (for cache invalidation); returns a function that stops it. */
  watchRevocations(onRevoked: (event: RevocationEvent) => void | Promise<void>, options?: WatchOptions): () => void;
}

function assertHash(value: Hex, what: string): void {
  if (!isHex(value, { strict: true }) || value.length !== 66) {
    throw new TypeError(`${what} must be a 32-byte 0x-prefixed hex string, got ${JSON.stringify(value)}`);
  }
}

/** Deploys the compiled DiplomaRegistry; the deploying account receives every role. */
export async function deployRegistry(conn: ChainConnection): Promise<Deployment> {
  const wallet = requireWallet(conn);
  await conn.assertChainId();
  return conn.serialize(async () => {
    let txHash: Hex;
    try {
      txHash = await wallet.deployContract({ abi, bytecode: diplomaRegistryArtifact.bytecode });
    } catch (err) {
      throw classifyChainError(err);
    }
    const receipt = await waitForReceipt(conn, txHash);
    if (!receipt.contractAddress) throw new ChainError('reverted', `deployment ${txHash} created no contract`, { txHash });
    return {
      chainId: conn.chainId,
      address: receipt.contractAddress,
      txHash,
      blockNumber: Number(receipt.blockNumber),
      blockHash: receipt.blockHash,
      deployer: wallet.account.address,
    };
  });
}

/** A client of the registry at `address`. `fromBlock` (the deployment block) bounds log scans. */
export function createRegistry(conn: ChainConnection, address: Address): DiplomaRegistry {
  const client = conn.publicClient;

  const read = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw classifyChainError(err);
    }
  };

  const record = async (functionName: 'issuedAt' | 'revokedAt', hash: Hex) => {
    assertHash(hash, functionName === 'issuedAt' ? 'root' : 'hash');
    const [timestamp, blockNumber] = await read(() => client.readContract({ address, abi, functionName, args: [hash] }));
    return timestamp === 0n ? null : { timestamp: Number(timestamp), blockNumber: Number(blockNumber) };
  };

  /** Simulates first (for a named revert reason), then sends and waits. Caller serializes. */
  const send = async (functionName: 'issue' | 'revoke' | 'grantRole' | 'revokeRole', args: readonly unknown[]): Promise<TransactionReceipt> => {
    const wallet = requireWallet(conn);
    await conn.assertChainId();
    let txHash: Hex;
    try {
      const { request } = await client.simulateContract({
        address,
        abi,
        functionName,
        args,
        account: wallet.account,
      } as Parameters<typeof client.simulateContract>[0]);
      txHash = await wallet.writeContract(request as Parameters<typeof wallet.writeContract>[0]);
    } catch (err) {
      throw classifyChainError(err);
    }
    return waitForReceipt(conn, txHash);
  };

  const findIssuance = async (root: Hex): Promise<Anchor | null> => {
    const at = await record('issuedAt', root);
    if (!at) return null;
    const logs = await read(() =>
      client.getContractEvents({
        address,
        abi,
        eventName: 'Issued',
        args: { root },
        fromBlock: BigInt(at.blockNumber),
        toBlock: BigInt(at.blockNumber),
      }),
    );
    const log = logs[0];
    return {
      root,
      txHash: log?.transactionHash ?? null,
      blockNumber: at.blockNumber,
      blockHash: log?.blockHash ?? null,
      timestamp: at.timestamp,
      issuer: log?.args.issuer ?? null,
    };
  };

  const findRevocation = async (hash: Hex): Promise<Revocation | null> => {
    const at = await record('revokedAt', hash);
    if (!at) return null;
    const logs = await read(() =>
      client.getContractEvents({
        address,
        abi,
        eventName: 'Revoked',
        args: { hash },
        fromBlock: BigInt(at.blockNumber),
        toBlock: BigInt(at.blockNumber),
      }),
    );
    const log = logs[0];
    return {
      hash,
      txHash: log?.transactionHash ?? null,
      blockNumber: at.blockNumber,
      blockHash: log?.blockHash ?? null,
      timestamp: at.timestamp,
      revoker: log?.args.revoker ?? null,
      reason: log?.args.reason ?? null,
    };
  };

  const sentResult = async (receipt: TransactionReceipt) => ({
    txHash: receipt.transactionHash,
    blockNumber: Number(receipt.blockNumber),
    blockHash: receipt.blockHash,
    timestamp: Number((await read(() => client.getBlock({ blockHash: receipt.blockHash }))).timestamp),
    gasUsed: receipt.gasUsed,
  });

  return {
    address,
    connection: conn,

    async isIssued(root) {
      return (await record('issuedAt', root)) !== null;
    },
    async isRevoked(hash) {
      return (await record('revokedAt', hash)) !== null;
    },
    issuedAt: (root) => record('issuedAt', root),
    findIssuance,
    findRevocation,

    issueRoot(root) {
      assertHash(root, 'root');
      return conn.serialize(async () => {
        const existing = await findIssuance(root);
        if (existing) return { ...existing, alreadyIssued: true, gasUsed: null };
        let receipt: TransactionReceipt;
        try {
          receipt = await send('issue', [root]);
        } catch (err) {
          // Another process (or an earlier attempt whose answer was lost) got there first.
          if (err instanceof ChainError && err.kind === 'reverted') {
            const raced = await findIssuance(root);
            if (raced) return { ...raced, alreadyIssued: true, gasUsed: null };
          }
          throw err;
        }
        return { root, issuer: conn.account, alreadyIssued: false, ...(await sentResult(receipt)) };
      });
    },

    revoke(hash, reason) {
      assertHash(hash, 'hash');
      return conn.serialize(async () => {
        const existing = await findRevocation(hash);
        if (existing) return { ...existing, alreadyRevoked: true, gasUsed: null };
        let receipt: TransactionReceipt;
        try {
          receipt = await send('revoke', [hash, reason]);
        } catch (err) {
          if (err instanceof ChainError && err.kind === 'reverted') {
            const raced = await findRevocation(hash);
            if (raced) return { ...raced, alreadyRevoked: true, gasUsed: null };
          }
          throw err;
        }
        return { hash, revoker: conn.account, reason, alreadyRevoked: false, ...(await sentResult(receipt)) };
      });
    },

    hasRole: (account, role) => read(() => client.readContract({ address, abi, functionName: 'hasRole', args: [account, ROLES[role]] })),
    grantRole: (role, account) => conn.serialize(async () => (await send('grantRole', [ROLES[role], account])).transactionHash),
    revokeRole: (role, account) => conn.serialize(async () => (await send('revokeRole', [ROLES[role], account])).transactionHash),

    watchRevocations(onRevoked, options = {}) {
      const interval = options.pollingIntervalMs ?? conn.pollingIntervalMs;
      const maxRange = BigInt(options.maxBlockRange ?? 5_000);
      let next: bigint | null = options.fromBlock === undefined ? null : BigInt(options.fromBlock);
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;

      const poll = async () => {
        const head = await read(() => client.getBlockNumber({ cacheTime: 0 }));
        let from = next ?? head + 1n;
        // A local chain that lost its state restarts lower: follow it down.
        if (from > head + 1n) from = head + 1n;
        next = from;
        while (!stopped && from <= head) {
          const to: bigint = from + maxRange - 1n < head ? from + maxRange - 1n : head;
          const fromBlock = from;
          const logs = await read(() => client.getContractEvents({ address, abi, eventName: 'Revoked', fromBlock, toBlock: to }));
          for (const log of logs) {
            if (stopped) return;
            await onRevoked({
              hash: log.args.hash!,
              revoker: log.args.revoker!,
              reason: log.args.reason ?? '',
              txHash: log.transactionHash!,
              blockNumber: Number(log.blockNumber),
              blockHash: log.blockHash!,
            });
          }
          from = to + 1n;
          next = from;
        }
      };
      const loop = async () => {
        try {
          await poll();
        } catch (err) {
          options.onError?.(classifyChainError(err));
        }
        if (!stopped) timer = setTimeout(loop, interval);
      };
      void loop();
      return () => {
        stopped = true;
        clearTimeout(timer);
      };
    },
  };
}
