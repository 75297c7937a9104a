/** Helpers shared by this package's tests (not exported by the package). */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

export { freePort } from '@sceau/process';

export async function tempDir(prefix: string): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), `sceau-chain-${prefix}-`));
}

export function randomHash(): Hex {
  return generatePrivateKey(); // 32 random bytes, 0x-prefixed: any bytes32 will do
}

/** A fresh account funded through Anvil's dev RPC (a stranger to the registry). */
export async function fundedStranger(rpcUrl: string): Promise<{ address: Address; privateKey: Hex }> {
  const privateKey = generatePrivateKey();
  const address = privateKeyToAccount(privateKey).address;
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setBalance', params: [address, '0x3635c9adc5dea00000'] }),
  });
  const body = (await res.json()) as { error?: unknown };
  if (body.error) throw new Error(JSON.stringify(body.error));
  return { address, privateKey };
}
