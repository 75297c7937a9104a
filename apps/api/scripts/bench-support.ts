/**
 * What the benchmarks (bench:issue, bench:session, bench:verify) share: a free port, the free-disk
 * check before they write, and the whole machine's CPU use (to say how busy it was).
 */
import { readFile, statfs } from 'node:fs/promises';
export { freePort } from '@sceau/process';

const GB = 1024 * 1024 * 1024;

/**
 * Stops the bench (exit code 2) before it writes anything when `folder` has less than `needBytes`
 * free: `<bench>: not enough free disk in <folder>: X GB free, about Y GB needed<what>. <advice>`.
 */
export async function ensureFreeDisk(bench: string, folder: string, needBytes: number, what: string, advice: string): Promise<void> {
  const fs = await statfs(folder);
  const free = fs.bavail * fs.bsize;
  if (free >= needBytes) return;
  console.error(`${bench}: not enough free disk in ${folder}: ${(free / GB).toFixed(1)} GB free, about ${(needBytes / GB).toFixed(1)} GB needed${what}. ${advice}`);
  process.exit(2);
}

/** Whole-machine CPU time (every process: the bench, PostgreSQL, Anvil), from /proc/stat. */
export async function machineCpu(): Promise<{ busy: number; total: number } | null> {
  try {
    const v = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = v[3]! + (v[4] ?? 0);
    const total = v.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/** The machine's busy share (percent) since `from`, or null when it cannot be told. */
export async function machineBusySince(from: { busy: number; total: number } | null): Promise<number | null> {
  const to = await machineCpu();
  if (!from || !to || to.total <= from.total) return null;
  return Math.round((100 * (to.busy - from.busy)) / (to.total - from.total));
}
