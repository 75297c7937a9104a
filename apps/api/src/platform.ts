import type { Server } from 'node:http';
import type { RestartPolicy } from '@sceau/chain';
import { buildApp } from './app.ts';
import { apiProcessCount, forkHttpProcesses, isHttpProcess } from './cluster.ts';
import { loadConfig } from './config.ts';
import { createLogger } from './lib/logger.ts';
import { startMetricsServer, answerMetricsRequests } from './prometheus/metrics-server.ts';
import { trackPlatform } from './prometheus/platform-gauges.ts';
import { createDb } from './db/client.ts';
import { openDatabase } from './db/open-database.ts';
import { openChain, type OpenChain } from './modules/chain/open-chain.ts';
import { writeDevelopmentTrustList } from './modules/identity/development-trust-list.ts';
import { loadMinistryKeys, type MinistryKeys } from './modules/keys/ministry-keys.ts';
import { seedCatalogue, seedDemo } from './seed/seed.ts';
import { demoDiplomaId, seedCountryTemplate, seedDemoBatch } from './seed/demo-batch.ts';
import { JobQueue } from './jobs/job-queue.ts';
import { Sweeper } from './jobs/sweeps.ts';
import { resumeIssuing } from './modules/generations/issuing-jobs.ts';
import { closeSharedRenderPool } from './modules/generations/render-pool.ts';
import { createServices, type Services } from './services.ts';
import type { Db } from './db/client.ts';

/**
 * The platform: database, keys, chain, jobs and the API, in this process or as a cluster. Started
 * by `server.ts`, once it has checked the configuration.
 */
const config = loadConfig();
const log = createLogger(config);

/**
 * The embedded PostgreSQL and the local Anvil are children of this process: one that dies is
 * started again (backoff 0.5 s doubling to 15 s); after SUPERVISOR_MAX_RESTARTS failed restarts in
 * a row this process exits non-zero, so that its own supervisor (systemd, Docker, Kubernetes)
 * starts the platform afresh (ADR 0112). Work in flight is lost as in any crash: jobs are durable
 * and idempotent, and the next start resumes them.
 */
function restartPolicy(what: string): RestartPolicy {
  return {
    maxRestarts: config.supervisor.maxRestarts,
    onGiveUp: (error) => {
      log.fatal({ err: error }, `${what} keeps failing and cannot be restarted: exiting so that a supervisor starts the platform again`);
      process.exit(1);
    },
  };
}

/**
 * Each process that answers verifications follows the contract's revocations, by this platform or
 * any other holder of the revoker role: the set of revoked hashes, filled from the registry's past
 * events, kept by its new ones, clears cached answers as it changes (ADR 0102).
 */
function watchRevocations(services: Services): () => void {
  return (
    services.verification?.watchRevocations({
      onError: (error) => log.warn({ err: error }, 'revocation watcher: chain not answering, will retry (revocations are read from the chain meanwhile)'),
    }) ?? (() => {})
  );
}

/**
 * The services, built with the job queue they send to; then the queue is given the jobs the
 * services define (it starts later, in the caller, once it knows whether this process works them).
 */
function servicesWithJobs(db: Db, connectionString: string, identity: { keys: MinistryKeys; chain: OpenChain }) {
  const queue = new JobQueue(connectionString, log);
  const services = createServices(db, config, { identity, log, queue });
  // Abandoned list-check drafts and temporary files a kill left behind (ADR 0112).
  const sweeper = new Sweeper(
    db,
    services.storage,
    { draftTtlHours: config.importDraftTtlHours, filesDir: config.fileStorage.kind === 'local' ? config.filesDir : null, uploads: services.uploads },
    log,
  );
  queue.define(...Object.values(services.jobs!), services.revocation!.job, services.imports.job, services.results.job, ...Object.values(services.distribution.jobs), sweeper.job);
  return { services, jobs: queue };
}

/** An HTTP process of a cluster: the primary did the start-up work; this one serves requests only. */
async function runHttpProcess(): Promise<void> {
  const connectionString = config.databaseUrl!;
  const db = createDb(connectionString, 10, config.database);
  let keys: MinistryKeys;
  let chain: OpenChain;
  try {
    keys = await loadMinistryKeys(config.keys, log);
    chain = await openChain(config, log);
  } catch (error) {
    log.error({ err: error }, 'could not open the ministry keys or the chain');
    await db.$client.end();
    process.exit(1);
  }
  const { services, jobs } = servicesWithJobs(db, connectionString, { keys, chain });
  await jobs.start({ work: false });
  // A revocation handled by any process clears the verification answers of all (ADR 0106).
  await services.invalidation.share(connectionString, db.$client);
  const stopWatching = watchRevocations(services);
  // The primary serves the metrics of the whole cluster: this process answers it (ADR 0122).
  answerMetricsRequests();
  const app = await buildApp({ db, config, services }, { loggerInstance: log });
  onShutdown(
    async () => {
      await app.close();
      stopWatching();
      await services.invalidation.stop();
      await jobs.stop();
      keys.close();
      await chain.close();
      await db.$client.end();
    },
    { stoppedByPrimary: true },
  );
  await app.listen({ host: config.host, port: config.port });
}

/** The platform in one process, or the primary of a cluster (`API_PROCESSES` > 1). */
async function runMain(httpProcesses: number): Promise<void> {
  process.on('SIGINT', exitDuringStart);
  process.on('SIGTERM', exitDuringStart);
  const database = await openDatabase(config, log, restartPolicy('the embedded PostgreSQL'));
  await seedCatalogue(database.db);
  if (config.demoData) {
    await seedDemo(database.db);
    log.info('demo data ready: sign in as root@sceau.example with the password Sceau-Demo-2026 (see README)');
  }

  let keys: MinistryKeys;
  let chain: OpenChain;
  try {
    keys = await loadMinistryKeys(config.keys, log);
    chain = await openChain(config, log, restartPolicy('the local chain (Anvil)'));
  } catch (error) {
    log.error({ err: error }, 'could not open the ministry keys or the chain');
    await database.close();
    process.exit(1);
  }
  // Development keys: the independent verifier run here pins this issuer with no option (ADR 0133).
  await writeDevelopmentTrustList(config, keys, chain).then(
    (file) => file && log.info(`development trust list written to ${file}: npm run verify pins this issuer`),
    (error: unknown) => log.warn({ err: error }, 'could not write the development trust list: npm run verify will not pin this issuer'),
  );

  const { services, jobs } = servicesWithJobs(database.db, database.connectionString, { keys, chain });
  try {
    await services.storage.check?.();
  } catch (error) {
    log.error({ err: error }, `the file storage (FILE_STORAGE=${config.fileStorage.kind}) cannot be used`);
    await chain.close();
    await database.close();
    process.exit(1);
  }
  await jobs.start({ work: config.workers });
  await services.imports.resumePending();
  await services.distribution.resumePending();
  // Batches a crash left being generated or anchored (their earlier jobs wait for their expiry).
  await resumeIssuing(database.db, jobs, services.jobs!);

  const reconciled = await services.issuing!.reconcileAnchors(log);
  if (reconciled.checked) log.info(reconciled, 'anchored batches checked against the chain');

  await seedCountryTemplate(database.db);
  if (config.demoData) {
    await seedDemoBatch(database.db, services.storage, services.issuing!);
    log.info('demo batch issued and anchored: its diplomas verify right away');
  }
  // Where to start, printed once the platform answers: the back office and a diploma to verify.
  const demoLinks = async () => {
    if (!config.demoData) return;
    const diploma = await demoDiplomaId(database.db);
    const base = config.publicUrl.replace(/\/$/, '');
    log.info(`try it: sign in at ${base}/login as admin@sceau.example (password Sceau-Demo-2026); verify a demo diploma at ${base}/verify/${diploma ?? ''}`);
  };
  // A revocation handled by any process clears the verification answers of all (ADR 0106).
  await services.invalidation.share(database.connectionString, database.db.$client);
  trackPlatform(database.db, jobs, log);

  // What both ways of serving stop last, in this order, after their HTTP side: the invalidation
  // channel, the jobs, the render pool, the keys, Anvil and PostgreSQL.
  const closeBackground = async () => {
    await services.invalidation.stop();
    await jobs.stop();
    await closeSharedRenderPool();
    keys.close();
    await chain.close();
    await database.close();
  };

  if (httpProcesses > 1) {
    let metrics: Server | null = null;
    let cluster: ReturnType<typeof forkHttpProcesses> | null = null;
    // Stopped in order from here on, while the HTTP processes start too (forking them takes a
    // while, and the first one listening answers before the others do): a Ctrl-C then must not
    // kill this process outright and leave PostgreSQL and Anvil (process groups of their own) running.
    onShutdown(async () => {
      await closeServer(metrics);
      await cluster?.stop();
      await closeBackground();
    });
    // Listening before the API does: once it answers, so do its metrics.
    metrics = await serveMetrics();
    // The HTTP processes reach this process's database and chain (embedded or not) by their addresses.
    cluster = forkHttpProcesses(
      httpProcesses,
      {
        DATABASE_URL: database.connectionString,
        CHAIN_RPC_URL: chain.connection.rpcUrl,
        CHAIN_ID: String(chain.chainId),
        REGISTRY_ADDRESS: chain.address,
      },
      log,
    );
    await cluster.ready;
    if (cluster.stopping) return;
    log.info({ processes: httpProcesses }, `Sceau is running on ${config.publicUrl} (${httpProcesses} API processes)`);
    await demoLinks();
    return;
  }

  const stopWatching = watchRevocations(services);
  const app = await buildApp({ db: database.db, config, services }, { loggerInstance: log });
  let metrics: Server | null = null;
  onShutdown(async () => {
    await closeServer(metrics);
    await app.close();
    stopWatching();
    await closeBackground();
  });
  try {
    metrics = await serveMetrics();
    await app.listen({ host: config.host, port: config.port });
    log.info(`Sceau is running on ${config.publicUrl}`);
    await demoLinks();
  } catch (error) {
    log.error({ err: error }, 'could not start the server');
    await chain.close();
    await database.close();
    process.exit(1);
  }
}

/** The metrics port (ADR 0122) when METRICS_PORT is set; a port in use stops the start like PORT would. */
async function serveMetrics(): Promise<Server | null> {
  if (!config.metrics.port) return null;
  const server = await startMetricsServer(config.metrics.host, config.metrics.port);
  log.info(`metrics on http://${config.metrics.host}:${config.metrics.port}/metrics`);
  return server;
}

async function closeServer(server: Server | null): Promise<void> {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * A stop (Ctrl-C, SIGTERM) while the platform starts, before `onShutdown` takes over: the process
 * exits at once, and the 'exit' listeners of the embedded PostgreSQL and of the local chain stop
 * them (they run in process groups of their own, which Ctrl-C does not reach; PostgreSQL's fast
 * shutdown rolls back what the start's seeding had not committed, and the next start does it again).
 * Node's default, death by the signal with no 'exit' event, left both running until the next start.
 */
function exitDuringStart(signal: NodeJS.Signals): void {
  log.warn({ signal }, 'stopped during the start: what it had begun is done again at the next start');
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

/**
 * Stops in order on SIGINT/SIGTERM (HTTP, then the jobs, the pools, Anvil and PostgreSQL last:
 * they run in process groups of their own, so Ctrl-C reaches them only through us) and says so in
 * one line; nothing is wrong, so no stack trace. A second Ctrl-C forces the exit. An HTTP process
 * of a cluster ignores SIGINT (Ctrl-C reaches the whole process group): its primary disconnects
 * it, after which it finishes and exits.
 */
function onShutdown(close: () => Promise<void>, options: { stoppedByPrimary?: boolean } = {}): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      if (signal === 'disconnect') return;
      log.warn({ signal }, 'stop forced: work in progress is left for the next start');
      process.exit(130);
    }
    stopping = true;
    // Running jobs get up to 20 s to finish: say why nothing seems to happen, and how to skip it.
    const slow = setTimeout(() => log.info('stopping: waiting for running jobs to finish (Ctrl-C again to force)'), 2_000);
    const force = setTimeout(() => {
      log.error('did not stop within 30 s: forcing the exit');
      process.exit(1);
    }, 30_000);
    slow.unref();
    force.unref();
    try {
      await close();
    } catch (error) {
      log.error({ err: error }, 'stopping failed');
      process.exit(1);
    }
    if (!options.stoppedByPrimary) log.info('Sceau stopped.');
    process.exit(0);
  };
  process.off('SIGINT', exitDuringStart);
  process.off('SIGTERM', exitDuringStart);
  process.on('SIGINT', () => void (options.stoppedByPrimary ? undefined : shutdown('SIGINT')));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // An HTTP process told to leave by its primary (or left alone by its death) stops the same way.
  if (options.stoppedByPrimary) process.on('disconnect', () => void shutdown('disconnect'));
}

const httpProcesses = apiProcessCount();
if (isHttpProcess()) await runHttpProcess();
else await runMain(httpProcesses);
