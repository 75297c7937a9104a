/**
 * The lock file `<dataDir>.lock`: one process of ours per cluster, from before initialisation until
 * stop(); a lock whose owner is dead is stale and is broken.
 */
import { readFileSync, unlinkSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import { isAlive, processStartTime, sleep } from '@sceau/process';
import { EmbeddedPostgresError, type EmbeddedPostgresLogger } from './types.ts';

interface LockInfo {
  pid: number;
  startTime: string | null;
  hostname: string;
  since: string;
  postmasterPid?: number;
}

async function ownerIsAlive(info: Partial<LockInfo>): Promise<boolean> {
  if (typeof info.pid !== 'number') return false;
  // The hostname is recorded for diagnostics only: a container re-created on a persistent
  // volume gets a new hostname, and its dead predecessor's lock must still count as stale.
  if (info.pid === process.pid) return true; // another handle in this very process
  if (!isAlive(info.pid)) return false;
  if (info.startTime && processStartTime(info.pid) !== info.startTime) return false; // pid reused
  return true;
}

export async function acquireLock(lockPath: string, dataDir: string, log: EmbeddedPostgresLogger): Promise<LockInfo> {
  const me: LockInfo = {
    pid: process.pid,
    startTime: processStartTime(process.pid),
    hostname: os.hostname(),
    since: new Date().toISOString(),
  };
  const tmp = `${lockPath}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await fs.writeFile(tmp, JSON.stringify(me));
  try {
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        // link(2) fails with EEXIST like open(O_CREAT|O_EXCL), and the lock appears complete.
        await fs.link(tmp, lockPath);
        return me;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      let info: Partial<LockInfo> = {};
      let ino: number;
      try {
        ino = (await fs.stat(lockPath)).ino;
        info = JSON.parse(await fs.readFile(lockPath, 'utf8')) as Partial<LockInfo>;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // released meanwhile
        info = {}; // unreadable / corrupt: stale
        ino = (await fs.stat(lockPath).catch(() => ({ ino: -1 }))).ino;
      }
      if (await ownerIsAlive(info)) {
        throw new EmbeddedPostgresError(
          'IN_USE',
          `the embedded PostgreSQL data directory ${dataDir} is in use by process ${info.pid}` +
            ` (lock file ${lockPath}); stop that process, or connect to its server through DATABASE_URL`,
        );
      }
      // Stale: remove it, unless someone replaced it in the meantime (inode changed).
      const current = await fs.stat(lockPath).catch(() => null);
      if (current && current.ino === ino) {
        await fs.unlink(lockPath).catch(() => {});
        log.warn({ lockPath, stalePid: info.pid }, 'removed a stale embedded PostgreSQL lock file');
      }
      await sleep(5 + Math.random() * 20);
    }
    throw new EmbeddedPostgresError('IN_USE', `could not acquire the lock file ${lockPath}`);
  } finally {
    await fs.unlink(tmp).catch(() => {});
  }
}

/** Removes the lock only if it is still ours. */
export function releaseLockSync(lockPath: string): void {
  try {
    const info = JSON.parse(readFileSync(lockPath, 'utf8')) as Partial<LockInfo>;
    if (info.pid === process.pid) unlinkSync(lockPath);
  } catch {
    /* gone or unreadable */
  }
}
