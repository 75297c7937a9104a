import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { ListObjectsV2CommandOutput, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { assertListing, assertStorageKey, type FailedDeletion, type FileStorage, isStorageKey, type ListedFile } from './storage.ts';

/** An S3-compatible bucket (AWS S3, MinIO, Ceph RGW, a cloud's object storage): `FILE_STORAGE=s3`. */
export interface S3StorageOptions {
  /** The S3 API's address; null: AWS S3 in `region`. */
  endpoint: string | null;
  bucket: string;
  region: string;
  /** null: the AWS SDK's own credential sources (AWS_* variables, profile, instance or pod role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** `https://host/bucket/key` instead of `https://bucket.host/key` (MinIO and most self-hosted stores). */
  forcePathStyle: boolean;
  /** Every key is stored under this folder of the bucket ('' or ending in '/'). */
  prefix: string;
  /** Keys per ListObjectsV2 page (`list`); default S3's own maximum, 1,000 (smaller in tests, to see several pages). */
  listPageSize?: number;
  /** Where the HTTP layer's warnings go (sockets all busy); default: nowhere. */
  log?: { warn: (message: string) => void };
}

/** Files larger than this go up in parts of this size, several at a time (a photo zip of 200 MB: 25 parts). */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_AT_ONCE = 4;
/**
 * Requests in flight per process: a PDF chunk writes 100 files at once and two chunks run together
 * (ADR 0105); more wait for a free connection.
 */
const MAX_SOCKETS = 128;
/** Keys per DeleteObjects request: S3's own limit. */
export const DELETE_OBJECTS_MAX = 1000;

const CONTENT_TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.zip': 'application/zip',
  '.csv': 'text/csv; charset=utf-8',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.json': 'application/json',
};

type Sdk = {
  client: S3Client;
  s3: typeof import('@aws-sdk/client-s3');
  Upload: typeof import('@aws-sdk/lib-storage').Upload;
};

/** The SDK client for these options: the platform's store and the backup's listing use the same. */
export function createS3Client(s3: typeof import('@aws-sdk/client-s3'), o: S3StorageOptions): S3Client {
  const agent = { keepAlive: true, maxSockets: MAX_SOCKETS };
  return new s3.S3Client({
    region: o.region,
    ...(o.endpoint ? { endpoint: o.endpoint } : {}),
    forcePathStyle: o.forcePathStyle,
    ...(o.credentials ? { credentials: o.credentials } : {}),
    // Other stores than AWS reject or mishandle the SDK's default checksums (CRC32 headers and
    // trailers, aws-chunked bodies): send them only where an operation requires one. Integrity
    // end to end is the diplomas' own SHA-256 (stored with each PDF and checked on verification).
    ...(o.endpoint ? { requestChecksumCalculation: 'WHEN_REQUIRED' as const, responseChecksumValidation: 'WHEN_REQUIRED' as const } : {}),
    maxAttempts: 4,
    requestHandler: {
      connectionTimeout: 10_000,
      socketTimeout: 60_000,
      httpAgent: agent,
      httpsAgent: agent,
      logger: { debug() {}, info() {}, warn: (message: string) => o.log?.warn(message), error: (message: string) => o.log?.warn(message) },
    },
  });
}

/**
 * `FileStorage` on an S3-compatible bucket, with the local folder's contract (ADR 0108):
 * - `put` is whole or nothing: one PutObject, or above 8 MB a multipart upload that is aborted on
 *   failure (the object appears only when the upload completes, replacing any earlier one at once);
 * - `get` answers null for a missing key (NoSuchKey), and throws for anything else (no such bucket,
 *   access denied, network) — never a wrong null that would hide a misconfigured store;
 * - `delete` of a missing key is no error;
 * - `deleteMany` sends one DeleteObjects per 1,000 keys (quiet: the answer lists only the keys it
 *   could not delete) and answers those keys with their error; a missing key is no error;
 * - keys are checked as the local store checks them, before any request;
 * - `list` pages through ListObjectsV2 (a page of 1,000 keys per request, continuation tokens),
 *   which needs the ListBucket permission (the orphan photo sweep, ADR 0112).
 * The AWS SDK is loaded on first use, so that processes with the local store never load it.
 */
export class S3FileStorage implements FileStorage {
  private sdk: Promise<Sdk> | null = null;

  constructor(private readonly options: S3StorageOptions) {}

  /** Where a key is stored in the bucket. */
  objectKey(key: string): string {
    assertStorageKey(key);
    return `${this.options.prefix}${key}`;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const Key = this.objectKey(key);
    const { client, s3, Upload } = await this.connect();
    const params = { Bucket: this.options.bucket, Key, Body: data, ContentType: CONTENT_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream' };
    try {
      // One request for what fits in a part (every PDF and photo): `Upload` costs about 40 % more CPU per small file.
      if (data.length <= PART_BYTES) await client.send(new s3.PutObjectCommand({ ...params, ContentLength: data.length }));
      else await new Upload({ client, params, partSize: PART_BYTES, queueSize: PARTS_AT_ONCE, leavePartsOnError: false }).done();
    } catch (error) {
      throw this.failure('PutObject', key, error);
    }
  }

  async get(key: string): Promise<Buffer | null> {
    const Key = this.objectKey(key);
    const { client, s3 } = await this.connect();
    try {
      const answer = await client.send(new s3.GetObjectCommand({ Bucket: this.options.bucket, Key }));
      if (!answer.Body) return Buffer.alloc(0);
      const bytes = await answer.Body.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      if (isMissingKey(error)) return null;
      throw this.failure('GetObject', key, error);
    }
  }

  async delete(key: string): Promise<void> {
    const Key = this.objectKey(key);
    const { client, s3 } = await this.connect();
    try {
      await client.send(new s3.DeleteObjectCommand({ Bucket: this.options.bucket, Key }));
    } catch (error) {
      // S3 answers 204 for a missing key; a few compatible stores answer NoSuchKey.
      if (isMissingKey(error)) return;
      throw this.failure('DeleteObject', key, error);
    }
  }

  async deleteMany(keys: readonly string[]): Promise<FailedDeletion[]> {
    const unique = [...new Set(keys)];
    // Every key checked before any request, as for the other operations.
    const objects = unique.map((key) => ({ key, Key: this.objectKey(key) }));
    if (!objects.length) return [];
    const { client, s3 } = await this.connect();
    const failed: FailedDeletion[] = [];
    for (let i = 0; i < objects.length; i += DELETE_OBJECTS_MAX) {
      const chunk = objects.slice(i, i + DELETE_OBJECTS_MAX);
      try {
        const answer = await client.send(new s3.DeleteObjectsCommand({ Bucket: this.options.bucket, Delete: { Objects: chunk.map(({ Key }) => ({ Key })), Quiet: true } }));
        const byObjectKey = new Map(chunk.map((o) => [o.Key, o.key]));
        for (const e of answer.Errors ?? []) {
          // A few compatible stores report a missing key instead of counting it deleted.
          if (e.Code === 'NoSuchKey') continue;
          const key = (e.Key !== undefined && byObjectKey.get(e.Key)) || e.Key || '?';
          const where = this.options.endpoint ? ` at ${this.options.endpoint}` : '';
          failed.push({
            key,
            error: new Error(`S3 storage: DeleteObjects of "${key}" in bucket "${this.options.bucket}"${where} failed: ${e.Code ?? 'Error'}: ${e.Message ?? ''}`.trimEnd()),
          });
        }
      } catch (error) {
        // The whole request failed (network, no such bucket, access denied): none of its keys is known deleted.
        for (const { key } of chunk) failed.push({ key, error: this.failure('DeleteObjects', key, error) });
      }
    }
    return failed;
  }

  async *list(prefix: string, options: { startAfter?: string } = {}): AsyncGenerator<ListedFile> {
    assertListing(prefix, options.startAfter);
    const { client, s3 } = await this.connect();
    const Prefix = this.objectKey(prefix);
    const StartAfter = options.startAfter === undefined ? undefined : this.objectKey(options.startAfter);
    const MaxKeys = this.options.listPageSize;
    let token: string | undefined;
    do {
      let page: ListObjectsV2CommandOutput;
      try {
        page = await client.send(
          new s3.ListObjectsV2Command({
            Bucket: this.options.bucket,
            Prefix,
            ...(token ? { ContinuationToken: token } : StartAfter ? { StartAfter } : {}),
            ...(MaxKeys ? { MaxKeys } : {}),
          }),
        );
      } catch (error) {
        throw this.failure('ListObjectsV2', prefix, error);
      }
      for (const item of page.Contents ?? []) {
        const key = item.Key?.slice(this.options.prefix.length);
        // A "folder" marker some consoles create, or a name no key can have: nothing the platform wrote.
        if (!key || key.endsWith('/') || !isStorageKey(key)) continue;
        // S3 dates every object; a store that did not could not tell an old file from one just written.
        if (!item.LastModified) continue;
        yield { key, modifiedAt: item.LastModified };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /**
   * Writes, reads back and deletes a small object under `<prefix>.sceau-check/`: proves the bucket
   * exists and that these credentials may do what the platform does (no ListBucket permission needed).
   */
  async check(): Promise<void> {
    const { client, s3 } = await this.connect();
    const Key = `${this.options.prefix}.sceau-check/${randomBytes(8).toString('hex')}`;
    const Bucket = this.options.bucket;
    const body = `sceau storage check ${new Date().toISOString()}`;
    try {
      await client.send(new s3.PutObjectCommand({ Bucket, Key, Body: body, ContentType: 'text/plain' }));
      const read = await client.send(new s3.GetObjectCommand({ Bucket, Key }));
      const text = await read.Body?.transformToString();
      if (text !== body) throw new Error('the object read back differs from the one written');
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key }));
    } catch (error) {
      throw this.failure('check (put, get, delete)', Key, error);
    }
  }

  /** Closes the HTTP connections kept open (tests, shutdown). */
  async close(): Promise<void> {
    const sdk = await this.sdk?.catch(() => null);
    sdk?.client.destroy();
    this.sdk = null;
  }

  private connect(): Promise<Sdk> {
    this.sdk ??= (async () => {
      const [s3, storage] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
      const client = createS3Client(s3, this.options);
      return { client, s3, Upload: storage.Upload };
    })();
    return this.sdk;
  }

  /** The SDK's error, named with the operation, the key and the bucket (and kept as the cause). */
  private failure(operation: string, key: string, error: unknown): Error {
    const e = error as Partial<S3ServiceException> & Error;
    const code = e.name && e.name !== 'Error' ? `${e.name}: ` : '';
    const where = this.options.endpoint ? ` at ${this.options.endpoint}` : '';
    return new Error(`S3 storage: ${operation} of "${key}" in bucket "${this.options.bucket}"${where} failed: ${code}${e.message ?? String(error)}`, { cause: error });
  }
}

/** NoSuchKey (or a bare 404 "NotFound"), not NoSuchBucket: a missing bucket is a configuration error. */
function isMissingKey(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || (e.name === 'NotFound' && e.$metadata?.httpStatusCode === 404);
}
