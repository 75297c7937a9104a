// One contract for every FileStorage (ADR 0108): the local folder and an S3-compatible bucket on a
// real S3 server (fauxqs, a child process on 127.0.0.1) pass the same tests; then what only S3 has.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../../test/s3-server.ts';
import { loadConfig } from '../config.ts';
import { createFileStorage } from './create-file-storage.ts';
import { S3FileStorage } from './s3-storage.ts';
import { LocalFileStorage, type FileStorage } from './storage.ts';

const BUCKET = 'sceau-contract';
let server: TestS3Server;
let tmp: string;
const opened: S3FileStorage[] = [];

beforeAll(async () => {
  server = await startS3Server();
  await server.createBucket(BUCKET);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'sceau-storage-'));
}, 30_000);
afterAll(async () => {
  for (const s of opened) await s.close();
  await server?.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

function s3Store(prefix: string, bucket = BUCKET): S3FileStorage {
  const store = new S3FileStorage({ endpoint: server.endpoint, bucket, region: server.region, credentials: server.credentials, forcePathStyle: true, prefix });
  opened.push(store);
  return store;
}

interface Subject {
  /** A fresh, empty store. */
  open(): Promise<{ store: FileStorage; list(): Promise<string[]> }>;
  /** A store that cannot work (a folder under a file; a bucket that does not exist). */
  broken(): Promise<FileStorage>;
}

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

let n = 0;
const subjects: Record<string, Subject> = {
  'the local folder': {
    async open() {
      const root = path.join(tmp, `local-${++n}`);
      return { store: new LocalFileStorage(root), list: () => filesUnder(root) };
    },
    async broken() {
      const file = path.join(tmp, `not-a-folder-${++n}`);
      await writeFile(file, 'x');
      return new LocalFileStorage(path.join(file, 'files'));
    },
  },
  'an S3 bucket': {
    async open() {
      const prefix = `run-${++n}/`;
      return { store: s3Store(prefix), list: async () => (await server.list(BUCKET, prefix)).map((k) => k.slice(prefix.length)) };
    },
    async broken() {
      return s3Store('', 'no-such-bucket');
    },
  },
};

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.each(Object.entries(subjects))('FileStorage contract: %s', (_name, subject) => {
  it('gives back exactly the bytes written, under nested keys, empty files included', async () => {
    const { store, list } = await subject.open();
    const pdf = randomBytes(120 * 1024);
    await store.put('diplomas/7/AbC_d-1.pdf', pdf);
    await store.put('photos/7/2026.jpg', Buffer.from([0xff, 0xd8, 0xff]));
    await store.put('imports/empty.csv', Buffer.alloc(0));
    expect((await store.get('diplomas/7/AbC_d-1.pdf'))!.equals(pdf)).toBe(true);
    expect([...(await store.get('photos/7/2026.jpg'))!]).toEqual([0xff, 0xd8, 0xff]);
    expect((await store.get('imports/empty.csv'))!.length).toBe(0);
    expect(await list()).toEqual(['diplomas/7/AbC_d-1.pdf', 'imports/empty.csv', 'photos/7/2026.jpg']);
  });

  it('answers null for a file that is not there, also in a folder that is not there', async () => {
    const { store } = await subject.open();
    await store.put('diplomas/1/a.pdf', Buffer.from('a'));
    expect(await store.get('diplomas/1/b.pdf')).toBeNull();
    expect(await store.get('nowhere/at/all.pdf')).toBeNull();
  });

  it('replaces a file written again, and deletes it (deleting a missing file is no error)', async () => {
    const { store, list } = await subject.open();
    await store.put('signatures/recteur.png', Buffer.from('first'));
    await store.put('signatures/recteur.png', Buffer.from('second, longer'));
    expect((await store.get('signatures/recteur.png'))!.toString()).toBe('second, longer');
    await store.delete('signatures/recteur.png');
    expect(await store.get('signatures/recteur.png')).toBeNull();
    await expect(store.delete('signatures/recteur.png')).resolves.toBeUndefined();
    await expect(store.delete('never/written.pdf')).resolves.toBeUndefined();
    expect(await list()).toEqual([]);
  });

  it('deletes many files in one call: a missing one is no error, other files stay', async () => {
    const { store, list } = await subject.open();
    const keys = Array.from({ length: 40 }, (_, i) => `photos/7/${String(i).padStart(3, '0')}.jpg`);
    await Promise.all([...keys, 'photos/7/kept.jpg'].map((k) => store.put(k, Buffer.from(k))));
    expect(await store.deleteMany([...keys, 'photos/7/never-written.jpg', keys[0]!])).toEqual([]);
    expect(await list()).toEqual(['photos/7/kept.jpg']);
    expect(await store.deleteMany([])).toEqual([]);
    await expect(store.deleteMany(['photos/7/kept.jpg', '../escape.jpg'])).rejects.toThrow(/unsafe storage key/);
    expect(await list()).toEqual(['photos/7/kept.jpg']);
  });

  it('refuses unsafe keys before doing anything', async () => {
    const { store, list } = await subject.open();
    for (const key of ['../escape.pdf', 'a/../../b.pdf', '/absolute.pdf', '', 'with space.pdf', '.hidden', 'a\\b.pdf']) {
      await expect(store.put(key, Buffer.from('x')), key).rejects.toThrow(/unsafe storage key/);
      await expect(store.get(key), key).rejects.toThrow(/unsafe storage key/);
      await expect(store.delete(key), key).rejects.toThrow(/unsafe storage key/);
    }
    expect(await list()).toEqual([]);
  });

  it('writes a batch chunk at once: 100 files in parallel, each read back intact', async () => {
    const { store, list } = await subject.open();
    const files = Array.from({ length: 100 }, (_, i) => ({ key: `diplomas/42/${i}.pdf`, data: randomBytes(2_000 + i * 37) }));
    await Promise.all(files.map((f) => store.put(f.key, f.data)));
    const back = await Promise.all(files.map((f) => store.get(f.key)));
    back.forEach((b, i) => {
      expect(sha(b!), files[i]!.key).toBe(sha(files[i]!.data));
    });
    expect(await list()).toHaveLength(100);
  });

  it('never shows a reader a partly written file: a large file (in parts on S3) replaces the old one whole', async () => {
    const { store } = await subject.open();
    const before = randomBytes(64 * 1024);
    const after = randomBytes(20 * 1024 * 1024 + 123); // above the 8 MB part size: a multipart upload on S3
    await store.put('imports/big/photos.zip', before);
    let done = false;
    const writing = store.put('imports/big/photos.zip', after).finally(() => (done = true));
    let reads = 0;
    while (!done) {
      const read = await store.get('imports/big/photos.zip');
      expect(read).not.toBeNull();
      expect([sha(before), sha(after)]).toContain(sha(read!));
      reads++;
    }
    await writing;
    expect(reads).toBeGreaterThan(0);
    expect(sha((await store.get('imports/big/photos.zip'))!)).toBe(sha(after));
  }, 60_000);

  it('lists the files under a folder in key order with when each was written, from after a key when asked', async () => {
    const { store } = await subject.open();
    const started = Date.now() - 2_000; // file dates are in whole seconds on some stores
    // `7-x.jpg` sorts before the folder `7/` ('-' before '/'), as S3 orders keys.
    const keys = ['photos/7-x.jpg', 'photos/7/a-0123.jpg', 'photos/7/a.jpg', 'photos/7/originals/a-0123.jpg', 'photos/70/b.jpg', 'photos/8/c.jpg'];
    // Written out of order, with neighbours the listing must leave out.
    for (const key of [...keys].reverse()) await store.put(key, Buffer.from(key));
    await store.put('photosx/7/d.jpg', Buffer.from('x'));
    await store.put('diplomas/7/1.pdf', Buffer.from('x'));
    const all = [];
    for await (const file of store.list!('photos/')) all.push(file);
    expect(all.map((f) => f.key)).toEqual(keys);
    for (const f of all) expect(f.modifiedAt.getTime(), f.key).toBeGreaterThan(started);
    const after = async (startAfter: string) => {
      const listed: string[] = [];
      for await (const file of store.list!('photos/', { startAfter })) listed.push(file.key);
      return listed;
    };
    expect(await after('photos/7/a.jpg')).toEqual(keys.slice(3));
    expect(await after('photos/7/originals/zzz')).toEqual(keys.slice(4));
    expect(await after('photos/7-x.jpg')).toEqual(keys.slice(1));
    expect(await after('photos/7')).toEqual(keys);
    expect(await after('photos/8/c.jpg')).toEqual([]);
    const nothing = [];
    for await (const file of store.list!('signatures/')) nothing.push(file);
    expect(nothing).toEqual([]);
    await expect(store.list!('photos')[Symbol.asyncIterator]().next()).rejects.toThrow(/must be a folder/);
    await expect(store.list!('../')[Symbol.asyncIterator]().next()).rejects.toThrow(/unsafe storage key/);
    await expect(store.list!('photos/', { startAfter: '../x' })[Symbol.asyncIterator]().next()).rejects.toThrow(/unsafe storage key/);
  });

  it('passes its start-up check, and a store that cannot work fails it and every operation with an error, never a null', async () => {
    const { store } = await subject.open();
    await expect(store.check!()).resolves.toBeUndefined();
    const broken = await subject.broken();
    await expect(broken.check!()).rejects.toThrow();
    await expect(broken.put('diplomas/1/1.pdf', Buffer.from('x'))).rejects.toThrow();
    await expect(broken.get('diplomas/1/1.pdf')).rejects.toThrow();
  });
});

describe('S3FileStorage', () => {
  it('is what FILE_STORAGE=s3 selects, with the S3_* settings; the default is still the folder under DATA_DIR', async () => {
    const base = { NODE_ENV: 'test' as const, DATA_DIR: tmp };
    const local = createFileStorage(loadConfig(base));
    expect(local).toBeInstanceOf(LocalFileStorage);
    const config = loadConfig({
      ...base,
      FILE_STORAGE: 's3',
      S3_ENDPOINT: server.endpoint,
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: server.credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: server.credentials.secretAccessKey,
      S3_PREFIX: 'configured',
    });
    expect(config.fileStorage.s3).toMatchObject({ bucket: BUCKET, region: 'us-east-1', forcePathStyle: true, prefix: 'configured/', endpoint: server.endpoint });
    const store = createFileStorage(config);
    expect(store).toBeInstanceOf(S3FileStorage);
    opened.push(store as S3FileStorage);
    await store.put('diplomas/1/x.pdf', Buffer.from('%PDF-'));
    expect(await server.list(BUCKET, 'configured/')).toEqual(['configured/diplomas/1/x.pdf']);
  });

  it('refuses an incomplete configuration with the variable to set', () => {
    expect(() => loadConfig({ FILE_STORAGE: 's3' })).toThrow(/S3_BUCKET: required when FILE_STORAGE=s3/);
    expect(() => loadConfig({ FILE_STORAGE: 's3', S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'id' })).toThrow(/set both, or neither/);
    expect(() => loadConfig({ FILE_STORAGE: 's3', S3_BUCKET: 'Not_A_Bucket' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ FILE_STORAGE: 's3', S3_BUCKET: 'b-1', S3_PREFIX: '../up' })).toThrow(/S3_PREFIX/);
    expect(() => loadConfig({ FILE_STORAGE: 'ftp' })).toThrow(/FILE_STORAGE/);
    // Without an endpoint: AWS itself, host-style addressing, the SDK's own credentials.
    expect(loadConfig({ FILE_STORAGE: 's3', S3_BUCKET: 'b-1', S3_REGION: 'eu-west-3' }).fileStorage.s3).toMatchObject({
      endpoint: null,
      forcePathStyle: false,
      credentials: null,
      region: 'eu-west-3',
    });
  });

  it('keeps each prefix apart in a shared bucket, and stores files with their content type', async () => {
    const a = s3Store('ministry-a/');
    const b = s3Store('ministry-b/');
    await a.put('diplomas/1/1.pdf', Buffer.from('%PDF-a'));
    expect(await b.get('diplomas/1/1.pdf')).toBeNull();
    await b.delete('diplomas/1/1.pdf');
    expect((await a.get('diplomas/1/1.pdf'))!.toString()).toBe('%PDF-a');
    const head = await server.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'ministry-a/diplomas/1/1.pdf' }));
    expect(head.ContentType).toBe('application/pdf');
    await a.put('photos/1/x.jpg', Buffer.from([0xff, 0xd8]));
    expect((await server.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'ministry-a/photos/1/x.jpg' }))).ContentType).toBe('image/jpeg');
  });

  it('sends a large file in 8 MB parts (a multipart upload), a small one in one request', async () => {
    const store = s3Store('parts/');
    await store.put('imports/1/photos.zip', randomBytes(17 * 1024 * 1024));
    await store.put('imports/1/list.csv', Buffer.from('code;nom\r\n'));
    const big = await server.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'parts/imports/1/photos.zip' }));
    expect(big.ETag).toMatch(/-3"$/); // S3's ETag of a multipart object: the digest of its parts, then their count
    expect(big.ContentLength).toBe(17 * 1024 * 1024);
    const small = await server.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'parts/imports/1/list.csv' }));
    expect(small.ETag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(small.ContentType).toBe('text/csv; charset=utf-8');
  });

  it('names the operation, key, bucket and endpoint when the store fails', async () => {
    const missing = s3Store('', 'no-such-bucket');
    await expect(missing.get('diplomas/1/1.pdf')).rejects.toThrow(
      `S3 storage: GetObject of "diplomas/1/1.pdf" in bucket "no-such-bucket" at ${server.endpoint} failed: NoSuchBucket`,
    );
    await expect(missing.check()).rejects.toThrow(/S3 storage: check \(put, get, delete\).*NoSuchBucket/);
  });

  it('deletes many keys with one DeleteObjects request per 1,000 keys, none with DeleteObject', async () => {
    const proxy = await startS3Proxy(server.endpoint);
    try {
      const store = storeThrough(proxy, 'many/');
      const keys = Array.from({ length: 2001 }, (_, i) => `photos/9/${String(i).padStart(5, '0')}.jpg`);
      for (let i = 0; i < keys.length; i += 100) await Promise.all(keys.slice(i, i + 100).map((k) => store.put(k, Buffer.from('x'))));
      proxy.requests.length = 0;
      expect(await store.deleteMany(keys)).toEqual([]);
      expect(await server.list(BUCKET, 'many/')).toEqual([]);
      const deletes = proxy.requests.filter((r) => r.method === 'POST' && r.query.has('delete'));
      expect(deletes.map((r) => r.keys)).toEqual([1000, 1000, 1]);
      expect(proxy.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it("lists a folder through as many ListObjectsV2 pages as it takes, with each object's date", async () => {
    const proxy = await startS3Proxy(server.endpoint);
    try {
      const store = storeThrough(proxy, 'paged/', { listPageSize: 2 });
      const keys = Array.from({ length: 5 }, (_, i) => `photos/3/${i}.jpg`);
      for (const key of keys) await store.put(key, Buffer.from(key));
      proxy.requests.length = 0;
      const listed = [];
      for await (const file of store.list('photos/')) listed.push(file);
      expect(listed.map((f) => f.key)).toEqual(keys);
      for (const f of listed) expect(Math.abs(f.modifiedAt.getTime() - Date.now()), f.key).toBeLessThan(60_000);
      expect(proxy.requests.filter((r) => r.method === 'GET' && r.query.get('list-type') === '2')).toHaveLength(3);
      // Going on after a key asks only for what follows it.
      proxy.requests.length = 0;
      const rest = [];
      for await (const file of store.list('photos/', { startAfter: 'photos/3/2.jpg' })) rest.push(file.key);
      expect(rest).toEqual(keys.slice(3));
      expect(proxy.requests.filter((r) => r.method === 'GET' && r.query.get('list-type') === '2')).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it("answers each key the store could not delete with the store's reason, and deletes the others", async () => {
    const proxy = await startS3Proxy(server.endpoint, (objectKey) => objectKey.includes('locked'));
    try {
      const store = storeThrough(proxy, 'refusing/');
      const keys = ['photos/1/a.jpg', 'photos/1/locked-b.jpg', 'photos/1/c.jpg'];
      await Promise.all(keys.map((k) => store.put(k, Buffer.from('x'))));
      const failed = await store.deleteMany(keys);
      expect(failed.map((f) => f.key)).toEqual(['photos/1/locked-b.jpg']);
      expect(failed[0]!.error.message).toBe(`S3 storage: DeleteObjects of "photos/1/locked-b.jpg" in bucket "${BUCKET}" at ${proxy.endpoint} failed: AccessDenied: Access Denied`);
      expect(await server.list(BUCKET, 'refusing/')).toEqual(['refusing/photos/1/locked-b.jpg']);
    } finally {
      await proxy.close();
    }
  });

  it('answers every key of a DeleteObjects request that failed whole', async () => {
    const missing = s3Store('', 'no-such-bucket');
    const failed = await missing.deleteMany(['photos/1/a.jpg', 'photos/1/b.jpg']);
    expect(failed.map((f) => f.key)).toEqual(['photos/1/a.jpg', 'photos/1/b.jpg']);
    expect(failed[0]!.error.message).toMatch(/^S3 storage: DeleteObjects of "photos\/1\/a.jpg" in bucket "no-such-bucket".*failed/);
  });

  it('fails, within its timeouts and retries, when the server is gone', async () => {
    const other = await startS3Server();
    await other.createBucket('gone');
    const store = new S3FileStorage({ endpoint: other.endpoint, bucket: 'gone', region: other.region, credentials: other.credentials, forcePathStyle: true, prefix: '' });
    opened.push(store);
    await store.put('a/b.pdf', Buffer.from('x'));
    await other.stop();
    await expect(store.get('a/b.pdf')).rejects.toThrow(/S3 storage: GetObject of "a\/b.pdf" in bucket "gone".*failed/);
    await expect(store.put('a/c.pdf', Buffer.from('y'))).rejects.toThrow(/S3 storage: PutObject of "a\/c.pdf"/);
  }, 60_000);
});

interface ProxiedRequest {
  method: string;
  query: URLSearchParams;
  /** For a DeleteObjects request, how many keys it named. */
  keys: number;
}

/**
 * An HTTP proxy in front of the test S3 server that records each request; with `refuse`, the keys
 * of a DeleteObjects request it matches are not passed on, and the answer reports them as the
 * S3 API reports a key it could not delete (`<Error>` with AccessDenied) — which the test server
 * itself never does.
 */
/** A store of the test bucket under `prefix`, its requests sent through a proxy that counts them. */
function storeThrough(proxy: { endpoint: string }, prefix: string, options: { listPageSize?: number } = {}): S3FileStorage {
  const store = new S3FileStorage({ endpoint: proxy.endpoint, bucket: BUCKET, region: server.region, credentials: server.credentials, forcePathStyle: true, prefix, ...options });
  opened.push(store);
  return store;
}

async function startS3Proxy(upstream: string, refuse: (objectKey: string) => boolean = () => false) {
  const target = new URL(upstream);
  const requests: ProxiedRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    const url = new URL(req.url!, 'http://proxy');
    const isDelete = req.method === 'POST' && url.searchParams.has('delete');
    const refused: string[] = [];
    if (isDelete) {
      const text = body.toString('utf8');
      requests.push({ method: req.method!, query: url.searchParams, keys: [...text.matchAll(/<Key>/g)].length });
      body = Buffer.from(
        text.replace(/<Object><Key>([^<]*)<\/Key><\/Object>/g, (whole, key: string) => {
          if (!refuse(key)) return whole;
          refused.push(key);
          return '';
        }),
      );
    } else requests.push({ method: req.method!, query: url.searchParams, keys: 0 });
    const headers = { ...req.headers, host: target.host, 'content-length': String(body.length) };
    const upstreamReq = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, async (up) => {
      const answer: Buffer[] = [];
      for await (const chunk of up) answer.push(chunk as Buffer);
      let out = Buffer.concat(answer);
      if (refused.length) {
        const errors = refused.map((k) => `<Error><Key>${k}</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error>`).join('');
        out = Buffer.from(out.toString('utf8').replace('</DeleteResult>', `${errors}</DeleteResult>`));
      }
      res.writeHead(up.statusCode!, { ...up.headers, 'content-length': String(out.length) });
      res.end(out);
    });
    upstreamReq.on('error', () => res.destroy());
    upstreamReq.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
