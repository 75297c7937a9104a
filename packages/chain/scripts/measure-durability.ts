import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connectChain, ensureRegistry, startLocalChain } from '../src/index.ts';
import { generatePrivateKey } from 'viem/accounts';

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sceau-measure-'));
const port = 18999;
let t = performance.now();
let chain = await startLocalChain({ dataDir, port });
console.log('first start ms', Math.round(performance.now() - t));
const conn = (c: typeof chain, save: boolean) =>
  connectChain({
    rpcUrl: c.rpcUrl,
    chainId: c.chainId,
    privateKey: c.ministryKey.privateKey,
    pollingIntervalMs: 50,
    ...(save ? { afterMined: async (r) => void (await c.waitUntilSaved(r.blockNumber)) } : {}),
  });
let { registry } = await ensureRegistry({ connection: conn(chain, false), dataDir });
// state growth
await new Promise((r) => setTimeout(r, 1500));
const size0 = (await fs.stat(chain.stateFile)).size;
for (let i = 0; i < 100; i++) await registry.issueRoot(generatePrivateKey());
await new Promise((r) => setTimeout(r, 1500));
const size1 = (await fs.stat(chain.stateFile)).size;
console.log('state bytes per anchored root', Math.round((size1 - size0) / 100));
let t2 = performance.now();
let n = 0;
for (let i = 0; i < 20; i++) {
  t = performance.now();
  await registry.issueRoot(generatePrivateKey());
  n++;
}
console.log('issueRoot ms (no save wait)', Math.round((performance.now() - t2) / n));
let lost = 0,
  kept = 0;
for (let round = 0; round < 5; round++) {
  const root = generatePrivateKey();
  await registry.issueRoot(root);
  process.kill(chain.pid!, 'SIGKILL');
  await new Promise((r) => setTimeout(r, 100));
  await chain.stop();
  t = performance.now();
  chain = await startLocalChain({ dataDir, port });
  const restartMs = Math.round(performance.now() - t);
  ({ registry } = await ensureRegistry({ connection: conn(chain, false), dataDir }));
  if (await registry.isIssued(root)) kept++;
  else lost++;
  console.log('round', round, 'restart ms', restartMs);
}
console.log(`kill -9 right after the receipt, no save wait: kept ${kept}, lost ${lost}`);
lost = 0;
kept = 0;
const waits: number[] = [];
for (let round = 0; round < 5; round++) {
  const root = generatePrivateKey();
  const c = conn(chain, true);
  const reg = (await ensureRegistry({ connection: c, dataDir })).registry;
  t = performance.now();
  await reg.issueRoot(root);
  waits.push(Math.round(performance.now() - t));
  process.kill(chain.pid!, 'SIGKILL');
  await new Promise((r) => setTimeout(r, 100));
  await chain.stop();
  chain = await startLocalChain({ dataDir, port });
  ({ registry } = await ensureRegistry({ connection: conn(chain, false), dataDir }));
  if (await registry.isIssued(root)) kept++;
  else lost++;
}
console.log(`kill -9 after waitUntilSaved: kept ${kept}, lost ${lost}; issueRoot incl. save wait ms`, waits);
t = performance.now();
await chain.stop();
console.log('stop ms', Math.round(performance.now() - t));
await fs.rm(dataDir, { recursive: true, force: true });
