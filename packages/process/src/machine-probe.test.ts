import { describe, expect, it } from 'vitest';
import { describeMachineProbe, probeMachine } from './machine-probe.ts';

describe('probeMachine', () => {
  it('measures each figure as a positive, finite number', () => {
    const probe = probeMachine({ touchMiB: 16, chaseMiB: 4, loads: 50_000 });
    for (const value of Object.values(probe)) {
      expect(Number.isFinite(value)).toBe(true);
      expect(value).toBeGreaterThan(0);
    }
  });
});

describe('describeMachineProbe', () => {
  const quiet = { firstTouchMsPerGiB: 250, retouchMsPerGiB: 60, randomAccessNs: 95, sha256MBps: 1900 };

  it('prints the figures on one line when memory new to a process is cheap', () => {
    expect(describeMachineProbe(quiet)).toBe('machine check: memory first touched 250 ms/GiB (again 60), random access 95 ns, SHA-256 1,900 MB/s');
  });

  it('warns, with the cost of one page, when memory new to a process is many times dearer than touching it again', () => {
    const text = describeMachineProbe({ ...quiet, firstTouchMsPerGiB: 3_240 });
    expect(text.split('\n')).toHaveLength(2);
    // 3,240 ms over 262,144 pages of 4 KiB: 12 µs a page.
    expect(text).toContain('memory new to a process costs 12 µs a page here');
  });
});
