// The test run's embedded PostgreSQL: a start on a taken port leaves no folder, and another port is tried.
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from './test-postgres.ts';

let tmpRoot: string;
let taken: net.Server;
let takenPort: number;
let started: TestPostgres | null = null;

beforeAll(async () => {
  tmpRoot = await mkdtemp(path.join(os.tmpdir(), 'sceau-test-pg-root-'));
  // Run as root, the server is started as the `postgres` user, who must be able to reach its folder.
  await chmod(tmpRoot, 0o755);
  // A port held by a listening socket for the whole file: any start on it fails with PORT_IN_USE.
  taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  takenPort = (taken.address() as net.AddressInfo).port;
});
afterEach(async () => {
  await started?.stop();
  started = null;
});
afterAll(async () => {
  await new Promise<void>((resolve) => taken.close(() => resolve()));
  await rm(tmpRoot, { recursive: true, force: true });
});

describe('the test run’s embedded PostgreSQL', () => {
  it('removes the folder of a start that failed (its port taken) and gives the error', async () => {
    await expect(startTestPostgres({ port: takenPort, otherPorts: 0, tmpRoot })).rejects.toMatchObject({ code: 'PORT_IN_USE' });
    expect(await readdir(tmpRoot)).toEqual([]);
  }, 120_000);

  it('tries another port when the first is taken, leaving only the folder of the server that started, removed by stop()', async () => {
    started = await startTestPostgres({ port: takenPort, tmpRoot });
    expect(started.port).not.toBe(takenPort);
    const client = new pg.Client({ connectionString: started.embedded.connectionString('postgres') });
    await client.connect();
    expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await client.end();
    expect((await readdir(tmpRoot)).filter((e) => !e.endsWith('.lock'))).toEqual([path.basename(started.dataDir)]);
    await started.stop();
    started = null;
    expect(await readdir(tmpRoot)).toEqual([]);
  }, 120_000);
});
