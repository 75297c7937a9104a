/**
 * Process and port helpers shared by the supervisors of the embedded PostgreSQL server (apps/api)
 * and of Anvil (@sceau/chain), and by the tests that start servers on ports of their own.
 * Linux reads /proc; elsewhere ps and kill(0) stand in where they can.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);
const isLinux = process.platform === 'linux';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface ProcStat {
  state: string;
  ppid: number;
  startTime: string;
}

function readProcStat(pid: number): ProcStat | null {
  try {
    const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ..."; comm may hold spaces and ')'; starttime is field 22.
    const rest = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0] ?? '?', ppid: Number(rest[1]), startTime: rest[19] ?? '' };
  } catch {
    return null;
  }
}

/** Exists and is not a zombie (an exited child nobody reaped yet counts as dead). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (isLinux) {
    const st = readProcStat(pid);
    return st !== null && st.state !== 'Z' && st.state !== 'X';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Changes when a pid is reused (Linux: start time in clock ticks since boot); null elsewhere. */
export function processStartTime(pid: number): string | null {
  return isLinux ? (readProcStat(pid)?.startTime ?? null) : null;
}

export async function processArgs(pid: number): Promise<string[] | null> {
  if (isLinux) {
    try {
      return (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter((s) => s.length > 0);
    } catch {
      return null;
    }
  }
  try {
    const { stdout } = await execFileAsync('ps', ['-ww', '-o', 'command=', '-p', String(pid)]);
    return stdout.trim() ? stdout.trim().split(/\s+/) : null;
  } catch {
    return null;
  }
}

/** Pids of every process whose command line satisfies `match` (Linux only; [] elsewhere). */
export async function findProcesses(match: (args: string[]) => boolean | Promise<boolean>): Promise<number[]> {
  if (!isLinux) return [];
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const args = await processArgs(pid);
    if (args && args.length > 0 && (await match(args))) found.push(pid);
  }
  return found;
}

/** The direct children of `pid` (Linux only; [] elsewhere). */
export function childrenOf(pid: number): number[] {
  if (!isLinux) return [];
  const out: number[] = [];
  try {
    for (const entry of readdirSync('/proc')) {
      const child = Number(entry);
      if (Number.isInteger(child) && readProcStat(child)?.ppid === pid) out.push(child);
    }
  } catch {
    /* best effort */
  }
  return out;
}

export async function samePath(a: string, b: string): Promise<boolean> {
  if (path.resolve(a) === path.resolve(b)) return true;
  try {
    return (await fs.realpath(a)) === (await fs.realpath(b));
  } catch {
    return false;
  }
}

export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    /* already gone */
  }
}

export async function waitUntil(predicate: () => boolean, timeoutMs: number, stepMs = 20): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (predicate()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(stepMs);
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
export async function terminate(pid: number, graceMs: number): Promise<'terminated' | 'killed'> {
  signal(pid, 'SIGTERM');
  if (await waitUntil(() => !isAlive(pid), graceMs)) return 'terminated';
  signal(pid, 'SIGKILL');
  if (await waitUntil(() => !isAlive(pid), 5_000)) return 'killed';
  throw new Error(`process ${pid} did not exit after SIGKILL`);
}

/** Resolves if `host`:`port` can be listened on; rejects with the listen error otherwise. */
export async function probePort(host: string, port: number): Promise<void> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, resolve);
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A port on 127.0.0.1 that was free a moment ago (the system picks it). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
