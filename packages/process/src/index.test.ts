import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { freePort, isAlive, probePort, processArgs, terminate } from './index.ts';

describe('process helpers', () => {
  it('finds a free port that can then be listened on', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    await probePort('127.0.0.1', port);
  });

  it('sees a child alive, reads its arguments, and terminates it', async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    const pid = child.pid!;
    expect(isAlive(pid)).toBe(true);
    if (process.platform === 'linux') expect(await processArgs(pid)).toEqual(['sleep', '30']);
    expect(await terminate(pid, 2_000)).toBe('terminated');
    expect(isAlive(pid)).toBe(false);
  });
});
