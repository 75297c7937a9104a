import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { connectChain } from './connection.ts';
import { ensureRegistry } from './deployment.ts';
import { ChainError } from './errors.ts';
import { LocalChainError, startLocalChain, type LocalChain } from './local-chain.ts';
import { isAlive, waitUntil } from '@sceau/process';
import { freePort, randomHash, tempDir } from './test-support.ts';

const dirs: string[] = [];
const chains: LocalChain[] = [];
const strayPids: number[] = [];

async function newDataDir(): Promise<string> {
  const dir = await tempDir('local');
  dirs.push(dir);
  return dir;
}

async function start(dataDir: string, port: number): Promise<LocalChain> {
  const chain = await startLocalChain({ dataDir, port });
  chains.push(chain);
  return chain;
}

function connect(chain: LocalChain) {
  return connectChain({
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    privateKey: chain.ministryKey.privateKey,
    pollingIntervalMs: 50,
    afterMined: async (receipt) => void (await chain.waitUntilSaved(receipt.blockNumber)),
  });
}

afterEach(async () => {
  await Promise.all(chains.splice(0).map((c) => c.stop()));
  for (const pid of strayPids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
});

afterAll(async () => {
  await Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true })));
});

describe('local chain (Anvil) supervisor', () => {
  it('keeps anchors, receipts and the contract across kill -9 of Anvil', async () => {
    const dataDir = await newDataDir();
    const port = await freePort();
    const first = await start(dataDir, port);
    const { registry } = await ensureRegistry({ connection: connect(first), dataDir });
    const root = randomHash();
    const anchor = await registry.issueRoot(root); // afterMined: returns once the block is on disk
    const deadPid = first.pid!;
    process.kill(deadPid, 'SIGKILL');
    await waitUntil(() => !isAlive(deadPid), 5_000);
    await first.stop(); // Anvil is dead already: releases the lock

    const second = await start(dataDir, port);
    expect(second.ministryKey).toEqual(first.ministryKey); // same issuer across restarts
    const again = await ensureRegistry({ connection: connect(second), dataDir });
    expect(again.action).toBe('existing'); // the code is still there
    expect(await again.registry.isIssued(root)).toBe(true);
    expect(await again.registry.findIssuance(root)).toMatchObject({ txHash: anchor.txHash, blockNumber: anchor.blockNumber });
    const receipt = await connect(second).publicClient.getTransactionReceipt({ hash: anchor.txHash! });
    expect(receipt.status).toBe('success');
  });

  it('stops an Anvil left running by a parent killed with -9, and keeps its state', async () => {
    const dataDir = await newDataDir();
    const port = await freePort();
    const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test-fixtures/start-local-chain.ts');
    const parent = spawn(process.execPath, ['--import', 'tsx', fixture, dataDir, String(port)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    strayPids.push(parent.pid!);
    const line = await new Promise<string>((resolve, reject) => {
      parent.stdout!.once('data', (d: Buffer) => resolve(d.toString()));
      parent.once('exit', (code) => reject(new Error(`fixture exited with ${code}`)));
    });
    const orphan = (JSON.parse(line) as { pid: number }).pid;
    strayPids.push(orphan);
    parent.kill('SIGKILL');
    await new Promise((r) => parent.once('exit', r));
    expect(isAlive(orphan)).toBe(true); // the crash left Anvil running

    const chain = await start(dataDir, port); // same port: the orphan must be gone first
    expect(isAlive(orphan)).toBe(false);
    expect(chain.pid).not.toBe(orphan);
    const { registry, action } = await ensureRegistry({ connection: connect(chain), dataDir });
    expect(action).toBe('deployed');
    expect((await registry.issueRoot(randomHash())).alreadyIssued).toBe(false);
  });

  it('names CHAIN_PORT when the port is taken, and refuses a second owner of the data directory', async () => {
    const dataDir = await newDataDir();
    const blocker = net.createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const err = await startLocalChain({ dataDir, port }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LocalChainError);
      expect(err).toMatchObject({ code: 'PORT_IN_USE' });
      expect((err as Error).message).toMatch(new RegExp(`port ${port}.*CHAIN_PORT`));
    } finally {
      await new Promise((r) => blocker.close(r));
    }
    await start(dataDir, port);
    await expect(startLocalChain({ dataDir, port: await freePort() })).rejects.toMatchObject({ code: 'IN_USE' });
  });

  it('restores the last backup when Anvil left a truncated state file', async () => {
    const dataDir = await newDataDir();
    const port = await freePort();
    const first = await start(dataDir, port);
    const { registry } = await ensureRegistry({ connection: connect(first), dataDir });
    const root = randomHash();
    await registry.issueRoot(root);
    await first.stop(); // a clean stop backs the state up
    const content = await fs.readFile(first.stateFile, 'utf8');
    await fs.writeFile(first.stateFile, content.slice(0, 100)); // as if killed while saving

    const second = await start(dataDir, port);
    const again = await ensureRegistry({ connection: connect(second), dataDir });
    expect(again.action).toBe('existing');
    expect(await again.registry.isIssued(root)).toBe(true);
    const files = await fs.readdir(path.dirname(first.stateFile));
    expect(files.some((f) => f.startsWith('anvil-state.json.corrupt-'))).toBe(true);
  });

  it('redeploys the registry when the chain lost it, and says so', async () => {
    const dataDir = await newDataDir();
    const port = await freePort();
    const first = await start(dataDir, port);
    const deployed = await ensureRegistry({ connection: connect(first), dataDir });
    await first.stop();
    await fs.rm(first.stateFile);
    await fs.rm(path.join(path.dirname(first.stateFile), 'anvil-state.backup.json'));

    const second = await start(dataDir, port);
    const warnings: string[] = [];
    const log = { info() {}, error() {}, warn: (_: object, msg?: string) => void warnings.push(msg ?? '') };
    const again = await ensureRegistry({ connection: connect(second), dataDir, log });
    expect(again.action).toBe('redeployed');
    expect(warnings.join('\n')).toMatch(/missing from the chain/);
    await expect(ensureRegistry({ connection: connect(second), dataDir })).resolves.toMatchObject({
      action: 'existing',
      registry: { address: again.registry.address },
    });
    expect(deployed.registry.address).toBeTruthy();
  });

  it('classifies a stopped chain as unreachable and retryable', async () => {
    const dataDir = await newDataDir();
    const chain = await start(dataDir, await freePort());
    const conn = connect(chain);
    const { registry } = await ensureRegistry({ connection: conn, dataDir });
    await chain.stop();

    const attempts = [() => registry.issueRoot(randomHash()), () => registry.isIssued(randomHash()), () => registry.revoke(randomHash(), 'x')];
    for (const attempt of attempts) {
      const err = await attempt().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ChainError);
      expect(err).toMatchObject({ kind: 'unreachable', retryable: true });
    }
  });

  it('restarts an Anvil killed with -9 by itself, on its saved state', async () => {
    const dataDir = await newDataDir();
    const port = await freePort();
    const gaveUp: Error[] = [];
    const chain = await startLocalChain({ dataDir, port, restart: { initialDelayMs: 100, onGiveUp: (e) => void gaveUp.push(e) } });
    chains.push(chain);
    const { registry } = await ensureRegistry({ connection: connect(chain), dataDir });
    const root = randomHash();
    await registry.issueRoot(root);
    const killed = chain.pid!;
    process.kill(killed, 'SIGKILL');
    expect(await waitUntil(() => chain.pid !== null && chain.pid !== killed, 10_000)).toBe(true);
    const again = await ensureRegistry({ connection: connect(chain), dataDir });
    expect(again.action).toBe('existing');
    expect(await again.registry.isIssued(root)).toBe(true);
    expect(gaveUp).toEqual([]);
  });

  it('gives up when restarts keep failing (its port taken meanwhile), and says why', async () => {
    const dataDir = await newDataDir();
    const port = await freePort();
    const outcome: { gaveUp: Error | null } = { gaveUp: null };
    const chain = await startLocalChain({ dataDir, port, restart: { maxRestarts: 2, initialDelayMs: 300, onGiveUp: (e) => void (outcome.gaveUp = e) } });
    chains.push(chain);
    const killed = chain.pid!;
    process.kill(killed, 'SIGKILL');
    await waitUntil(() => !isAlive(killed), 5_000);
    // Another program takes the port before the first restart (300 ms later).
    const squatter = net.createServer();
    await new Promise<void>((resolve, reject) => {
      const tryListen = (left: number) => {
        squatter.once('error', () => (left > 0 ? setTimeout(() => tryListen(left - 1), 10) : reject(new Error('port never freed'))));
        squatter.listen(port, '127.0.0.1', () => resolve());
      };
      tryListen(50);
    });
    try {
      expect(await waitUntil(() => outcome.gaveUp !== null, 10_000)).toBe(true);
      expect(outcome.gaveUp).toBeInstanceOf(LocalChainError);
      expect(outcome.gaveUp!.message).toMatch(/CHAIN_PORT/);
      expect(chain.pid).toBeNull();
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});
