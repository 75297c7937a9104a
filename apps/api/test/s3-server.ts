/**
 * A real S3-compatible server for tests, in a child process of the test: fauxqs (an S3 API over HTTP
 * with path- and host-style buckets, multipart uploads, ListObjectsV2, objects held in its memory),
 * listening on 127.0.0.1 on a port of its choosing. The child exits with its parent (IPC channel).
 * Why fauxqs and not another: ADR 0108.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

export interface TestS3Server {
  endpoint: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** A client of our own to look into the bucket (path style). */
  client: S3Client;
  createBucket(name: string): Promise<void>;
  /** Every key in the bucket under `prefix`. */
  list(bucket: string, prefix?: string): Promise<string[]>;
  /** The server's process (to stop it in a test of an unreachable store). */
  process: ChildProcess;
  stop(): Promise<void>;
}

// Run by the child: the fauxqs app (its public `buildApp`) on loopback only, then its port on stdout.
const childScript = (moduleUrl: string) => `
import { buildApp } from ${JSON.stringify(moduleUrl)};
process.on('disconnect', () => process.exit(0));
const app = buildApp({ logger: false, host: '127.0.0.1' });
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(JSON.stringify({ port: app.server.address().port }) + '\\n');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
`;

export async function startS3Server(): Promise<TestS3Server> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', childScript(import.meta.resolve('fauxqs'))], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`the S3 test server did not start in 20 s: ${stderr}`)), 20_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.once('exit', (code) => fail(new Error(`the S3 test server exited (${code}): ${stderr}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n')) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve((JSON.parse(line!) as { port: number }).port);
      }
    });
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const region = 'us-east-1';
  const credentials = { accessKeyId: 'sceau-test', secretAccessKey: 'sceau-test-secret' };
  const client = new S3Client({ endpoint, region, credentials, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
  return {
    endpoint,
    region,
    credentials,
    client,
    process: child,
    async createBucket(name) {
      await client.send(new CreateBucketCommand({ Bucket: name }));
    },
    async list(bucket, prefix = '') {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((o) => o.Key!));
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    async stop() {
      client.destroy();
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
