// removeUnusedPhotos hands its keys, with each photo's original, to the store's deleteMany once, and logs each key the store could not delete.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPhotoKey, originalKeyOf, photoKeyFor, photoKeyOfOriginal, removeUnusedPhotos } from './photo-files.ts';
import { LocalFileStorage, type FailedDeletion } from './storage.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'sceau-photo-files-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** A database in which `named` keys are still some candidate's photo. */
const dbNaming = (named: string[]) =>
  ({
    selectDistinct: () => ({ from: () => ({ where: async () => named.map((key) => ({ key })) }) }),
  }) as unknown as Parameters<typeof removeUnusedPhotos>[0];

describe('removeUnusedPhotos', () => {
  it('deletes the unused keys in one deleteMany, logs each one the store could not delete, and counts only those deleted', async () => {
    const local = new LocalFileStorage(root);
    const keys = ['photos/1/a.jpg', 'photos/1/b.jpg', 'photos/1/c.jpg', 'photos/1/originals/a.jpg'];
    for (const key of keys) await local.put(key, Buffer.from(key));
    const calls: string[][] = [];
    // The store refuses b.jpg, as S3 answers a key it could not delete in DeleteObjects' Errors.
    const store = {
      async deleteMany(batch: readonly string[]): Promise<FailedDeletion[]> {
        calls.push([...batch]);
        const failed = await local.deleteMany(batch.filter((k) => k !== 'photos/1/b.jpg'));
        return [...failed, ...(batch.includes('photos/1/b.jpg') ? [{ key: 'photos/1/b.jpg', error: new Error('AccessDenied') }] : [])];
      },
    };
    const warned: object[] = [];
    const deleted = await removeUnusedPhotos(dbNaming(['photos/1/c.jpg']), store, [...keys, null, 'photos/1/a.jpg'], { warn: (obj) => warned.push(obj) });
    // Each unused photo's original (beside it, under originals/) goes with it.
    expect(calls).toEqual([['photos/1/a.jpg', 'photos/1/originals/a.jpg', 'photos/1/b.jpg', 'photos/1/originals/b.jpg']]);
    expect(deleted).toBe(2);
    expect(warned).toEqual([{ err: new Error('AccessDenied'), key: 'photos/1/b.jpg' }]);
    const left = (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)));
    expect(left.sort()).toEqual(['photos/1/b.jpg', 'photos/1/c.jpg']);
  });
});

describe('photoKeyOfOriginal', () => {
  it('answers the photo an original belongs to, and null for a key that is no original', () => {
    for (const photo of ['photos/12/20260000900001-0123456789abcdef.jpg', 'photos/12/20260000900001.jpg', 'photos/demo/12-1.jpg'])
      expect(photoKeyOfOriginal(originalKeyOf(photo))).toBe(photo);
    for (const key of ['photos/12/20260000900001.jpg', 'photos/12/originals/', 'photos/12/originals/x/y.jpg', 'photos/originals.jpg'])
      expect(photoKeyOfOriginal(key), key).toBeNull();
  });
});

describe('photo keys', () => {
  const photo = Buffer.from('a 300 × 400 JPEG');
  const other = Buffer.from('another JPEG');

  it('gives each write a key of its own, even for the same bytes, carrying the content tag', () => {
    const keys = new Set(Array.from({ length: 50 }, () => newPhotoKey(7, '20260001000001', photo)));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(/^photos\/7\/20260001000001-[0-9a-f]{16}-[0-9a-f]{8}\.jpg$/);
    // Same bytes, same tag; the random part is what differs.
    expect(new Set([...keys].map((k) => k.slice(0, -13))).size).toBe(1);
  });

  it("derives the writer's part from a given writer (an importation): its runs write the same keys, another importation others", () => {
    const first = newPhotoKey(7, '20260001000001', photo, 'importation:12');
    expect(newPhotoKey(7, '20260001000001', photo, 'importation:12')).toBe(first);
    expect(newPhotoKey(7, '20260001000001', photo, 'importation:13')).not.toBe(first);
    expect(first).toMatch(/^photos\/7\/20260001000001-[0-9a-f]{16}-[0-9a-f]{8}\.jpg$/);
    expect(photoKeyFor(first, 7, '20260001000001', photo)).toBe(first);
  });

  it("keeps the row's key for the same bytes (its own form, and content keys written before the writer's part), a new key otherwise", () => {
    const key = newPhotoKey(7, '20260001000001', photo);
    expect(photoKeyFor(key, 7, '20260001000001', photo)).toBe(key);
    const legacy = key.replace(/-[0-9a-f]{8}\.jpg$/, '.jpg');
    expect(photoKeyFor(legacy, 7, '20260001000001', photo)).toBe(legacy);
    const fresh = /^photos\/7\/20260001000001-[0-9a-f]{16}-[0-9a-f]{8}\.jpg$/;
    for (const current of [key, legacy]) {
      const replaced = photoKeyFor(current, 7, '20260001000001', other);
      expect(replaced).toMatch(fresh);
      expect(replaced.slice(0, -13)).toBe(newPhotoKey(7, '20260001000001', other).slice(0, -13));
    }
    // The import's fixed name of old, no key, and a name that only contains a key hold nothing: a new key.
    for (const current of ['photos/7/20260001000001.jpg', null, `${key}.bak`]) expect(photoKeyFor(current, 7, '20260001000001', photo)).toMatch(fresh);
    expect(photoKeyFor(`${key}.bak`, 7, '20260001000001', photo)).not.toBe(key);
  });
});
