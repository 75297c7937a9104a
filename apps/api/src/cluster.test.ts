// API_PROCESSES=2: the real server (src/server.ts) as a primary with two HTTP processes on one port.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/helpers.ts';
import { apiProcessCount } from './cluster.ts';
import { freePort } from '@sceau/process';

let primary: ChildProcess;
let database: { url: string; drop(): Promise<void> };
let dataDir: string;
let port: number;
const lines: Array<Record<string, unknown>> = [];

async function waitForLine(match: (line: Record<string, unknown>) => boolean, timeoutMs: number, from = 0) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const found = lines.slice(from).find(match);
    if (found) return found;
    if (primary.exitCode !== null) throw new Error(`the server stopped (exit ${primary.exitCode}): ${JSON.stringify(lines.slice(-5))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out; last lines: ${JSON.stringify(lines.slice(-5))}`);
}

/** A request on a new connection each time (round robin is per connection). */
function health(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/health', agent: false, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sceau-cluster-'));
  await chmod(dataDir, 0o755);
  port = await freePort();
  primary = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, 'server.ts')], {
    env: {
      ...process.env,
      API_PROCESSES: '2',
      NODE_ENV: 'test',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'info',
      WEB_DIST: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      CHAIN_PORT: String(await freePort()),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let buffered = '';
  primary.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const part of parts) {
      try {
        lines.push(JSON.parse(part));
      } catch {
        // not a log line
      }
    }
  });
  primary.stderr!.on('data', () => {});
  await waitForLine((l) => typeof l.msg === 'string' && l.msg.includes('(2 API processes)'), 150_000);
}, 180_000);

afterAll(async () => {
  if (primary && primary.exitCode === null) {
    // Stopped cleanly if it can (its Anvil and PostgreSQL with it), else killed.
    const exited = new Promise((r) => primary.once('exit', r));
    primary.kill('SIGTERM');
    const timer = setTimeout(() => primary.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('API_PROCESSES', () => {
  it('reads API_PROCESSES, or WEB_CONCURRENCY, and refuses anything but a whole number from 1', () => {
    expect(apiProcessCount({})).toBe(1);
    expect(apiProcessCount({ API_PROCESSES: '3' })).toBe(3);
    expect(apiProcessCount({ WEB_CONCURRENCY: '2' })).toBe(2);
    expect(() => apiProcessCount({ API_PROCESSES: 'two' })).toThrow(/API_PROCESSES/);
    expect(() => apiProcessCount({ API_PROCESSES: '0' })).toThrow(/API_PROCESSES/);
  });

  it('answers on one port from two processes, replaces one that dies, and stops with its primary', async () => {
    const listening = lines.filter((l) => l.msg === 'API process listening').map((l) => l.pid as number);
    expect(new Set(listening).size).toBe(2);
    for (let i = 0; i < 20; i++) expect(await health()).toBe(200);
    // Each answer is logged by the process that served it.
    const served = new Set(lines.filter((l) => l.msg === 'request completed').map((l) => l.pid));
    expect(served).toEqual(new Set(listening));
    expect(served.has(primary.pid)).toBe(false);

    // One dies: the other keeps answering, and the primary starts a replacement.
    const mark = lines.length;
    process.kill(listening[0]!, 'SIGKILL');
    // A connection handed to it as it died may fail; the next ones are answered by the other.
    await new Promise((r) => setTimeout(r, 500));
    for (let i = 0; i < 5; i++) expect(await health()).toBe(200);
    const replacement = await waitForLine((l) => l.msg === 'API process listening', 60_000, mark);
    expect(listening).not.toContain(replacement.pid);

    // SIGTERM to the primary stops everything.
    const exited = new Promise<number | null>((r) => primary.once('exit', (code) => r(code)));
    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(health()).rejects.toThrow();
    for (const pid of [listening[1]!, replacement.pid as number]) expect(() => process.kill(pid, 0)).toThrow();
  }, 120_000);
});
