import { verifyEs256 } from '@sceau/credential';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMinistryKeys, rotateDevelopmentKey, type KeysConfig } from './ministry-keys.ts';

const quiet = { info: () => {}, warn: () => {} };
let dir: string;
let config: KeysConfig;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sceau-keys-'));
  config = { dir: path.join(dir, 'keys'), keyFile: null, certificateFile: null, retiredCertificateFiles: [], organization: 'Ministère de test' };
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('ministry keys', () => {
  it('creates a development CA and signing key on first start, private files readable by us only', async () => {
    const keys = await loadMinistryKeys(config, quiet);
    expect(keys.mode).toBe('development');
    expect(keys.all).toHaveLength(1);
    const [leaf, ca] = keys.active.certificateChainDer.map((der) => new X509Certificate(der));
    expect(leaf!.checkIssued(ca!)).toBe(true);
    expect(leaf!.subject).toContain('Ministère de test');
    const keyFile = (await readFile(path.join(config.dir, 'keyring.json'), 'utf8')).match(/"key_file": "([^"]+)"/)![1]!;
    expect((await stat(path.join(config.dir, keyFile))).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(config.dir, 'development-ca-key.pem'))).mode & 0o777).toBe(0o600);
  });

  it('loads the same key on the next start', async () => {
    const first = await loadMinistryKeys(config, quiet);
    const second = await loadMinistryKeys(config, quiet);
    expect(second.active.kid).toBe(first.active.kid);
  });

  it('signs ES256 so that the published key verifies it', async () => {
    const keys = await loadMinistryKeys(config, quiet);
    const data = new TextEncoder().encode('Diplôme d’État — Session 2026');
    const signature = await keys.active.es256.sign(data);
    const published = keys.jwks().keys.find((k) => k.kid === keys.active.kid)!;
    expect(published).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', status: 'active' });
    expect(published).not.toHaveProperty('retired_at');
    expect(published.x5c).toHaveLength(2);
    expect(verifyEs256(published, data, signature)).toBe(true);
    expect(JSON.stringify(keys.jwks())).not.toMatch(/"d":/);
  });

  it('rotates: a new active key from the same CA, the old one still published as retired', async () => {
    const before = await loadMinistryKeys(config, quiet);
    const newKid = await rotateDevelopmentKey(config);
    const after = await loadMinistryKeys(config, quiet);
    expect(after.active.kid).toBe(newKid);
    expect(newKid).not.toBe(before.active.kid);
    const published = after.jwks().keys;
    expect(published.map((k) => [k.kid, k.status])).toEqual([
      [before.active.kid, 'retired'],
      [newKid, 'active'],
    ]);
    // The retired key carries its retirement time (ISO 8601 UTC), the active one none.
    const retiredAt = published[0]!.retired_at!;
    expect(retiredAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Math.abs(Date.parse(retiredAt) - Date.now())).toBeLessThan(60_000);
    expect(published[1]).not.toHaveProperty('retired_at');
    const oldCa = new X509Certificate(before.active.certificateChainDer[1]!);
    const newLeaf = new X509Certificate(after.active.certificateChainDer[0]!);
    expect(newLeaf.checkIssued(oldCa)).toBe(true);
  });

  it('refuses a configured certificate that does not belong to the configured key', async () => {
    const other = await mkdtemp(path.join(os.tmpdir(), 'sceau-keys-other-'));
    try {
      const a = { ...config, dir: path.join(other, 'a') };
      const b = { ...config, dir: path.join(other, 'b') };
      await loadMinistryKeys(a, quiet);
      await loadMinistryKeys(b, quiet);
      const file = async (d: string, what: 'key_file' | 'certificate_file') => {
        const keyring = JSON.parse(await readFile(path.join(d, 'keyring.json'), 'utf8'));
        return path.join(d, keyring.keys[0][what]);
      };
      const configured = { ...config, keyFile: await file(a.dir, 'key_file'), certificateFile: await file(b.dir, 'certificate_file') };
      await expect(loadMinistryKeys(configured, quiet)).rejects.toThrow(/does not belong to the signing key/);
      const matching = { ...configured, certificateFile: await file(a.dir, 'certificate_file') };
      const keys = await loadMinistryKeys(matching, quiet);
      expect(keys.mode).toBe('configured');
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});
