/**
 * Supervisor of the local chain, the zero-set-up default: Anvil (npm `@foundry-rs/anvil`) on
 * 127.0.0.1 with its state under `<dataDir>/chain/`. `startLocalChain()` brings it up whatever a
 * previous run left behind:
 *
 *  - state: `--state anvil-state.json --state-interval 1`: Anvil rewrites the whole file every
 *    second and on SIGTERM. It writes in place (open with O_TRUNC, then write; no rename, no
 *    fsync), and refuses to start on a truncated file. So before each start the file is parsed:
 *    a good one is copied to `anvil-state.backup.json` (atomically, fsync'ed); a bad one is moved
 *    aside and the backup restored. Whatever the restored state lacks, the reconciliation at
 *    start (deployment.ts) anchors again;
 *  - `waitUntilSaved(block)`: resolves once the state file holds that block, so a caller can
 *    report an anchoring done only once it survives kill -9 (pass it as `afterMined`);
 *  - (a) an Anvil left running by a previous run (our Node process was killed with -9 and its
 *    child survived) is found through `anvil.pid`, checked through /proc to really be an anvil
 *    on this state file, and stopped (SIGTERM: it saves its state; SIGKILL after 10 s). On
 *    Linux /proc is also scanned for an anvil on this state file without a pid file;
 *  - (b) a port taken by another program: an error naming the port and CHAIN_PORT;
 *  - (c) the ministry's key for the local chain is generated once, kept in
 *    `ministry-key.json` (mode 0600), and funded at every start (anvil_setBalance): the same
 *    issuer across restarts, no well-known development key;
 *  - a lock file `anvil.lock` (created with link(2), so it appears complete or not at all)
 *    names the owning Node process (pid + start time); a second process on the same data
 *    directory gets an IN_USE error instead of stopping the owner's live Anvil;
 *  - with `restart`, an Anvil that dies while running (kill -9, OOM) is started again on its
 *    saved state with backoff; restarts that keep failing call `restart.onGiveUp` (restarts.ts);
 *  - stop(): SIGTERM (Anvil saves its state), SIGKILL after 10 s, lock and pid file released.
 *    A process 'exit' listener sends SIGTERM if stop() was never called; after kill -9 of Node,
 *    the next start stops the orphan, case (a).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, unlinkSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { findAnvilBinary } from './anvil-binary.ts';
import { createRestarter, type RestartPolicy } from './restarts.ts';
import { findProcesses, isAlive, probePort, processArgs, processStartTime, samePath, signal, sleep, terminate } from '@sceau/process';
import { writeFileAtomic } from './files.ts';

/** "SCEAU" on a phone keypad; not a registered public chain id, so no wallet confuses it with one. */
export const LOCAL_CHAIN_ID = 72328;
export const DEFAULT_CHAIN_PORT = 8545;
const PORT_ENV_VAR = 'CHAIN_PORT';
const HOST = '127.0.0.1';
const STOP_GRACE_MS = 10_000;
const READY_TIMEOUT_MS = 30_000;
/** Funds of the local ministry account, topped up at every start. */
const MINISTRY_BALANCE = 10n ** 24n; // one million ether
const MIN_BALANCE = 10n ** 21n;

export interface ChainLogger {
  debug?(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const noop = () => {};
const silentLogger: ChainLogger = { info: noop, warn: noop, error: noop };

export interface LocalChainOptions {
  /** DATA_DIR; the chain's files go to `<dataDir>/chain/`. */
  dataDir: string;
  /** CHAIN_PORT, default 8545; 127.0.0.1 only. */
  port?: number;
  /** Default LOCAL_CHAIN_ID (72328). */
  chainId?: number;
  log?: ChainLogger;
  /** Path of an anvil binary; default the one from npm (or ANVIL_BINARY). */
  anvilBinary?: string;
  /** Restart Anvil when it dies unexpectedly (ADR 0112); unset: it stays dead (`pid` null). */
  restart?: RestartPolicy;
}

export interface LocalChain {
  readonly rpcUrl: string;
  readonly chainId: number;
  /** Anvil's pid; null once stopped or dead. */
  readonly pid: number | null;
  readonly stateFile: string;
  /** The ministry account of the local chain (issuer, revoker and admin of the registry it deploys). */
  readonly ministryKey: { address: Address; privateKey: Hex };
  /** Resolves true once the state file on disk holds `blockNumber` (false after `timeoutMs`). */
  waitUntilSaved(blockNumber: number | bigint, timeoutMs?: number): Promise<boolean>;
  stop(): Promise<void>;
}

export type LocalChainErrorCode = 'PORT_IN_USE' | 'IN_USE' | 'START_FAILED';

export class LocalChainError extends Error {
  constructor(
    readonly code: LocalChainErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LocalChainError';
  }
}

interface Paths {
  dir: string;
  state: string;
  backup: string;
  pid: string;
  lock: string;
  key: string;
}

function chainPaths(dataDir: string): Paths {
  const dir = path.join(path.resolve(dataDir), 'chain');
  return {
    dir,
    state: path.join(dir, 'anvil-state.json'),
    backup: path.join(dir, 'anvil-state.backup.json'),
    pid: path.join(dir, 'anvil.pid'),
    lock: path.join(dir, 'anvil.lock'),
    key: path.join(dir, 'ministry-key.json'),
  };
}

// ---------------------------------------------------------------------------------------------
// Lock
// ---------------------------------------------------------------------------------------------

interface Owner {
  pid: number;
  startTime: string | null;
  since: string;
}

function ownerAlive(owner: Partial<Owner>): boolean {
  if (typeof owner.pid !== 'number') return false;
  if (owner.pid === process.pid) return true; // another handle in this very process
  if (!isAlive(owner.pid)) return false;
  return !owner.startTime || processStartTime(owner.pid) === owner.startTime; // else: pid reused
}

async function acquireLock(lockPath: string, dataDir: string, log: ChainLogger): Promise<void> {
  const me: Owner = { pid: process.pid, startTime: processStartTime(process.pid), since: new Date().toISOString() };
  const tmp = `${lockPath}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await fs.writeFile(tmp, JSON.stringify(me));
  try {
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        await fs.link(tmp, lockPath); // fails with EEXIST, like O_EXCL
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      let owner: Partial<Owner> = {};
      let ino = -1;
      try {
        ino = (await fs.stat(lockPath)).ino;
        owner = JSON.parse(await fs.readFile(lockPath, 'utf8')) as Partial<Owner>;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // released meanwhile
      }
      if (ownerAlive(owner)) {
        throw new LocalChainError(
          'IN_USE',
          `the local chain of ${dataDir} is in use by process ${owner.pid} (lock file ${lockPath}); ` + `stop that process, or point CHAIN_RPC_URL at its chain`,
        );
      }
      const current = await fs.stat(lockPath).catch(() => null);
      if (current && current.ino === ino) {
        await fs.unlink(lockPath).catch(noop);
        log.warn({ lockPath, stalePid: owner.pid }, 'removed a stale local chain lock file');
      }
      await sleep(5 + Math.random() * 20);
    }
    throw new LocalChainError('IN_USE', `could not acquire the lock file ${lockPath}`);
  } finally {
    await fs.unlink(tmp).catch(noop);
  }
}

/** Removes the lock if it is ours (sync: also used from the 'exit' listener). */
function releaseLockSync(lockPath: string): void {
  try {
    const owner = JSON.parse(readFileSync(lockPath, 'utf8')) as Partial<Owner>;
    if (owner.pid === process.pid) unlinkSync(lockPath);
  } catch {
    /* gone or unreadable */
  }
}

// ---------------------------------------------------------------------------------------------
// An Anvil left running
// ---------------------------------------------------------------------------------------------

interface PidFile {
  pid: number;
  startTime: string | null;
  port: number;
  stateFile: string;
  ownerPid: number;
}

/** Is `args` an anvil command line serving `stateFile`? */
async function isAnvilFor(args: string[], stateFile: string): Promise<boolean> {
  const exe = path.basename(args[0] ?? '');
  if (exe !== 'anvil' && exe !== 'anvil.exe') return false;
  const i = args.indexOf('--state');
  const file = i >= 0 ? args[i + 1] : undefined;
  return file !== undefined && (await samePath(file, stateFile));
}

async function stopLeftRunning(paths: Paths, log: ChainLogger): Promise<void> {
  const candidates = new Set<number>();
  try {
    const info = JSON.parse(await fs.readFile(paths.pid, 'utf8')) as Partial<PidFile>;
    if (typeof info.pid === 'number' && isAlive(info.pid)) {
      const args = await processArgs(info.pid);
      if (args && (await isAnvilFor(args, paths.state))) candidates.add(info.pid);
    }
  } catch {
    /* no pid file, or unreadable */
  }
  // A parent killed between spawn and writing the pid file leaves an anvil without one.
  for (const pid of await findProcesses((args) => isAnvilFor(args, paths.state))) candidates.add(pid);

  for (const pid of candidates) {
    log.warn({ pid, stateFile: paths.state }, 'found an Anvil left running by a previous run; stopping it');
    const how = await terminate(pid, STOP_GRACE_MS);
    if (how === 'killed') log.warn({ pid }, 'the old Anvil did not stop on SIGTERM; killed it');
  }
  await fs.rm(paths.pid, { force: true });
}

// ---------------------------------------------------------------------------------------------
// State file
// ---------------------------------------------------------------------------------------------

/** The block number saved in a state file's content, null if it is not a complete state. */
function savedBlock(content: string): bigint | null {
  try {
    const state = JSON.parse(content) as { best_block_number?: number | string; block?: unknown };
    if (state === null || typeof state !== 'object' || state.block === undefined) return null;
    return BigInt(state.best_block_number ?? 0);
  } catch {
    return null;
  }
}

async function readIfExists(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Before a start: back up a good state file, or replace a broken one by the last backup. */
async function checkStateFile(paths: Paths, log: ChainLogger): Promise<void> {
  const content = await readIfExists(paths.state);
  if (content === null) return; // first start
  if (savedBlock(content) !== null) {
    await writeFileAtomic(paths.backup, content);
    return;
  }
  const aside = `${paths.state}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await fs.rename(paths.state, aside);
  const backup = await readIfExists(paths.backup);
  if (backup !== null && savedBlock(backup) !== null) {
    await writeFileAtomic(paths.state, backup);
    log.error(
      { stateFile: paths.state, movedTo: aside, restoredBlock: Number(savedBlock(backup)) },
      'the local chain state file was damaged (Anvil was killed while saving it); restored the last backup, ' + 'the reconciliation at start anchors again what it lacks',
    );
  } else {
    log.error(
      { stateFile: paths.state, movedTo: aside },
      'the local chain state file was damaged and there is no backup; starting an empty chain, ' + 'the reconciliation at start anchors every batch again',
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Ministry key
// ---------------------------------------------------------------------------------------------

async function loadOrCreateKey(file: string, log: ChainLogger): Promise<{ address: Address; privateKey: Hex }> {
  const content = await readIfExists(file);
  if (content !== null) {
    const { privateKey } = JSON.parse(content) as { privateKey: Hex };
    return { address: privateKeyToAccount(privateKey).address, privateKey };
  }
  const privateKey = generatePrivateKey();
  const address = privateKeyToAccount(privateKey).address;
  await writeFileAtomic(file, `${JSON.stringify({ address, privateKey, createdAt: new Date().toISOString() }, null, 2)}\n`, 0o600);
  log.info({ address, file }, 'generated the ministry key of the local chain');
  return { address, privateKey };
}

// ---------------------------------------------------------------------------------------------
// JSON-RPC without a client (readiness and dev calls)
// ---------------------------------------------------------------------------------------------

async function rpc<T>(url: string, method: string, params: unknown[] = [], timeoutMs = 2_000): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

// ---------------------------------------------------------------------------------------------
// Start
// ---------------------------------------------------------------------------------------------

function portInUse(port: number, cause?: unknown): LocalChainError {
  return new LocalChainError(
    'PORT_IN_USE',
    `port ${port} on ${HOST} is already in use by another program, so the local chain (Anvil) cannot listen on it; ` +
      `set ${PORT_ENV_VAR} to a free port (or stop the program using port ${port})`,
    { cause },
  );
}

interface Launched {
  child: ChildProcess;
  pid: number;
  /** Whether a saved state was loaded (false: a new, empty chain). */
  restored: boolean;
}

/**
 * Starts Anvil on the saved state (checked, restored from the backup if damaged) and resolves once
 * it answers with the expected chain id and the ministry account is funded. Used at start and by
 * each restart; a failed launch leaves no process behind.
 */
async function launch(s: { binary: string; paths: Paths; port: number; chainId: number; rpcUrl: string; ministryKey: { address: Address }; log: ChainLogger }): Promise<Launched> {
  const { binary, paths, port, chainId, rpcUrl, log } = s;
  let child: ChildProcess | undefined;
  let stopOnExit: (() => void) | undefined;
  try {
    await checkStateFile(paths, log);
    try {
      await probePort(HOST, port);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' || code === 'EACCES') throw portInUse(port, err);
      throw err;
    }
    const restored = (await readIfExists(paths.state)) !== null;

    const args = [
      '--host',
      HOST,
      '--port',
      String(port),
      '--chain-id',
      String(chainId),
      '--state',
      paths.state,
      '--state-interval',
      '1',
      '--accounts',
      '0', // no well-known unlocked development accounts
      '--no-cors', // no web page the operator visits may drive the node
      '--color',
      'never',
    ];
    // A process group of its own: Ctrl-C in a terminal signals the whole foreground group, and
    // Anvil must outlive the work still finishing; its owner stops it (or the 'exit' listener).
    child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const spawned = child;
    const recent: string[] = [];
    const onOutput = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        const text = line.trim();
        if (!text) continue;
        recent.push(text);
        if (recent.length > 40) recent.shift();
        if (/error|panic/i.test(text)) log.warn({ anvil: text }, 'Anvil');
        else log.debug?.({ anvil: text }, 'Anvil');
      }
    };
    spawned.stdout!.on('data', onOutput);
    spawned.stderr!.on('data', onOutput);
    const spawnError = new Promise<Error>((resolve) => spawned.once('error', resolve));
    let exited = false;
    spawned.once('exit', () => {
      exited = true;
    });
    if (spawned.pid === undefined) throw new LocalChainError('START_FAILED', `could not run ${binary}: ${(await spawnError).message}`);
    const pid = spawned.pid;
    // Until the handle's own safety net is there (makeHandle): a process that exits while Anvil
    // starts (Ctrl-C during the start) stops it rather than leaving it running.
    stopOnExit = () => signal(pid, 'SIGTERM');
    process.on('exit', stopOnExit);
    const pidInfo: PidFile = { pid, startTime: processStartTime(pid), port, stateFile: paths.state, ownerPid: process.pid };
    await writeFileAtomic(paths.pid, JSON.stringify(pidInfo));

    // Ready once it answers eth_chainId.
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let actualChainId: number | null = null;
    while (actualChainId === null) {
      if (exited) {
        const out = recent.join('\n');
        if (/address already in use/i.test(out)) throw portInUse(port);
        throw new LocalChainError('START_FAILED', `Anvil exited at start: ${out.slice(-2_000)}`);
      }
      if (Date.now() > deadline) throw new LocalChainError('START_FAILED', `Anvil did not answer on ${rpcUrl} within ${READY_TIMEOUT_MS / 1000} s`);
      try {
        actualChainId = Number(await rpc<string>(rpcUrl, 'eth_chainId', [], 500));
      } catch {
        await sleep(25);
      }
    }
    if (actualChainId !== chainId) {
      throw new LocalChainError('START_FAILED', `Anvil on ${rpcUrl} reports chain ${actualChainId}, expected ${chainId}`);
    }

    const balance = BigInt(await rpc<string>(rpcUrl, 'eth_getBalance', [s.ministryKey.address, 'latest']));
    if (balance < MIN_BALANCE) {
      await rpc(rpcUrl, 'anvil_setBalance', [s.ministryKey.address, `0x${MINISTRY_BALANCE.toString(16)}`]);
    }
    return { child: spawned, pid, restored };
  } catch (err) {
    if (child?.pid && isAlive(child.pid)) await terminate(child.pid, STOP_GRACE_MS).catch(noop);
    await fs.rm(paths.pid, { force: true }).catch(noop);
    throw err;
  } finally {
    if (stopOnExit) process.off('exit', stopOnExit);
  }
}

export async function startLocalChain(opts: LocalChainOptions): Promise<LocalChain> {
  const log = opts.log ?? silentLogger;
  const port = opts.port ?? DEFAULT_CHAIN_PORT;
  const chainId = opts.chainId ?? LOCAL_CHAIN_ID;
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new RangeError(`invalid ${PORT_ENV_VAR}: ${port}`);
  if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new RangeError(`invalid chain id: ${chainId}`);
  const binary = findAnvilBinary(opts.anvilBinary);
  const paths = chainPaths(opts.dataDir);
  const rpcUrl = `http://${HOST}:${port}`;
  const t0 = performance.now();

  await fs.mkdir(paths.dir, { recursive: true });
  await acquireLock(paths.lock, paths.dir, log);
  try {
    await stopLeftRunning(paths, log);
    const ministryKey = await loadOrCreateKey(paths.key, log);
    const relaunch = () => launch({ binary, paths, port, chainId, rpcUrl, ministryKey, log });
    const first = await relaunch();
    const handle = makeHandle({ first, relaunch, restart: opts.restart ?? null, paths, rpcUrl, chainId, ministryKey, log });
    log.info({ rpcUrl, chainId, pid: first.pid, stateFile: paths.state, restored: first.restored, ms: Math.round(performance.now() - t0) }, 'local chain (Anvil) ready');
    return handle;
  } catch (err) {
    releaseLockSync(paths.lock);
    throw err;
  }
}

function makeHandle(s: {
  first: Launched;
  relaunch: () => Promise<Launched>;
  restart: RestartPolicy | null;
  paths: Paths;
  rpcUrl: string;
  chainId: number;
  ministryKey: { address: Address; privateKey: Hex };
  log: ChainLogger;
}): LocalChain {
  const { paths, log } = s;
  let current = s.first;
  let running = true;
  let stopping: Promise<void> | undefined;
  const exitOf = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

  // An Anvil that dies while nobody stops it is started again on its saved state (ADR 0112).
  const restarter = s.restart
    ? createRestarter(
        'the local chain (Anvil)',
        async () => {
          const next = await s.relaunch();
          if (stopping) {
            await terminate(next.pid, STOP_GRACE_MS).catch(noop);
            return;
          }
          current = next;
          running = true;
          watch(next);
        },
        s.restart,
        log,
      )
    : null;

  const watch = (launched: Launched) => {
    launched.child.once('exit', (code, sig) => {
      if (launched !== current) return;
      running = false;
      if (stopping) return;
      log.error({ pid: launched.pid, code, signal: sig }, 'the local chain (Anvil) exited unexpectedly');
      restarter?.exited();
    });
  };
  watch(current);

  // Safety net if stop() is never called (SIGTERM makes Anvil save its state on the way out).
  const onExit = () => {
    if (running) signal(current.pid, 'SIGTERM');
    releaseLockSync(paths.lock);
  };
  process.on('exit', onExit);

  return {
    rpcUrl: s.rpcUrl,
    chainId: s.chainId,
    stateFile: paths.state,
    ministryKey: s.ministryKey,
    get pid() {
      return running ? current.pid : null;
    },

    async waitUntilSaved(blockNumber, timeoutMs = 5_000) {
      const target = BigInt(blockNumber);
      const deadline = Date.now() + timeoutMs;
      let lastMtime = -1;
      while (Date.now() < deadline) {
        const st = await fs.stat(paths.state).catch(() => null);
        if (st && st.mtimeMs !== lastMtime) {
          lastMtime = st.mtimeMs;
          const saved = savedBlock((await readIfExists(paths.state)) ?? '');
          if (saved !== null && saved >= target) return true;
          if (saved === null) lastMtime = -1; // caught mid-write: read again
        }
        await sleep(50);
      }
      log.warn({ blockNumber: Number(target), stateFile: paths.state }, 'the local chain did not save the block in time');
      return false;
    },

    stop() {
      stopping ??= (async () => {
        try {
          await restarter?.stop();
          const { pid, child } = current;
          if (isAlive(pid)) {
            await terminate(pid, STOP_GRACE_MS);
            await Promise.race([exitOf(child), sleep(1_000)]);
          }
          const content = await readIfExists(paths.state);
          if (content !== null && savedBlock(content) !== null) await writeFileAtomic(paths.backup, content);
          log.debug?.({ pid }, 'local chain (Anvil) stopped');
        } finally {
          running = false;
          process.removeListener('exit', onExit);
          await fs.rm(paths.pid, { force: true }).catch(noop);
          releaseLockSync(paths.lock);
        }
      })();
      return stopping;
    },
  };
}
