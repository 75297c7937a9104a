import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useNow } from '@/lib/use-now';

/** Every value a render computed, the frames an effect would correct a moment later included. */
const rendered: number[] = [];

function Countdown({ deadline }: { deadline: number }) {
  const now = useNow(true, deadline);
  const seconds = Math.ceil((deadline - now) / 1000);
  rendered.push(seconds);
  return <p>{seconds}</p>;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('useNow', () => {
  it('reads the clock in the render that brings a new deadline, not at the next tick', () => {
    vi.useFakeTimers({ now: new Date('2026-11-27T12:00:00Z') });
    const { rerender } = render(<Countdown deadline={Date.now() + 60_000} />);
    expect(screen.getByText('60')).toBeInTheDocument();
    // 900 ms pass before the next tick (a loaded phone); a resend is refused for 42 s.
    vi.setSystemTime(Date.now() + 900);
    rendered.length = 0;
    rerender(<Countdown deadline={Date.now() + 42_000} />);
    expect(screen.getByText('42')).toBeInTheDocument();
    // Not even one frame showed 43.
    expect(Math.max(...rendered)).toBe(42);
  });

  it('ticks every second while active', () => {
    vi.useFakeTimers({ now: new Date('2026-11-27T12:00:00Z') });
    render(<Countdown deadline={Date.now() + 5_000} />);
    expect(screen.getByText('5')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(2_000);
    });
    expect(screen.getByText('3')).toBeInTheDocument();
  });
});
