import { pino } from 'pino';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/open-database.ts';
import { openChain, type OpenChain } from './modules/chain/open-chain.ts';
import { loadMinistryKeys, type MinistryKeys } from './modules/keys/ministry-keys.ts';
import { seedCatalogue, seedDemo } from './seed/seed.ts';
import { seedCountryTemplate, seedDemoBatch } from './seed/demo-batch.ts';
import { JobQueue } from './jobs/job-queue.ts';
import { closeSharedRenderPool } from './modules/generations/render-pool.ts';
import { createServices } from './services.ts';

const config = loadConfig();
const log = pino({ level: config.logLevel });

const database = await openDatabase(config, log);
await seedCatalogue(database.db);
if (config.demoData) {
  await seedDemo(database.db);
  log.info('demo data ready: sign in as root@sceau.example with the password Sceau-Demo-2026 (see README)');
}

let keys: MinistryKeys;
let chain: OpenChain;
try {
  keys = await loadMinistryKeys(config.keys, log);
  chain = await openChain(config, log);
} catch (error) {
  log.error({ err: error }, 'could not open the ministry keys or the chain');
  await database.close();
  process.exit(1);
}

const services = createServices(database.db, config, { identity: { keys, chain }, log });
const jobs = new JobQueue(database.connectionString, log).define(...Object.values(services.jobs!), services.revocation!.job, services.imports.job, services.results.job, ...Object.values(services.distribution.jobs));
await jobs.start({ work: config.workers });
services.queue = jobs;
await services.imports.resumePending(jobs);
await services.distribution.resumePending(jobs);

const reconciled = await services.issuing!.reconcileAnchors(log);
if (reconciled.checked) log.info(reconciled, 'anchored batches checked against the chain');

await seedCountryTemplate(database.db);
if (config.demoData) {
  await seedDemoBatch(database.db, services.storage, services.issuing!);
  log.info('demo batch issued and anchored: its diplomas verify right away');
}

// A revocation on the contract, by this platform or any other holder of the revoker role, clears cached answers.
const stopWatching = chain.registry.watchRevocations((event) => services.verification!.invalidate(event.hash), {
  onError: (error) => log.warn({ err: error }, 'revocation watcher: chain not answering, will retry'),
});

const app = await buildApp({ db: database.db, config, services }, { loggerInstance: log });

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 15_000);
  force.unref();
  try {
    await app.close();
    stopWatching();
    await jobs.stop();
    await closeSharedRenderPool();
    await chain.close();
    await database.close();
  } finally {
    process.exit(0);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  await app.listen({ host: config.host, port: config.port });
  log.info(`Sceau is running on ${config.publicUrl}`);
} catch (error) {
  log.error({ err: error }, 'could not start the server');
  await chain.close();
  await database.close();
  process.exit(1);
}
