import type { Config } from '../config.ts';
import { S3FileStorage } from './s3-storage.ts';
import { LocalFileStorage, type FileStorage } from './storage.ts';

/**
 * The store the configuration names (`FILE_STORAGE`): the folder `DATA_DIR/files` (default), or an
 * S3-compatible bucket (ADR 0108). `log` receives the S3 client's warnings (all connections busy).
 */
export function createFileStorage(config: Pick<Config, 'filesDir' | 'fileStorage'>, log?: { warn: (message: string) => void }): FileStorage {
  const s3 = config.fileStorage.s3;
  return s3 ? new S3FileStorage({ ...s3, ...(log ? { log } : {}) }) : new LocalFileStorage(config.filesDir);
}
