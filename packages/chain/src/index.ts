export { diplomaRegistryArtifact } from './generated/diploma-registry.ts';
export { connectChain, type ChainConfig, type ChainConnection } from './connection.ts';
export { ChainError, classifyChainError, type ChainErrorKind } from './errors.ts';
export {
  ROLES,
  createRegistry,
  deployRegistry,
  type Anchor,
  type Deployment,
  type DiplomaRegistry,
  type IssueResult,
  type Revocation,
  type RevocationEvent,
  type RevokeResult,
  type Role,
  type WatchOptions,
} from './registry.ts';
export {
  ensureRegistry,
  reconcile,
  registryRecordPath,
  type EnsureRegistryOptions,
  type EnsuredRegistry,
  type RecordedAnchor,
  type Reconciliation,
} from './deployment.ts';
export {
  DEFAULT_CHAIN_PORT,
  LOCAL_CHAIN_ID,
  LocalChainError,
  startLocalChain,
  type ChainLogger,
  type LocalChain,
  type LocalChainOptions,
} from './local-chain.ts';
export { findAnvilBinary } from './anvil-binary.ts';
export { createRestarter, type RestartPolicy, type Restarter, type RestartLogger } from './restarts.ts';
