import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { FileStorage } from '../../lib/storage.ts';
import type { OpenChain } from '../chain/open-chain.ts';
import type { MinistryKeys } from '../keys/ministry-keys.ts';
import type { TimestampingService } from '../timestamping/timestamping-service.ts';
import type { SealKeyring } from '../verification/verification-seal.ts';
import type { WorkerFiles } from './render-pool.ts';

/** A batch that cannot be generated as it is (missing photo, no candidate): retrying will not help. */
export class BatchDataError extends Error {}

/** Items `from` to `to` (ids, both included) of a batch. */
export interface ItemRange {
  from: number;
  to: number;
}

/** What issuing's phases work with (IssuingService's constructor arguments). */
export interface IssuingDeps {
  db: Db;
  config: Config;
  keys: MinistryKeys;
  storage: FileStorage;
  chain: OpenChain;
  log: Pick<Logger, 'info' | 'warn'>;
  /**
   * The configuration `storage` was built from (services.ts): the render threads then build
   * the same store and read photos and write PDFs themselves. Without it (a store made
   * otherwise, e.g. by a test) the main thread does the file work.
   */
  workerFiles?: WorkerFiles | undefined;
  /** PAdES B-LTA's TSA and validation data (ADR 0135). */
  timestamping: TimestampingService;
  /** The key of the seals recorded over each credential checked at issuance (ADR 0154). */
  seal: SealKeyring;
}
