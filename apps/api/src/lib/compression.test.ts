// When a process stops compressing the answers that allow it: its event loop's utilisation over a
// window, with a lower threshold to start again.
import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { CompressionLoad } from './compression.ts';

/** A fake event loop: `busyFor(ms, share)` advances the clock with that share of it active. */
function fakeLoop() {
  let now = 0;
  let active = 0;
  let reads = 0;
  const reading = (): EventLoopUtilization => ({ idle: now - active, active, utilization: now ? active / now : 0 });
  return {
    now: () => now,
    utilization: (since?: EventLoopUtilization): EventLoopUtilization => {
      reads++;
      const current = reading();
      if (!since) return current;
      const elapsed = current.idle + current.active - (since.idle + since.active);
      const busy = current.active - since.active;
      return { idle: current.idle - since.idle, active: busy, utilization: elapsed ? busy / elapsed : 0 };
    },
    busyFor(ms: number, share: number) {
      now += ms;
      active += ms * share;
    },
    reads: () => reads,
  };
}

describe('CompressionLoad', () => {
  it('stops compressing when a window was busy at or above the threshold, and starts again only under the lower one', () => {
    const loop = fakeLoop();
    const load = new CompressionLoad({ stopAbove: 0.9, resumeBelow: 0.7, windowMs: 250, ...loop });
    const after = (share: number) => {
      loop.busyFor(250, share);
      return load.saturated();
    };
    expect(load.saturated()).toBe(false);
    expect(after(0.5)).toBe(false);
    expect(after(0.89)).toBe(false);
    expect(after(0.95)).toBe(true);
    // Between the two thresholds it stays as it was: no flapping around one value.
    expect(after(0.8)).toBe(true);
    expect(after(0.75)).toBe(true);
    expect(after(0.6)).toBe(false);
    expect(after(0.8)).toBe(false);
    expect(after(1)).toBe(true);
  });

  it('reads the event loop once a window, whatever the number of requests, and a pause reads as idle', () => {
    const loop = fakeLoop();
    const load = new CompressionLoad({ windowMs: 250, ...loop });
    // Busy before the first request (a start): not counted, the first window starts there.
    loop.busyFor(5_000, 1);
    expect(load.saturated()).toBe(false);
    const start = loop.reads();
    loop.busyFor(250, 1);
    for (let i = 0; i < 1000; i++) load.saturated();
    expect(load.saturated()).toBe(true);
    expect(loop.reads() - start).toBe(2);
    // Within the window nothing is read again, and the answer stays.
    loop.busyFor(100, 0);
    expect(load.saturated()).toBe(true);
    expect(loop.reads() - start).toBe(2);
    // A minute without requests, then one: the window since the last reading was mostly idle.
    loop.busyFor(60_000, 0);
    expect(load.saturated()).toBe(false);
  });

  it('refuses thresholds that would never let compression start again', () => {
    expect(() => new CompressionLoad({ stopAbove: 0.5, resumeBelow: 0.8 })).toThrow(/resumes below/);
  });

  it("reads this process's event loop by default: idle in a test, so answers are compressed", async () => {
    let reads = 0;
    const load = new CompressionLoad({
      windowMs: 10,
      utilization: (since) => {
        reads++;
        return performance.eventLoopUtilization(since);
      },
    });
    expect(load.saturated()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(load.saturated()).toBe(false);
    expect(reads).toBe(3);
  });
});
