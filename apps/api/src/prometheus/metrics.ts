// The platform's Prometheus metrics (ADR 0122): one registry per process, filled by the HTTP hook,
// the job queue and the verification routes; the scrape-time gauges (queue depth, issuing progress)
// are added by the process that runs the start-up work (platform-gauges.ts). Exposed on their own
// port by metrics-server.ts, which in a cluster adds up every process's registry.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpRequests = new Counter({
  name: 'sceau_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern (never the raw URL) and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'sceau_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  // From a cached verification (sub-millisecond) to a PDF upload or a zip (seconds).
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

export const jobsRun = new Counter({
  name: 'sceau_jobs_total',
  help: 'Background jobs run by this platform, by job name and outcome (completed, failed: retried while retries remain)',
  labelNames: ['job', 'outcome'] as const,
  registers: [registry],
});

export type VerificationPath = 'id' | 'pdf' | 'qr' | 'credential' | 'sd-jwt' | 'vc';

export const verifications = new Counter({
  name: 'sceau_verifications_total',
  help: 'Verification answers, by verdict and what was verified (id: a link or id; pdf; qr: the QR text; credential: the JSON)',
  labelNames: ['verdict', 'path'] as const,
  registers: [registry],
});

export function countVerification(verdict: string, path: VerificationPath): void {
  verifications.inc({ verdict, path });
}

export const sealMismatches = new Counter({
  name: 'sceau_verification_seal_mismatches_total',
  help: 'Diplomas read for a verification by id whose seal, made at issuance under the current key, no longer matches the row: changed in the database since (ADR 0154); each was checked in full',
  registers: [registry],
});

export function countSealMismatch(): void {
  sealMismatches.inc();
}

export const answersUncompressed = new Counter({
  name: 'sceau_http_answers_uncompressed_under_load_total',
  help: 'Answers sent as they are to a client that accepts compression, because this process was saturated (ADR 0126, 2026-11-28), by route pattern',
  labelNames: ['route'] as const,
  registers: [registry],
});

/** What this process knows of the chain, from its revocation watcher (ADR 0137); null when it does not watch. */
export interface ChainGauges {
  reachable: boolean | null;
  lastBlock: number | null;
  indexLagSeconds: number | null;
}
let chainGauges: (() => ChainGauges) | null = null;

/** The process's revocation watcher reports here while it runs. */
export function trackChain(source: () => ChainGauges): void {
  chainGauges = source;
}

/** A watcher that stops takes its figures away (unless another has replaced them). */
export function untrackChain(source: () => ChainGauges): void {
  if (chainGauges === source) chainGauges = null;
}

// A cluster's scrape gives the worst process: the least reachable, the most behind.
new Gauge({
  name: 'sceau_chain_reachable',
  help: "1 when the revocation watcher's last poll reached the chain, 0 when it failed (absent before the first poll)",
  registers: [registry],
  aggregator: 'min',
  collect() {
    this.reset();
    const reachable = chainGauges?.().reachable;
    if (reachable !== null && reachable !== undefined) this.set(reachable ? 1 : 0);
  },
});

new Gauge({
  name: 'sceau_chain_last_block',
  help: "The chain's newest block the revocation watcher saw",
  registers: [registry],
  aggregator: 'max',
  collect() {
    this.reset();
    const block = chainGauges?.().lastBlock;
    if (block !== null && block !== undefined) this.set(block);
  },
});

new Gauge({
  name: 'sceau_revocation_index_lag_seconds',
  help: 'Seconds since the revocation index last read the chain up to its head; past REVOCATION_MAX_STALENESS_SECONDS answers say "could not check"',
  registers: [registry],
  aggregator: 'max',
  collect() {
    this.reset();
    const lag = chainGauges?.().indexLagSeconds;
    if (lag !== null && lag !== undefined) this.set(lag);
  },
});
