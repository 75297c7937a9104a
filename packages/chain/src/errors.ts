import {
  BaseError,
  ContractFunctionRevertedError,
  HttpRequestError,
  InsufficientFundsError,
  NonceTooHighError,
  NonceTooLowError,
  TimeoutError,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  WaitForTransactionReceiptTimeoutError,
  WebSocketRequestError,
  LimitExceededRpcError,
  ResourceUnavailableRpcError,
  type Hex,
} from 'viem';

/**
 * - `unreachable`: the RPC endpoint did not answer (down, refused, timed out): retry later.
 * - `pending`: a transaction was sent but its receipt did not come in time: retry later; the
 *   write helpers are idempotent, so a retry finds the transaction if it was mined.
 * - `reverted`: the contract refused (missing role, already revoked, ...): final.
 * - `rejected`: the node refused the transaction before mining (funds, nonce): final unless
 *   `retryable` says otherwise (nonce races are retryable).
 * - `misconfigured`: wrong chain id, no contract at the address, no key: final.
 * - `unknown`: anything else; retryable, since a bounded retry is the safe default for a job.
 */
export type ChainErrorKind = 'unreachable' | 'pending' | 'reverted' | 'rejected' | 'misconfigured' | 'unknown';

export class ChainError extends Error {
  readonly kind: ChainErrorKind;
  readonly retryable: boolean;
  /** The contract's custom error name for `reverted` (e.g. 'MissingRole', 'AlreadyRevoked'). */
  readonly reason: string | undefined;
  /** A transaction sent before the failure, if any (look it up before sending again). */
  readonly txHash: Hex | undefined;

  constructor(kind: ChainErrorKind, message: string, options: { cause?: unknown; reason?: string; txHash?: Hex; retryable?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ChainError';
    this.kind = kind;
    this.reason = options.reason;
    this.txHash = options.txHash;
    this.retryable = options.retryable ?? (kind === 'unreachable' || kind === 'pending' || kind === 'unknown');
  }
}

const NETWORK_CODES = /ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|EAI_AGAIN|ENOTFOUND|EPIPE|socket hang up|fetch failed/;

/** Turns whatever viem (or the network) threw into a ChainError with a kind and retryability. */
export function classifyChainError(err: unknown, txHash?: Hex): ChainError {
  if (err instanceof ChainError) return err;
  const message = err instanceof BaseError ? err.shortMessage : err instanceof Error ? err.message : String(err);
  const opts = { cause: err, ...(txHash ? { txHash } : {}) };

  if (err instanceof BaseError) {
    const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError) {
      const reason = reverted.data?.errorName ?? reverted.reason ?? 'unknown';
      return new ChainError('reverted', `the registry contract refused: ${reason}`, { ...opts, reason });
    }
    if (err.walk((e) => e instanceof WaitForTransactionReceiptTimeoutError || e instanceof TransactionReceiptNotFoundError || e instanceof TransactionNotFoundError)) {
      return new ChainError('pending', `transaction not mined in time: ${message}`, opts);
    }
    if (err.walk((e) => e instanceof InsufficientFundsError)) {
      return new ChainError('rejected', `the ministry account cannot pay for gas: ${message}`, opts);
    }
    if (err.walk((e) => e instanceof NonceTooLowError || e instanceof NonceTooHighError)) {
      return new ChainError('rejected', `transaction rejected (nonce): ${message}`, { ...opts, retryable: true });
    }
    if (
      err.walk(
        (e) =>
          e instanceof HttpRequestError ||
          e instanceof TimeoutError ||
          e instanceof WebSocketRequestError ||
          e instanceof LimitExceededRpcError ||
          e instanceof ResourceUnavailableRpcError,
      )
    ) {
      return new ChainError('unreachable', `the chain RPC endpoint is unreachable: ${message}`, opts);
    }
  }
  if (NETWORK_CODES.test(describeCauses(err))) {
    return new ChainError('unreachable', `the chain RPC endpoint is unreachable: ${message}`, opts);
  }
  return new ChainError('unknown', message, opts);
}

function describeCauses(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; e && depth < 8; depth++) {
    const x = e as { message?: string; code?: string; details?: string; cause?: unknown };
    parts.push(String(x.message ?? ''), String(x.code ?? ''), String(x.details ?? ''));
    e = x.cause;
  }
  return parts.join(' ');
}
