import fs from 'node:fs/promises';
import path from 'node:path';
import { getAddress, isAddress, type Address, type Hex } from 'viem';
import type { ChainConnection } from './connection.ts';
import { ChainError, classifyChainError } from './errors.ts';
import { diplomaRegistryArtifact } from './generated/diploma-registry.ts';
import type { ChainLogger } from './local-chain.ts';
import { writeFileAtomic } from './files.ts';
import { createRegistry, deployRegistry, type Anchor, type Deployment, type DiplomaRegistry } from './registry.ts';

export interface EnsureRegistryOptions {
  connection: ChainConnection;
  /**
   * A registry deployed beforehand (REGISTRY_ADDRESS): used as is, never redeployed; its code must
   * be there. Without it, the registry is deployed once and remembered in
   * `<dataDir>/chain/registry.json`.
   */
  address?: Address;
  dataDir?: string;
  /** What to do when the remembered address has no code (a local chain that lost its state). Default 'redeploy'. */
  onMissingCode?: 'redeploy' | 'fail';
  log?: ChainLogger;
}

export interface EnsuredRegistry {
  registry: DiplomaRegistry;
  /** Known for a registry this package deployed; null for a configured address. */
  deployment: Deployment | null;
  /** 'redeployed': anchors made on the lost contract are gone; reconcile every anchored batch. */
  action: 'configured' | 'existing' | 'deployed' | 'redeployed';
}

export function registryRecordPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'chain', 'registry.json');
}

async function hasCode(conn: ChainConnection, address: Address): Promise<{ present: boolean; matches: boolean }> {
  let code: Hex | undefined;
  try {
    code = await conn.publicClient.getCode({ address });
  } catch (err) {
    throw classifyChainError(err);
  }
  const present = code !== undefined && code !== '0x';
  return { present, matches: present && code?.toLowerCase() === diplomaRegistryArtifact.deployedBytecode.toLowerCase() };
}

async function readRecord(file: string): Promise<Deployment | null> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as Deployment;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`${file} is not a readable registry record; move it away to deploy a new registry`, { cause: err });
  }
}

/**
 * The registry to anchor on: the configured one, the one deployed earlier on this chain, or a
 * new deployment (recorded). Checks at every start that the contract code is really there.
 */
export async function ensureRegistry(opts: EnsureRegistryOptions): Promise<EnsuredRegistry> {
  const { connection: conn } = opts;
  const log = opts.log;
  await conn.assertChainId();

  if (opts.address) {
    if (!isAddress(opts.address)) throw new ChainError('misconfigured', `REGISTRY_ADDRESS is not an address: ${opts.address}`);
    const address = getAddress(opts.address);
    const code = await hasCode(conn, address);
    if (!code.present) {
      throw new ChainError('misconfigured', `no contract at REGISTRY_ADDRESS ${address} on chain ${conn.chainId}`);
    }
    if (!code.matches) log?.warn({ address }, 'the contract at REGISTRY_ADDRESS is not this build of DiplomaRegistry');
    return { registry: createRegistry(conn, address), deployment: null, action: 'configured' };
  }
  if (!opts.dataDir) throw new TypeError('ensureRegistry needs a dataDir or an address');

  const file = registryRecordPath(opts.dataDir);
  const record = await readRecord(file);
  let action: EnsuredRegistry['action'] = 'deployed';
  if (record && record.chainId === conn.chainId) {
    const code = await hasCode(conn, record.address);
    if (code.present) {
      if (!code.matches) log?.warn({ address: record.address }, 'the registry on chain is an older build of DiplomaRegistry');
      return { registry: createRegistry(conn, record.address), deployment: record, action: 'existing' };
    }
    if (opts.onMissingCode === 'fail') {
      throw new ChainError('misconfigured', `the registry recorded in ${file} (${record.address}) has no code on chain ${conn.chainId}`);
    }
    action = 'redeployed';
  } else if (record) {
    log?.warn({ file, recordedChainId: record.chainId, chainId: conn.chainId }, 'registry record is for another chain; deploying on this one');
  }

  const deployment = await deployRegistry(conn);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, `${JSON.stringify(deployment, null, 2)}\n`);
  if (action === 'redeployed') {
    log?.warn(
      { lost: record?.address, address: deployment.address, chainId: conn.chainId },
      'the registry contract was missing from the chain (its state was lost); deployed it again: anchored batches must be reconciled',
    );
  } else {
    log?.info({ address: deployment.address, chainId: conn.chainId, txHash: deployment.txHash }, 'deployed the diploma registry');
  }
  return { registry: createRegistry(conn, deployment.address), deployment, action };
}

export interface RecordedAnchor {
  root: Hex;
  /** The transaction the database recorded for it, if any. */
  txHash?: Hex | null;
}

export interface Reconciliation {
  /** Roots the chain does not know: anchor them again (local chain) or flag them (external chain). */
  missing: RecordedAnchor[];
  /** Roots the chain knows, with where it has them; `sameTransaction` is false if the tx differs from the record. */
  known: Array<{ recorded: RecordedAnchor; anchor: Anchor; sameTransaction: boolean }>;
}

/** Which recorded anchors the chain does not know. Reads only; a few requests in flight at once. */
export async function reconcile(registry: DiplomaRegistry, roots: RecordedAnchor[], concurrency = 8): Promise<Reconciliation> {
  const result: Reconciliation = { missing: [], known: [] };
  const anchors = new Array<Anchor | null>(roots.length);
  let nextIndex = 0;
  const worker = async () => {
    while (nextIndex < roots.length) {
      const i = nextIndex++;
      anchors[i] = await registry.findIssuance(roots[i]!.root);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, roots.length) }, worker));
  roots.forEach((recorded, i) => {
    const anchor = anchors[i];
    if (!anchor) result.missing.push(recorded);
    else {
      const sameTransaction = !recorded.txHash || anchor.txHash?.toLowerCase() === recorded.txHash.toLowerCase();
      result.known.push({ recorded, anchor, sameTransaction });
    }
  });
  return result;
}
