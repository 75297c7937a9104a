/**
 * Restarts a child process that died (kill -9, OOM kill, crash), with exponential backoff, and
 * gives up after `maxRestarts` restarts in a row that failed or did not stay up `stableMs`: the
 * caller then exits non-zero so its own supervisor (systemd, Docker, Kubernetes) starts it afresh
 * (ADR 0112). Shared by the local chain (Anvil) and the API's embedded PostgreSQL.
 */
export interface RestartPolicy {
  /** Restarts in a row before giving up (default 5); 0 never restarts. */
  maxRestarts?: number;
  /** Wait before the first restart, doubled at each next one (default 500 ms)… */
  initialDelayMs?: number;
  /** …up to this (default 15 s). */
  maxDelayMs?: number;
  /** A child up this long is healthy again: the count starts over (default 60 s). */
  stableMs?: number;
  /** Called once, when restarting is given up; the last error says why. */
  onGiveUp(error: Error): void;
}

export interface RestartLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface Restarter {
  /** The child died unexpectedly: restart it (in the background). */
  exited(): void;
  /** No more restarts; resolves once a restart under way has finished. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `start` brings the child up again (it throws if it cannot); `name` is for the logs. */
export function createRestarter(name: string, start: () => Promise<void>, policy: RestartPolicy, log: RestartLogger): Restarter {
  const maxRestarts = policy.maxRestarts ?? 5;
  const initialDelayMs = policy.initialDelayMs ?? 500;
  const maxDelayMs = policy.maxDelayMs ?? 15_000;
  const stableMs = policy.stableMs ?? 60_000;
  let attempts = 0;
  let upSince = Date.now();
  let stopped = false;
  let gaveUp = false;
  let running: Promise<void> | null = null;
  /** The child died again while a restart was under way (e.g. right after it came up). */
  let diedAgain = false;

  const run = async () => {
    if (Date.now() - upSince >= stableMs) attempts = 0;
    let lastError = new Error(`${name} exited`);
    while (!stopped) {
      if (attempts >= maxRestarts) {
        gaveUp = true;
        log.error({ attempts, err: lastError }, `${name}: giving up after ${attempts} restart(s) in a row`);
        policy.onGiveUp(lastError);
        return;
      }
      const delay = Math.min(initialDelayMs * 2 ** attempts, maxDelayMs);
      attempts++;
      log.warn({ attempt: attempts, of: maxRestarts, delayMs: delay }, `${name} died: restarting`);
      await sleep(delay);
      if (stopped) return;
      try {
        diedAgain = false;
        await start();
        if (diedAgain) throw new Error(`${name} died again right after it came up`);
        upSince = Date.now();
        log.info({ attempt: attempts }, `${name} restarted`);
        return;
      } catch (error) {
        lastError = error instanceof Error ? error : new Error(String(error));
        log.warn({ attempt: attempts, err: lastError }, `${name} could not be restarted`);
      }
    }
  };

  return {
    exited() {
      if (running) diedAgain = true;
      if (stopped || gaveUp || running) return;
      running = run().finally(() => {
        running = null;
      });
    },
    async stop() {
      stopped = true;
      await running;
    },
  };
}
