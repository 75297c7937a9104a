import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { verifyEs256 } from '@sceau/credential';
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyringFile, loadMinistryKeys, markKeyCompromised, rotateDevelopmentKey, type KeysConfig } from './ministry-keys.ts';

const quiet = { info: () => {}, warn: () => {} };
let dir: string;
let config: KeysConfig;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sceau-keys-'));
  config = {
    dir: path.join(dir, 'keys'),
    keyFile: null,
    certificateFile: null,
    retiredCertificateFiles: [],
    organization: 'Ministère de test',
    crlUrl: 'https://sceau.test/pki/ca.crl',
  };
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
    // The signing certificate names where its CA publishes revocations (ADR 0135): a validator finds the CRL.
    const crlPoints = new x509.X509Certificate(keys.active.certificateChainDer[0]!).getExtension(x509.CRLDistributionPointsExtension);
    expect(JSON.stringify(crlPoints?.distributionPoints)).toContain('https://sceau.test/pki/ca.crl');
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
    const oldKeyFile = path.join(config.dir, `ministry-${before.active.kid}.key.pem`);
    expect(existsSync(oldKeyFile)).toBe(true);
    const rotation = await rotateDevelopmentKey(config);
    const newKid = rotation.active;
    expect(rotation).toMatchObject({ retired: before.active.kid, retiredPrivateKey: { destroyed: [`ministry-${before.active.kid}.key.pem`] } });
    // The retired private key is gone from the key folder; its certificate stays, for publication.
    expect(existsSync(oldKeyFile)).toBe(false);
    expect(existsSync(path.join(config.dir, `ministry-${before.active.kid}.chain.pem`))).toBe(true);
    const keyring = JSON.parse(await readFile(keyringFile(config), 'utf8'));
    expect(keyring.keys.find((k: { kid: string }) => k.kid === before.active.kid).key_file).toBeNull();
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

  it('moves a retired private key to an archive folder outside the key folder when asked', async () => {
    const archive = path.join(dir, 'offline-archive');
    const before = await loadMinistryKeys(config, quiet);
    await expect(rotateDevelopmentKey(config, { archiveDir: path.join(config.dir, 'old') })).rejects.toThrow(/outside the key folder/);
    const rotation = await rotateDevelopmentKey(config, { archiveDir: archive });
    expect(rotation.retiredPrivateKey).toEqual({ archivedTo: archive });
    const archived = path.join(archive, `ministry-${before.active.kid}.key.pem`);
    expect((await stat(archived)).mode & 0o777).toBe(0o600);
    expect(await readFile(archived, 'utf8')).toMatch(/BEGIN PRIVATE KEY/);
    expect((await readdir(config.dir)).filter((f) => f.endsWith('.key.pem'))).toEqual([`ministry-${rotation.active}.key.pem`]);
    const after = await loadMinistryKeys(config, quiet);
    expect(after.all.map((k) => k.kid)).toContain(before.active.kid);
  });

  it('declares a retired key compromised from a time: retirement set back, certificate revoked, active key refused', async () => {
    const keys = await loadMinistryKeys(config, quiet);
    const [first] = keys.all;
    const since = new Date(Date.now() - 3600_000);
    await expect(markKeyCompromised(config, keys.active.kid, since)).rejects.toThrow(/is the active key: rotate first/);
    await expect(markKeyCompromised(config, first!.kid, new Date(Date.now() + 60_000))).rejects.toThrow(/in the future/);
    await expect(markKeyCompromised(config, first!.kid, new Date('not a date'))).rejects.toThrow(/not a valid date/);
    await expect(markKeyCompromised(config, 'AAAAAAAAAAA', since)).rejects.toThrow(/no key AAAAAAAAAAA/);
    const marked = await markKeyCompromised(config, first!.kid, since);
    const leaf = new X509Certificate(first!.certificateChainDer[0]!);
    expect(marked).toMatchObject({ kid: first!.kid, retiredAt: since.toISOString(), serialNumber: leaf.serialNumber.toUpperCase() });
    const after = await loadMinistryKeys(config, quiet);
    expect(after.jwks().keys.find((k) => k.kid === first!.kid)).toMatchObject({ status: 'retired', retired_at: since.toISOString() });
    expect(after.all.find((k) => k.kid === first!.kid)!.compromisedAt).toBe(since.toISOString());
    const revoked = after.revokedCertificates();
    expect(revoked).toHaveLength(1);
    expect(revoked[0]).toMatchObject({ kid: first!.kid, serialNumber: leaf.serialNumber.toUpperCase(), reason: 'keyCompromise', invalidSince: since.toISOString() });
    expect(revoked[0]!.issuer).toContain('Sceau Development CA');
    expect(new X509Certificate(revoked[0]!.certificateDer).serialNumber).toBe(leaf.serialNumber);
    // Earlier still: the retirement follows; a later time never extends it.
    const earlier = new Date(since.getTime() - 3600_000);
    expect((await markKeyCompromised(config, first!.kid, earlier)).retiredAt).toBe(earlier.toISOString());
    expect((await markKeyCompromised(config, first!.kid, since)).retiredAt).toBe(earlier.toISOString());
  });

  it('records configured keys in their own keyring: the switch to a new key retires the old one then', async () => {
    const other = await mkdtemp(path.join(os.tmpdir(), 'sceau-keys-configured-'));
    try {
      const made = async (name: string) => {
        const c = { ...config, dir: path.join(other, name) };
        const keys = await loadMinistryKeys(c, quiet);
        return {
          kid: keys.active.kid,
          keyFile: path.join(c.dir, `ministry-${keys.active.kid}.key.pem`),
          certificateFile: path.join(c.dir, `ministry-${keys.active.kid}.chain.pem`),
        };
      };
      const a = await made('a');
      const b = await made('b');
      const server = { ...config, dir: path.join(other, 'server') };
      // The development keys of the same folder are never published beside configured keys.
      await loadMinistryKeys(server, quiet);
      const first = await loadMinistryKeys({ ...server, keyFile: a.keyFile, certificateFile: a.certificateFile }, quiet);
      expect(first.mode).toBe('configured');
      expect(first.jwks().keys.map((k) => [k.kid, k.status])).toEqual([[a.kid, 'active']]);
      const t = Date.now();
      const second = await loadMinistryKeys({ ...server, keyFile: b.keyFile, certificateFile: b.certificateFile }, quiet);
      const published = second.jwks().keys;
      expect(published.map((k) => [k.kid, k.status])).toEqual([
        [a.kid, 'retired'],
        [b.kid, 'active'],
      ]);
      expect(Date.parse(published[0]!.retired_at!)).toBeGreaterThanOrEqual(t - 1000);
      // The next start keeps the recorded time.
      const third = await loadMinistryKeys({ ...server, keyFile: b.keyFile, certificateFile: b.certificateFile }, quiet);
      expect(third.jwks().keys[0]!.retired_at).toBe(published[0]!.retired_at);
      // A retired key never becomes the signing key again.
      await expect(loadMinistryKeys({ ...server, keyFile: a.keyFile, certificateFile: a.certificateFile }, quiet)).rejects.toThrow(/was retired on .*never signs again/);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
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
