/**
 * `npm run backup`: the database, the keys, the chain's files and the files (local or S3) into one
 * archive, while the platform runs (ADR 0121). The order is what makes the parts agree:
 *  1. the database first: one consistent point in time;
 *  2. keys, chain and files after it: a file is written before the row naming it, a key before
 *     anything it signs, and an anchoring is recorded only once Anvil saved its block, so whatever
 *     the database copy refers to is already on disk when those parts are copied. They may hold
 *     more than the database (a newer file, block or key): harmless, as after a crash.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import { APP_VERSION } from '../lib/version.ts';
import { ArchiveWriter, PartDigest, type Manifest, type PartManifest, type PartName } from './archive.ts';
import { backupEmbeddedCluster, dumpExternal } from './postgres.ts';
import { listObjects, s3Client } from './s3-objects.ts';

export interface BackupOptions {
  config: Config;
  out: string;
  /** The embedded server's connection (superuser); required without DATABASE_URL. */
  embeddedConnectionString?: string;
  log?: (line: string) => void;
}

export interface BackupResult {
  file: string;
  bytes: number;
  manifest: Manifest;
  ms: number;
}

/** Chain files that belong to the running Anvil or its own crash handling, not to a copy. */
const CHAIN_SKIPPED = /^(anvil\.pid|anvil\.lock.*|anvil-state\.backup\.json|anvil-state\.json\.corrupt-.*|.*\.tmp)$/;

async function exists(p: string): Promise<boolean> {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}

/** Every file under `dir`, relative, sorted (missing dir: none). */
async function listFiles(dir: string, rel = ''): Promise<string[]> {
  const entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  const out: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listFiles(dir, r)));
    else if (e.isFile()) out.push(r);
  }
  return out;
}

/**
 * Anvil rewrites its state file in place every second (truncate, then write), so a read can catch
 * it half-written: read until it parses as a whole state. When Anvil runs, also wait until the
 * file holds the block it is at now (taken after the database copy), as `waitUntilSaved` does.
 */
async function readAnvilState(chainDir: string): Promise<{ content: Buffer; block: number } | null> {
  const file = path.join(chainDir, 'anvil-state.json');
  if (!(await exists(file))) return null;
  let target = -1;
  try {
    const { port } = JSON.parse(await fs.readFile(path.join(chainDir, 'anvil.pid'), 'utf8')) as { port?: number };
    const res = await fetch(`http://127.0.0.1:${port}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      signal: AbortSignal.timeout(2_000),
    });
    target = Number(((await res.json()) as { result: string }).result);
  } catch {
    // Anvil is not running: its file was saved on SIGTERM, read it as it is.
  }
  const deadline = Date.now() + 15_000;
  let last = 'unreadable';
  while (Date.now() < deadline) {
    const content = await fs.readFile(file);
    try {
      const state = JSON.parse(content.toString('utf8')) as { block?: unknown; best_block_number?: number | string };
      if (state && typeof state === 'object' && state.block !== undefined) {
        const block = Number(state.best_block_number ?? 0);
        if (block >= target) return { content, block };
        last = `block ${block}, Anvil is at ${target}`;
      }
    } catch {
      last = 'half-written';
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the local chain's state file ${file} could not be read whole in 15 s (${last})`);
}

export async function createBackup(opts: BackupOptions): Promise<BackupResult> {
  const { config } = opts;
  const log = opts.log ?? (() => {});
  const t0 = performance.now();
  const createdAt = new Date().toISOString();
  const out = await ArchiveWriter.create(path.resolve(opts.out));
  const details = new Map<PartName, { kind: string; details?: PartManifest['details'] }>();
  const timed = async (part: PartName, fn: () => Promise<{ kind: string; details?: PartManifest['details'] }>) => {
    const t = performance.now();
    const result = await fn();
    details.set(part, result);
    const d = out.digests.get(part);
    log(`${part}: ${result.kind}, ${d?.entries ?? 0} files, ${d?.bytes ?? 0} bytes, ${Math.round(performance.now() - t)} ms`);
  };
  try {
    // 1. The database.
    await timed('database', async () => {
      if (config.databaseUrl) {
        const tmp = `${out.file}.dump.partial`;
        try {
          const d = await dumpExternal(config.databaseUrl, tmp);
          await out.addFile('database', 'database.dump', tmp, 0o600);
          return { kind: 'pg_dump', details: d };
        } finally {
          await fs.rm(tmp, { force: true });
        }
      }
      if (!opts.embeddedConnectionString) throw new Error('no DATABASE_URL and no embedded PostgreSQL connection');
      const clusterDir = path.join(config.dataDir, 'postgres');
      return { kind: 'postgres-cluster', details: await backupEmbeddedCluster(opts.embeddedConnectionString, clusterDir, out) };
    });

    // 2. The keys under DATA_DIR/keys (configured key files elsewhere are the operator's to keep).
    await timed('keys', async () => {
      const dir = config.keys.dir;
      for (const rel of await listFiles(dir)) {
        if (!rel.endsWith('.tmp')) await out.addFile('keys', rel, path.join(dir, rel));
      }
      return { kind: 'folder', details: config.keys.keyFile ? { note: 'MINISTRY_KEY_FILE and MINISTRY_CERTIFICATE_FILE are outside DATA_DIR and not in this backup' } : {} };
    });

    // 3. The chain's files: the registry record, the local chain's key and its state.
    await timed('chain', async () => {
      const dir = path.join(config.dataDir, 'chain');
      for (const rel of await listFiles(dir)) {
        if (rel === 'anvil-state.json' || CHAIN_SKIPPED.test(rel)) continue;
        await out.addFile('chain', rel, path.join(dir, rel));
      }
      if (config.chain.rpcUrl) return { kind: 'external', details: { rpcUrl: config.chain.rpcUrl, note: 'an external chain is not backed up: it is the chain' } };
      const state = await readAnvilState(dir);
      if (state) await out.addBuffer('chain', 'anvil-state.json', state.content, 0o644);
      return { kind: 'anvil', details: { block: state?.block ?? null } };
    });

    // 4. The files: the folder, or every object of the bucket (under S3_PREFIX).
    await timed('files', async () => {
      const s3 = config.fileStorage.s3;
      if (!s3) {
        for (const rel of await listFiles(config.filesDir)) {
          if (!rel.endsWith('.tmp')) await out.addFile('files', rel, path.join(config.filesDir, rel), 0o644);
        }
        return { kind: 'folder' };
      }
      const client = await s3Client(s3);
      try {
        for await (const object of listObjects(client, s3)) {
          if (object.key.startsWith('.sceau-check/')) continue; // the storage check's own probes
          const { body, size } = await object.open();
          await out.addChunks('files', object.key, size, 0o644, body, object.lastModified);
        }
      } finally {
        client.destroy();
      }
      return { kind: 's3', details: { bucket: s3.bucket, prefix: s3.prefix, endpoint: s3.endpoint } };
    });

    const manifest: Manifest = {
      format: 'sceau-backup/1',
      platformVersion: APP_VERSION,
      createdAt,
      finishedAt: new Date().toISOString(),
      source: {
        database: config.databaseUrl ? 'external' : 'embedded',
        files: config.fileStorage.s3 ? 's3' : 'local',
        chain: config.chain.rpcUrl ? 'external' : 'local',
      },
      parts: (['database', 'keys', 'chain', 'files'] as const).map((name) => {
        const d = out.digests.get(name);
        const info = details.get(name)!;
        return {
          name,
          kind: info.kind,
          entries: d?.entries ?? 0,
          bytes: d?.bytes ?? 0,
          sha256: (d ?? new PartDigest()).digest(),
          ...(info.details ? { details: info.details } : {}),
        };
      }),
    };
    const { file, bytes } = await out.finish(manifest);
    return { file, bytes, manifest, ms: Math.round(performance.now() - t0) };
  } catch (err) {
    await out.abort();
    throw err;
  }
}
