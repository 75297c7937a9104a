/**
 * A one-second check of the machine a benchmark runs on, printed beside its figures so that two
 * runs can be compared: the same code measured 2–3 times slower on this project's shared virtual
 * machines from one evening to the next (docs/performance.md, "The machine under the figures").
 *
 * - memory first touched: the cost of the kernel (and, in a virtual machine, the host) giving a
 *   process pages it never had; a fresh PostgreSQL backend, a new Chromium renderer or a growing
 *   V8 heap pays it. On this project's virtual machines it was measured at 10–50 times the cost
 *   of touching the same pages again (about 0.1–0.3 s a GiB on bare metal).
 * - random memory access: one dependent load per 64-byte line over a block larger than the
 *   processor's caches (a pointer chase), the latency an index lookup or a garbage collector sees.
 * - SHA-256 throughput: work that stays in the caches, the part of a request a faster processor speeds up.
 */
import { createHash, randomInt } from 'node:crypto';

export interface MachineProbe {
  /** Milliseconds to write 1 GiB of memory this process never touched before. */
  firstTouchMsPerGiB: number;
  /** Milliseconds to write the same 1 GiB again. */
  retouchMsPerGiB: number;
  /** Nanoseconds per dependent random load over 64 MiB. */
  randomAccessNs: number;
  /** SHA-256 over a buffer in the caches, MB/s. */
  sha256MBps: number;
}

const MiB = 1024 * 1024;

function millisecondsOf(work: () => void): number {
  const start = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Writes a block the process never had, then again; the first figure includes the page faults. */
function touch(bytes: number): { first: number; again: number } {
  // allocUnsafeSlow: memory straight from the allocator (for this size, fresh pages from the kernel), outside Node's pool.
  const block = Buffer.allocUnsafeSlow(bytes);
  const first = millisecondsOf(() => block.fill(1));
  const again = millisecondsOf(() => block.fill(2));
  return { first, again };
}

/** A random cycle through every 64-byte line of the block (Sattolo's shuffle), followed load after load. */
function chase(bytes: number, loads: number): number {
  const stride = 16; // 16 × 4 bytes: one cache line
  const lines = bytes / 64;
  const order = new Uint32Array(lines);
  for (let i = 0; i < lines; i++) order[i] = i;
  for (let i = lines - 1; i > 0; i--) {
    const j = randomInt(i);
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }
  const next = new Int32Array(bytes / 4);
  for (let i = 0; i < lines; i++) next[order[i]! * stride] = order[(i + 1) % lines]! * stride;
  let at = 0;
  const ms = millisecondsOf(() => {
    for (let i = 0; i < loads; i++) at = next[at]!;
  });
  if (at < 0) throw new Error('unreachable'); // keeps the loop's result alive
  return (ms * 1e6) / loads;
}

function sha256Rate(bytes: number, rounds: number): number {
  const block = Buffer.alloc(bytes, 7);
  createHash('sha256').update(block).digest(); // warm
  const ms = millisecondsOf(() => {
    for (let i = 0; i < rounds; i++) createHash('sha256').update(block).digest();
  });
  return (bytes * rounds) / MiB / (ms / 1000);
}

/**
 * Takes about a second on a quiet machine (a few on a slow one) with its defaults: 256 MiB touched
 * for a moment, a 64 MiB chase (larger than the caches). Smaller sizes are for tests only.
 */
export function probeMachine({ touchMiB = 256, chaseMiB = 64, loads = 2_000_000 } = {}): MachineProbe {
  const touched = touch(touchMiB * MiB);
  const perGiB = 1024 / touchMiB;
  return {
    firstTouchMsPerGiB: Math.round(touched.first * perGiB),
    retouchMsPerGiB: Math.round(touched.again * perGiB),
    randomAccessNs: Math.round(chase(chaseMiB * MiB, loads) * 10) / 10,
    sha256MBps: Math.round(sha256Rate(4 * MiB, 32)),
  };
}

/** One line for a benchmark's header, with a warning when pages new to the process are slow. */
export function describeMachineProbe(probe: MachineProbe): string {
  const fmt = (n: number) => n.toLocaleString('en-US');
  const line = `machine check: memory first touched ${fmt(probe.firstTouchMsPerGiB)} ms/GiB (again ${fmt(probe.retouchMsPerGiB)}), random access ${fmt(probe.randomAccessNs)} ns, SHA-256 ${fmt(probe.sha256MBps)} MB/s`;
  const slowFirstTouch = probe.firstTouchMsPerGiB > 8 * Math.max(probe.retouchMsPerGiB, 1) && probe.firstTouchMsPerGiB > 1000;
  return slowFirstTouch
    ? `${line}\n   memory new to a process costs ${fmt(Math.round((probe.firstTouchMsPerGiB * 1000) / 262_144))} µs a page here: new processes, PostgreSQL backends and Chromium renderers run slower than their CPU figures say; compare only runs with similar checks`
    : line;
}
