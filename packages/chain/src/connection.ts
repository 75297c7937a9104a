import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  type Transport,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ChainError, classifyChainError } from './errors.ts';

export interface ChainConfig {
  /** JSON-RPC endpoint (CHAIN_RPC_URL). */
  rpcUrl: string;
  /** Expected chain id (CHAIN_ID); every write checks the endpoint serves this chain. */
  chainId: number;
  /** The ministry account's private key (CHAIN_PRIVATE_KEY); omit for read-only use (verifiers). */
  privateKey?: Hex;
  /** Blocks to wait for after the one that mined a transaction counts as 1. Default 1. */
  confirmations?: number;
  /** Polling interval for receipts and watchers. Default 250 ms. */
  pollingIntervalMs?: number;
  /** Timeout of one RPC request. Default 10 s. */
  requestTimeoutMs?: number;
  /** How long to wait for a receipt before giving up with a `pending` error. Default 120 s. */
  receiptTimeoutMs?: number;
  /** RPC retries inside one call (viem's backoff). Default 1. */
  retryCount?: number;
  /**
   * Called after each mined transaction before the write resolves. The local chain passes its
   * `waitUntilSaved`, so a write reported done is also on disk (Anvil saves once a second).
   */
  afterMined?: (receipt: TransactionReceipt) => Promise<void>;
}

export interface ChainConnection {
  readonly rpcUrl: string;
  readonly chainId: number;
  readonly chain: Chain;
  readonly confirmations: number;
  readonly pollingIntervalMs: number;
  readonly receiptTimeoutMs: number;
  readonly publicClient: PublicClient<Transport, Chain>;
  /** null when connected without a private key. */
  readonly walletClient: WalletClient<Transport, Chain, Account> | null;
  /** The ministry account's address, null when read-only. */
  readonly account: Address | null;
  readonly afterMined: ((receipt: TransactionReceipt) => Promise<void>) | undefined;
  /** Throws a `misconfigured` ChainError if the endpoint serves another chain id. */
  assertChainId(): Promise<void>;
  /**
   * Runs `fn` when every earlier transaction of this account (in this process) is done: one
   * transaction at a time per account, so nonces never race.
   */
  serialize<T>(fn: () => Promise<T>): Promise<T>;
}

const queues = new Map<string, Promise<unknown>>();

export function connectChain(config: ChainConfig): ChainConnection {
  if (!Number.isSafeInteger(config.chainId) || config.chainId <= 0) {
    throw new ChainError('misconfigured', `invalid chain id: ${config.chainId}`);
  }
  const pollingIntervalMs = config.pollingIntervalMs ?? 250;
  const chain = defineChain({
    id: config.chainId,
    name: `chain ${config.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  });
  const transport = http(config.rpcUrl, {
    timeout: config.requestTimeoutMs ?? 10_000,
    retryCount: config.retryCount ?? 1,
  });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: pollingIntervalMs });
  let account: Account | null = null;
  if (config.privateKey !== undefined) {
    try {
      account = privateKeyToAccount(config.privateKey);
    } catch (err) {
      throw new ChainError('misconfigured', 'CHAIN_PRIVATE_KEY is not a valid 32-byte hex private key', { cause: err });
    }
  }
  const walletClient = account ? createWalletClient({ account, chain, transport, pollingInterval: pollingIntervalMs }) : null;

  let chainIdChecked: Promise<void> | undefined;
  const assertChainId = () => {
    chainIdChecked ??= (async () => {
      let actual: number;
      try {
        actual = await publicClient.getChainId();
      } catch (err) {
        chainIdChecked = undefined; // unreachable now: check again next time
        throw classifyChainError(err);
      }
      if (actual !== config.chainId) {
        throw new ChainError('misconfigured', `the RPC endpoint ${config.rpcUrl} serves chain ${actual}, not ${config.chainId} (CHAIN_ID)`);
      }
    })();
    return chainIdChecked;
  };

  const queueKey = `${config.chainId}:${account?.address ?? 'read-only'}`;
  const serialize = <T>(fn: () => Promise<T>): Promise<T> => {
    const previous = queues.get(queueKey) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.catch(() => {});
    queues.set(queueKey, tail);
    void tail.then(() => {
      if (queues.get(queueKey) === tail) queues.delete(queueKey);
    });
    return run;
  };

  return {
    rpcUrl: config.rpcUrl,
    chainId: config.chainId,
    chain,
    confirmations: Math.max(1, config.confirmations ?? 1),
    pollingIntervalMs,
    receiptTimeoutMs: config.receiptTimeoutMs ?? 120_000,
    publicClient,
    walletClient,
    account: account?.address ?? null,
    afterMined: config.afterMined,
    assertChainId,
    serialize,
  };
}

/** Waits for the receipt of `hash`; a reverted receipt becomes a `reverted` ChainError. */
export async function waitForReceipt(conn: ChainConnection, hash: Hex): Promise<TransactionReceipt> {
  let receipt: TransactionReceipt;
  try {
    receipt = await conn.publicClient.waitForTransactionReceipt({
      hash,
      confirmations: conn.confirmations,
      pollingInterval: conn.pollingIntervalMs,
      timeout: conn.receiptTimeoutMs,
    });
  } catch (err) {
    throw classifyChainError(err, hash);
  }
  if (receipt.status !== 'success') {
    throw new ChainError('reverted', `transaction ${hash} reverted`, { txHash: hash, reason: 'unknown' });
  }
  await conn.afterMined?.(receipt);
  return receipt;
}

export function requireWallet(conn: ChainConnection): WalletClient<Transport, Chain, Account> {
  if (!conn.walletClient) {
    throw new ChainError('misconfigured', 'no ministry account: set CHAIN_PRIVATE_KEY to send transactions');
  }
  return conn.walletClient;
}
