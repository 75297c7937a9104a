/**
 * What a file costs the issuing process on each store (ADR 0108): N diploma-sized files (120 KB)
 * written 100 at a time, as a PDF chunk writes them (ADR 0105), then read back 100 at a time, on the
 * local folder and on an S3 bucket served by the test S3 server (fauxqs, a child process on
 * 127.0.0.1). Printed per store: files per second, and this process's CPU per file (what the
 * issuing main thread pays; the S3 server's own CPU is printed apart, a real store runs elsewhere).
 *   node --import tsx apps/api/scripts/bench-s3-storage.ts [--count 2000]
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { S3FileStorage } from '../src/lib/s3-storage.ts';
import { LocalFileStorage, type FileStorage } from '../src/lib/storage.ts';
import { startS3Server } from '../test/s3-server.ts';

const { values } = parseArgs({ options: { count: { type: 'string', default: '2000' } } });
const count = Number(values.count);
if (!Number.isInteger(count) || count < 100) throw new Error('--count: a whole number ≥ 100');
const CHUNK = 100;
const pdf = randomBytes(120 * 1024);

/** CPU time (ms) of another process, from /proc (Linux). */
async function cpuOf(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
}

async function run(name: string, store: FileStorage, serverPid?: number) {
  const phases: Record<string, { perSecond: number; cpuMsPerFile: number; serverCpuMsPerFile?: number }> = {};
  for (const phase of ['write', 'read'] as const) {
    const cpu0 = process.cpuUsage();
    const server0 = serverPid ? await cpuOf(serverPid) : 0;
    const t0 = performance.now();
    for (let from = 0; from < count; from += CHUNK) {
      const keys = Array.from({ length: Math.min(CHUNK, count - from) }, (_, i) => `diplomas/1/${from + i}.pdf`);
      if (phase === 'write') await Promise.all(keys.map((k) => store.put(k, pdf)));
      else for (const b of await Promise.all(keys.map((k) => store.get(k)))) if (b?.length !== pdf.length) throw new Error('a file came back wrong');
    }
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    phases[phase] = {
      perSecond: Math.round((count / ms) * 1000),
      cpuMsPerFile: Number(((cpu.user + cpu.system) / 1000 / count).toFixed(3)),
      ...(serverPid ? { serverCpuMsPerFile: Number((((await cpuOf(serverPid)) - server0) / count).toFixed(3)) } : {}),
    };
    const p = phases[phase]!;
    console.log(
      `${name.padEnd(6)} ${phase.padEnd(5)} ${String(p.perSecond).padStart(6)} files/s, this process ${p.cpuMsPerFile.toFixed(3)} ms CPU per file${p.serverCpuMsPerFile !== undefined ? `, S3 server ${p.serverCpuMsPerFile.toFixed(3)} ms` : ''}`,
    );
  }
  return phases;
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'sceau-bench-s3-'));
const server = await startS3Server();
try {
  await server.createBucket('bench');
  console.log(
    `${count} files of 120 KB, ${CHUNK} at a time; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const local = await run('local', new LocalFileStorage(path.join(dir, 'files')));
  const s3 = new S3FileStorage({ endpoint: server.endpoint, bucket: 'bench', region: server.region, credentials: server.credentials, forcePathStyle: true, prefix: '' });
  await s3.check(); // loads the SDK before timing
  const bucket = await run('s3', s3, server.process.pid);
  await s3.close();
  console.log(JSON.stringify({ count, fileKb: 120, local, s3: bucket }));
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
