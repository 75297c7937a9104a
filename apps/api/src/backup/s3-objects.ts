/**
 * Listing and reading every object of the platform's bucket, for a backup (the platform itself only
 * puts, gets and deletes by key: this also needs the ListBucket permission).
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { createS3Client, type S3StorageOptions } from '../lib/s3-storage.ts';

type Options = Omit<S3StorageOptions, 'log'>;

/** A client as the platform's own store makes it. */
export async function s3Client(o: Options): Promise<S3Client> {
  return createS3Client(await import('@aws-sdk/client-s3'), o);
}

export interface ListedObject {
  /** The platform's key (S3_PREFIX removed). */
  key: string;
  size: number;
  lastModified?: Date;
  /** The object as it is now, with its size now (it may have been replaced since the listing). */
  open(): Promise<{ body: Readable; size: number }>;
}

/** Every object under the prefix, a page of 1,000 at a time. */
export async function* listObjects(client: S3Client, o: Options, maxKeys?: number): AsyncGenerator<ListedObject> {
  const s3 = await import('@aws-sdk/client-s3');
  let token: string | undefined;
  do {
    const page = await client.send(
      new s3.ListObjectsV2Command({ Bucket: o.bucket, Prefix: o.prefix || undefined, ContinuationToken: token, ...(maxKeys ? { MaxKeys: maxKeys } : {}) }),
    );
    for (const item of page.Contents ?? []) {
      const Key = item.Key!;
      if (Key.endsWith('/')) continue; // a "folder" marker some consoles create
      yield {
        key: Key.slice(o.prefix.length),
        size: item.Size ?? 0,
        ...(item.LastModified ? { lastModified: item.LastModified } : {}),
        open: async () => {
          const answer = await client.send(new s3.GetObjectCommand({ Bucket: o.bucket, Key }));
          return { body: answer.Body as Readable, size: answer.ContentLength ?? item.Size ?? 0 };
        },
      };
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
    if (maxKeys) return;
  } while (token);
}
