import { useEffect, useState } from 'react';

/**
 * The clock for a countdown, read again every second while `active`. A new `since` (a code sent
 * again, a new deadline) reads the clock in that same render, not at the next tick: a countdown
 * computed from a moment just taken never starts one second (or one minute) too high, which a
 * loaded phone would otherwise show.
 */
export function useNow(active: boolean, since?: unknown): number {
  const [clock, setClock] = useState(() => ({ now: Date.now(), since }));
  const stale = !Object.is(clock.since, since);
  const now = stale ? Date.now() : clock.now;
  // React's way to adjust state to a changed input during render (no effect, no extra frame).
  if (stale) setClock({ now, since });
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => setClock((current) => ({ ...current, now: Date.now() })), 1000);
    return () => window.clearInterval(timer);
  }, [active]);
  return now;
}
