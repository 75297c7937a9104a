import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { connectChain, type ChainConnection } from './connection.ts';
import { ensureRegistry, reconcile } from './deployment.ts';
import { ChainError } from './errors.ts';
import { startLocalChain, type LocalChain } from './local-chain.ts';
import { createRegistry, type DiplomaRegistry, type RevocationEvent } from './registry.ts';
import { freePort, fundedStranger, randomHash, tempDir } from './test-support.ts';

let dataDir: string;
let chain: LocalChain;
let ministry: ChainConnection;
let registry: DiplomaRegistry;

beforeAll(async () => {
  dataDir = await tempDir('registry');
  chain = await startLocalChain({ dataDir, port: await freePort() });
  ministry = connectChain({ rpcUrl: chain.rpcUrl, chainId: chain.chainId, privateKey: chain.ministryKey.privateKey, pollingIntervalMs: 50 });
  const ensured = await ensureRegistry({ connection: ministry, dataDir });
  expect(ensured.action).toBe('deployed');
  registry = ensured.registry;
});

afterAll(async () => {
  await chain?.stop();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

async function expectChainError(promise: Promise<unknown>): Promise<ChainError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ChainError);
  return err as ChainError;
}

describe('DiplomaRegistry on Anvil', () => {
  it('deploys once: a later start finds the recorded contract', async () => {
    const again = await ensureRegistry({ connection: ministry, dataDir });
    expect(again.action).toBe('existing');
    expect(again.registry.address).toBe(registry.address);
    expect(again.deployment?.chainId).toBe(chain.chainId);
  });

  it('anchors a root once, for about 45k gas, and finds it again', async () => {
    const root = randomHash();
    expect(await registry.isIssued(root)).toBe(false);
    expect(await registry.findIssuance(root)).toBeNull();

    const first = await registry.issueRoot(root);
    expect(first.alreadyIssued).toBe(false);
    expect(first.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(first.issuer).toBe(chain.ministryKey.address);
    expect(Number(first.gasUsed)).toBeGreaterThan(40_000);
    expect(Number(first.gasUsed)).toBeLessThan(50_000);
    console.info(`gas: issue(root) ${first.gasUsed}`);

    expect(await registry.isIssued(root)).toBe(true);
    const found = await registry.findIssuance(root);
    expect(found).toMatchObject({ txHash: first.txHash, blockNumber: first.blockNumber, blockHash: first.blockHash, timestamp: first.timestamp });

    // Idempotent: a second call sends nothing and returns the first anchoring.
    const head = await ministry.publicClient.getBlockNumber({ cacheTime: 0 });
    const second = await registry.issueRoot(root);
    expect(second).toMatchObject({ alreadyIssued: true, txHash: first.txHash, blockNumber: first.blockNumber, gasUsed: null });
    expect(await ministry.publicClient.getBlockNumber({ cacheTime: 0 })).toBe(head);
  });

  it('sends one transaction at a time when called concurrently', async () => {
    const roots = Array.from({ length: 5 }, randomHash);
    const results = await Promise.all(roots.map((root) => registry.issueRoot(root)));
    expect(results.every((r) => !r.alreadyIssued)).toBe(true);
    const blocks = results.map((r) => r.blockNumber);
    expect(new Set(blocks).size).toBe(5); // automine: one block per transaction, in order
    expect(blocks).toEqual([...blocks].sort((a, b) => a - b));
  });

  it('revokes a diploma hash and a whole root; a revoked root cannot be issued', async () => {
    const diplomaHash = randomHash();
    const revoked = await registry.revoke(diplomaHash, 'fraude constatée');
    expect(revoked).toMatchObject({ alreadyRevoked: false, reason: 'fraude constatée', revoker: chain.ministryKey.address });
    console.info(`gas: revoke(hash, reason) ${revoked.gasUsed}`);
    expect(await registry.isRevoked(diplomaHash)).toBe(true);
    expect(await registry.findRevocation(diplomaHash)).toMatchObject({ txHash: revoked.txHash, reason: 'fraude constatée' });
    expect(await registry.revoke(diplomaHash, 'again')).toMatchObject({ alreadyRevoked: true, txHash: revoked.txHash });

    const root = randomHash();
    await registry.issueRoot(root);
    const rootRevoked = await registry.revoke(root, 'batch withdrawn');
    console.info(`gas: revoke(issued root, reason) ${rootRevoked.gasUsed}`);
    expect(await registry.isRevoked(root)).toBe(true);
    expect(await registry.isIssued(root)).toBe(true); // still anchored: the history stays checkable

    const never = randomHash();
    await registry.revoke(never, 'revoked before issue');
    const err = await expectChainError(registry.issueRoot(never));
    expect(err).toMatchObject({ kind: 'reverted', reason: 'HashRevoked', retryable: false });
  });

  it('enforces roles: a stranger cannot issue; a granted revoker can revoke, until the role is taken back', async () => {
    const stranger = await fundedStranger(chain.rpcUrl);
    const conn = connectChain({ rpcUrl: chain.rpcUrl, chainId: chain.chainId, privateKey: stranger.privateKey, pollingIntervalMs: 50 });
    const asStranger = createRegistry(conn, registry.address);

    const denied = await expectChainError(asStranger.issueRoot(randomHash()));
    expect(denied).toMatchObject({ kind: 'reverted', reason: 'MissingRole', retryable: false });
    expect((await expectChainError(asStranger.revoke(randomHash(), 'x'))).reason).toBe('MissingRole');
    expect((await expectChainError(asStranger.grantRole('issuer', stranger.address))).reason).toBe('MissingRole');

    await registry.grantRole('revoker', stranger.address);
    expect(await registry.hasRole(stranger.address, 'revoker')).toBe(true);
    expect(await registry.hasRole(stranger.address, 'issuer')).toBe(false);
    const hash = randomHash();
    expect((await asStranger.revoke(hash, 'by the revoker')).revoker).toBe(stranger.address);
    expect((await expectChainError(asStranger.issueRoot(randomHash()))).reason).toBe('MissingRole');

    await registry.revokeRole('revoker', stranger.address);
    expect((await expectChainError(asStranger.revoke(randomHash(), 'x'))).reason).toBe('MissingRole');
    // The admin cannot lock the registry by dropping its own admin role.
    expect((await expectChainError(registry.revokeRole('admin', chain.ministryKey.address))).reason).toBe('CannotDropOwnAdmin');
  });

  it('reports revocations to a watcher (cache invalidation)', async () => {
    const seen: RevocationEvent[] = [];
    const head = await ministry.publicClient.getBlockNumber({ cacheTime: 0 });
    const errors: ChainError[] = [];
    const stop = registry.watchRevocations((e) => void seen.push(e), {
      fromBlock: Number(head) + 1,
      pollingIntervalMs: 50,
      onError: (e) => void errors.push(e),
    });
    try {
      const a = randomHash();
      const b = randomHash();
      await registry.revoke(a, 'reason a');
      await registry.revoke(b, 'reason b');
      await expect.poll(() => seen.map((e) => e.hash), { timeout: 5_000, interval: 50 }).toEqual([a, b]);
      expect(seen[0]).toMatchObject({ reason: 'reason a', revoker: chain.ministryKey.address });
      expect(errors).toEqual([]);
    } finally {
      stop();
    }
  });

  it('tells which recorded roots the chain does not know', async () => {
    const known = randomHash();
    const anchored = await registry.issueRoot(known);
    const lost = randomHash();
    const result = await reconcile(registry, [
      { root: known, txHash: anchored.txHash },
      { root: lost, txHash: `0x${'ab'.repeat(32)}` as Hex },
    ]);
    expect(result.missing.map((m) => m.root)).toEqual([lost]);
    expect(result.known).toHaveLength(1);
    expect(result.known[0]).toMatchObject({ sameTransaction: true, anchor: { txHash: anchored.txHash } });
  });

  it('reads without a key, refuses to write without one, and refuses another chain id', async () => {
    const root = randomHash();
    await registry.issueRoot(root);
    const reader = createRegistry(connectChain({ rpcUrl: chain.rpcUrl, chainId: chain.chainId }), registry.address);
    expect(await reader.isIssued(root)).toBe(true);
    expect(await expectChainError(reader.issueRoot(randomHash()))).toMatchObject({ kind: 'misconfigured', retryable: false });

    const wrong = connectChain({ rpcUrl: chain.rpcUrl, chainId: 1, privateKey: chain.ministryKey.privateKey });
    const err = await expectChainError(createRegistry(wrong, registry.address).issueRoot(randomHash()));
    expect(err.kind).toBe('misconfigured');
    expect(err.message).toMatch(/serves chain 72328, not 1/);
  });

  it('rejects a malformed hash before touching the chain', async () => {
    await expect(registry.isIssued('0x1234')).rejects.toThrow(TypeError);
    expect(() => registry.issueRoot('0xzz' as Hex)).toThrow(TypeError);
  });
});
