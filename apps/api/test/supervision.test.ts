import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanUpPlatforms, makeDataDir, platformChildren, platformEnv, PlatformProcess } from './server-process.ts';

// The platform supervises its embedded PostgreSQL and its local Anvil (ADR 0112): either killed
// with -9 is started again, and the API answers again by itself within seconds; when restarts keep
// failing, the platform exits non-zero so that its own supervisor starts it afresh.

let dataDir = '';
afterAll(() => cleanUpPlatforms([dataDir]), 60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until true; the time it took, or a failure after `timeoutMs`. */
async function within(timeoutMs: number, probe: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (await probe().catch(() => false)) return Date.now() - start;
    await sleep(200);
  }
  throw new Error(`not within ${timeoutMs / 1000} s`);
}

async function childPid(name: 'postgres' | 'anvil'): Promise<number> {
  const found = (await platformChildren(dataDir)).find((c) => c.name === name);
  if (!found) throw new Error(`no ${name} running`);
  return found.pid;
}

describe('supervision of the embedded PostgreSQL and the local chain', () => {
  it('restarts either after kill -9, and exits non-zero when restarts keep failing', { timeout: 240_000 }, async () => {
    dataDir = await makeDataDir('sceau-supervision-');
    const env = await platformEnv(dataDir, { DEMO_DATA: 'false', SUPERVISOR_MAX_RESTARTS: '2' });
    const server = await PlatformProcess.start(env);
    const ready = async () => {
      const res = await fetch(`${server.base}/health/ready`, { signal: AbortSignal.timeout(5_000) });
      return { status: res.status, body: (await res.json()) as { checks: Record<string, string> } };
    };
    const sessions = () => fetch(`${server.base}/sessions`, { signal: AbortSignal.timeout(5_000) });
    expect(await ready()).toMatchObject({ status: 200, body: { checks: { database: 'ok', chain: 'ok', jobs: 'ok' } } });

    // PostgreSQL killed with -9: answered with 503 meanwhile, then served again with no one's help.
    const postgres = await childPid('postgres');
    process.kill(postgres, 'SIGKILL');
    const during = await sessions();
    expect([200, 503]).toContain(during.status); // 200 only if the restart already happened
    if (during.status === 503) expect(during.headers.get('retry-after')).toBe('5');
    // Back means a new server: the old one may answer a moment longer while SIGKILL lands (or linger as a zombie).
    const restarted = async () => (await childPid('postgres').catch(() => postgres)) !== postgres;
    const pgBack = await within(30_000, async () => (await restarted()) && (await sessions()).status === 200 && (await ready()).status === 200);
    expect(await childPid('postgres')).not.toBe(postgres);
    console.info(`PostgreSQL killed with -9: the API answered again after ${(pgBack / 1000).toFixed(1)} s`);

    // Anvil killed with -9: the chain is back, on its saved state.
    const anvil = await childPid('anvil');
    process.kill(anvil, 'SIGKILL');
    const anvilBack = await within(30_000, async () => (await ready()).body.checks.chain === 'ok' && (await childPid('anvil')) !== anvil);
    console.info(`Anvil killed with -9: the chain answered again after ${(anvilBack / 1000).toFixed(1)} s`);
    expect(server.alive).toBe(true);

    // Anvil killed again, and its port taken by another program: restarts fail, the platform exits non-zero.
    const again = await childPid('anvil');
    process.kill(again, 'SIGKILL');
    const squatter = createServer();
    await within(
      5_000,
      () =>
        new Promise<boolean>((resolve) => {
          squatter.once('error', () => resolve(false));
          squatter.listen(Number(env.CHAIN_PORT), '127.0.0.1', () => resolve(true));
        }),
    );
    try {
      await within(60_000, async () => !server.alive);
      expect(server.child.exitCode).toBe(1);
      expect(server.output()).toMatch(/cannot be restarted/);
    } finally {
      squatter.close();
    }
  });
});
