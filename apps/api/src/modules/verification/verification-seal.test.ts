// The seal key and the seal's form (ADR 0154); what a verification does with a seal: sealed-verification.test.ts.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { loadSealKey, readSeal, SEAL_BYTES, sealKey, sealOf, SealKeyring } from './verification-seal.ts';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});
async function tempDir() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sceau-seal-'));
  dirs.push(dir);
  return dir;
}

describe('the seal key', () => {
  it('is generated once under DATA_DIR/keys, readable by its owner only, and every process starting together reads the same one', async () => {
    const dir = await tempDir();
    const settings = loadConfig({ DATA_DIR: dir }).verificationSeal;
    expect(settings).toEqual({ key: null, file: path.join(dir, 'keys', 'verification-seal.key') });
    const keys = await Promise.all(Array.from({ length: 8 }, () => loadSealKey(settings)));
    for (const key of keys) expect(key.secret.equals(keys[0]!.secret)).toBe(true);
    expect(keys[0]!.secret.length).toBeGreaterThanOrEqual(32);
    expect((await stat(settings.file)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(settings.file, 'utf8')).trim(), 'base64').equals(keys[0]!.secret)).toBe(true);
    // Read again later: the same key, no leftover drafts.
    expect((await loadSealKey(settings)).secret.equals(keys[0]!.secret)).toBe(true);
    expect(await readdir(path.join(dir, 'keys'))).toEqual(['verification-seal.key']);
  });

  it('is VERIFICATION_SEAL_KEY when set (base64, at least 32 bytes), and the file is then not written', async () => {
    const dir = await tempDir();
    const secret = Buffer.alloc(32, 7);
    const config = loadConfig({ DATA_DIR: dir, VERIFICATION_SEAL_KEY: secret.toString('base64') });
    expect((await loadSealKey(config.verificationSeal)).secret.equals(secret)).toBe(true);
    await expect(stat(config.verificationSeal.file)).rejects.toThrow(/ENOENT/);
    expect(loadConfig({ DATA_DIR: dir, VERIFICATION_SEAL_KEY: secret.toString('base64url') }).verificationSeal.key!.equals(secret)).toBe(true);
    expect(() => loadConfig({ VERIFICATION_SEAL_KEY: Buffer.alloc(31).toString('base64') })).toThrow(/VERIFICATION_SEAL_KEY: at least 32 bytes/);
    expect(() => loadConfig({ VERIFICATION_SEAL_KEY: 'not base64!' })).toThrow(/VERIFICATION_SEAL_KEY: base64/);
  });

  it('a key file that is not a key is refused; the keyring then reports it once and seals nothing', async () => {
    const dir = await tempDir();
    const settings = loadConfig({ DATA_DIR: dir }).verificationSeal;
    await loadSealKey(settings);
    await writeFile(settings.file, 'c2hvcnQ=\n');
    await expect(loadSealKey(settings)).rejects.toThrow(/not a verification seal key/);
    const warnings: string[] = [];
    const keyring = new SealKeyring(settings, { warn: (_details, message) => warnings.push(message) });
    expect(await keyring.key()).toBeNull();
    expect(await keyring.key()).toBeNull();
    expect(warnings).toHaveLength(1);
  });
});

describe('the seal', () => {
  const key = sealKey(Buffer.alloc(32, 1));
  const other = sealKey(Buffer.alloc(32, 2));
  const seal = sealOf(key, 'ID1', '{"a":1}', '{"b":2}');

  it('holds for exactly the id, credential text and public credential text it was made over', () => {
    expect(seal).toHaveLength(SEAL_BYTES);
    expect(readSeal(key, seal, 'ID1', '{"a":1}', '{"b":2}')).toBe('valid');
    expect(readSeal(key, seal, 'ID2', '{"a":1}', '{"b":2}')).toBe('mismatch');
    expect(readSeal(key, seal, 'ID1', '{"a":2}', '{"b":2}')).toBe('mismatch');
    expect(readSeal(key, seal, 'ID1', '{"a":1}', '{"b":3}')).toBe('mismatch');
    expect(readSeal(key, seal, 'ID1', '{"a":1}', null)).toBe('mismatch');
    // Parts moved across their boundaries are other messages.
    expect(readSeal(key, seal, 'ID1{"a":1}', '', '{"b":2}')).toBe('mismatch');
    const flipped = Buffer.from(seal);
    flipped[SEAL_BYTES - 1]! ^= 1;
    expect(readSeal(key, flipped, 'ID1', '{"a":1}', '{"b":2}')).toBe('mismatch');
  });

  it('made under another key, cut short or absent reads as absent', () => {
    expect(readSeal(other, seal, 'ID1', '{"a":1}', '{"b":2}')).toBe('absent');
    expect(readSeal(key, seal.subarray(0, 20), 'ID1', '{"a":1}', '{"b":2}')).toBe('absent');
    expect(readSeal(key, null, 'ID1', '{"a":1}', '{"b":2}')).toBe('absent');
  });
});
