import { shortKeyId, toBase64url, type EcPublicJwk, type Es256Signer } from '@sceau/credential';
import { createNodeSigner } from '@sceau/credential/node-signer';
import type { Signer } from '@sceau/pdf';
import { createDevelopmentPki } from '@sceau/pdf/dev-pki';
import { createPrivateKey, createPublicKey, sign as nodeSign, X509Certificate, type KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { issueDevelopmentCertificate } from './certificates.ts';
import { generatePkcs11Key, openPkcs11Key, type Pkcs11Config } from './pkcs11.ts';

/**
 * The ministry's signing identity: one EC P-256 key per generation of keys, used for the ES256
 * signature of the QR payload and, through its X.509 certificate, for the PAdES signature of the
 * PDF. Every key that ever signed stays published (with its certificate chain) so that diplomas
 * signed before a rotation keep verifying, with its retirement time: nothing it signs after that
 * time is valid (ADR 0136).
 *
 * Three modes: a key in a PKCS#11 token (`KEYS_PKCS11_MODULE`, production), configured files (the
 * ministry's key and certificate chain), or, by default, a development CA and key generated on
 * first start under `DATA_DIR/keys/`. In every mode `DATA_DIR/keys/keyring.json` records the keys'
 * history: certificates, creation, retirement, compromise and revoked certificates.
 */

export interface MinistryKey {
  /** Short key id (base64url of 8 bytes of the JWK thumbprint), as written in QR payloads. */
  kid: string;
  publicJwk: EcPublicJwk;
  /** Leaf first. */
  certificateChainDer: Uint8Array[];
  createdAt: string;
  /** From this time on, nothing signed with the key is valid (ISO 8601 UTC); null for the active key. */
  retiredAt: string | null;
  /** Set when the key was declared compromised: `retiredAt` was set back to this time. */
  compromisedAt: string | null;
}

/**
 * A key as published in the JWKS (assignable to the credential package's `Jwks`). A retired key
 * carries `retired_at` (ISO 8601 UTC): nothing it signed after that time is valid (ADR 0136).
 */
export type PublishedKey = EcPublicJwk & {
  kid: string;
  alg: 'ES256';
  use: 'sig';
  x5c: string[];
  status: 'active' | 'retired';
  retired_at?: string;
  /** Set when the key was declared compromised (`keys:compromise`): verifiers name it (ADR 0148). */
  compromised_at?: string;
};

/** A ministry certificate revoked by the platform (key compromise), for the CA's CRL. */
export interface RevokedCertificate {
  /** Serial number, hexadecimal, upper case, as node:crypto prints it. */
  serialNumber: string;
  /** Issuer's distinguished name, to match the CRL of the right CA. */
  issuer: string;
  /** The certificate itself (DER), so the CRL issuer can check the serial is its own. */
  certificateDer: Uint8Array;
  /** Revocation date (when it was recorded) and the invalidity date (from when the key is not trusted). */
  revokedAt: string;
  invalidSince: string;
  /** RFC 5280 CRLReason. */
  reason: 'keyCompromise' | 'superseded';
  kid: string;
}

export interface ActiveKey extends MinistryKey {
  /** The private key when it is in this process (file modes); null when a token holds it. */
  privateKey: KeyObject | null;
  es256: Es256Signer;
  /** ECDSA over SHA-256(data), DER. */
  signDer(data: Uint8Array): Promise<Uint8Array>;
  /** The PAdES signer: certificate chain and signDer. */
  pdfSigner: Signer;
}

export interface MinistryKeys {
  active: ActiveKey;
  all: MinistryKey[];
  /** The published key set: every key, active and retired, with `x5c` and retirement times. */
  jwks(): { keys: PublishedKey[] };
  /** Certificates revoked after a key compromise, for the CRL the platform publishes for its CA. */
  revokedCertificates(): RevokedCertificate[];
  mode: 'pkcs11' | 'configured' | 'development';
  /** Releases the token's sessions (PKCS#11); nothing to do otherwise. */
  close(): void;
}

interface KeyringEntry {
  kid: string;
  /** Development keys only: the private key file in the key folder; null once the key is retired (moved out or destroyed). */
  key_file?: string | null;
  certificate_file: string;
  created_at: string;
  retired_at: string | null;
  compromised_at?: string | null;
  revoked?: { serial: string; issuer: string; revoked_at: string; reason: 'keyCompromise' | 'superseded' } | null;
}
export interface Keyring {
  active: string;
  keys: KeyringEntry[];
}

export interface KeysConfig {
  dir: string;
  keyFile: string | null;
  certificateFile: string | null;
  /** Earlier keys to keep publishing in configured mode (PEM certificate files). */
  retiredCertificateFiles: string[];
  organization: string;
  /** The development CA's CRL address, named in the certificates it issues (ADR 0135). */
  crlUrl?: string;
  /** The key in a PKCS#11 token; null or absent: a file key. */
  pkcs11?: Pkcs11Config | null;
}

export class KeysError extends Error {
  override name = 'KeysError';
}

function pemBlocks(pem: string, label: string): Uint8Array[] {
  const re = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`, 'g');
  return [...pem.matchAll(re)].map((m) => new Uint8Array(Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64')));
}

function toPem(der: Uint8Array): string {
  return `-----BEGIN CERTIFICATE-----\n${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
}

function publicJwkOf(key: KeyObject): EcPublicJwk {
  const jwk = (key.type === 'public' ? key : createPublicKey(key)).export({ format: 'jwk' }) as EcPublicJwk;
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
}

function kidOf(jwk: EcPublicJwk): string {
  return toBase64url(shortKeyId(jwk));
}

/** Checks that a certificate's public key is the private key's: a mismatch would sign unverifiable PDFs. */
function assertCertificateMatches(key: KeyObject, certificateDer: Uint8Array, where: string) {
  const certificate = new X509Certificate(certificateDer);
  const expected = createPublicKey(key).export({ format: 'der', type: 'spki' });
  const actual = certificate.publicKey.export({ format: 'der', type: 'spki' });
  if (!Buffer.from(expected).equals(Buffer.from(actual))) throw new KeysError(`${where}: the certificate does not belong to the signing key`);
  if (new Date(certificate.validTo).getTime() < Date.now()) throw new KeysError(`${where}: the signing certificate expired on ${certificate.validTo}`);
}

async function writePrivate(file: string, content: string) {
  await writeFile(`${file}.tmp`, content, { mode: 0o600 });
  await rename(`${file}.tmp`, file);
  await chmod(file, 0o600);
}

/**
 * The keyring's file: `keyring.json` for the development keys, `ministry-keyring.json` for the
 * ministry's configured or token keys, so that development keys are never published next to them.
 */
export function keyringFile(config: Pick<KeysConfig, 'dir' | 'keyFile' | 'certificateFile' | 'pkcs11'>): string {
  const configured = config.pkcs11 || config.keyFile || config.certificateFile;
  return path.join(config.dir, configured ? 'ministry-keyring.json' : 'keyring.json');
}

export async function readKeyring(file: string): Promise<Keyring | null> {
  if (!existsSync(file)) return null;
  return JSON.parse(await readFile(file, 'utf8')) as Keyring;
}

async function writeKeyring(file: string, keyring: Keyring) {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(`${file}.tmp`, JSON.stringify(keyring, null, 2));
  await rename(`${file}.tmp`, file);
}

function fileKeySigners(privateKey: KeyObject, key: MinistryKey): Pick<ActiveKey, 'privateKey' | 'es256' | 'signDer'> {
  return {
    privateKey,
    es256: createNodeSigner(privateKey, shortKeyId(key.publicJwk)),
    async signDer(data: Uint8Array) {
      return new Uint8Array(nodeSign('sha256', data, { key: privateKey, dsaEncoding: 'der' }));
    },
  };
}

function withPdfSigner(key: MinistryKey, signers: Pick<ActiveKey, 'privateKey' | 'es256' | 'signDer'>): ActiveKey {
  return { ...key, ...signers, pdfSigner: { certificateChainDer: key.certificateChainDer, sign: signers.signDer } };
}

function publish(all: MinistryKey[], activeKid: string): MinistryKeys['jwks'] {
  return () => ({
    keys: all.map((k): PublishedKey => {
      const published: PublishedKey = {
        ...k.publicJwk,
        kid: k.kid,
        alg: 'ES256',
        use: 'sig',
        x5c: k.certificateChainDer.map((der) => Buffer.from(der).toString('base64')),
        status: k.kid === activeKid ? 'active' : 'retired',
      };
      if (k.kid !== activeKid && k.retiredAt) published.retired_at = new Date(k.retiredAt).toISOString();
      if (k.kid !== activeKid && k.compromisedAt) published.compromised_at = new Date(k.compromisedAt).toISOString();
      return published;
    }),
  });
}

/** The keys of the keyring's entries, public halves from their certificates. */
async function keysFromKeyring(dir: string, keyring: Keyring): Promise<{ all: MinistryKey[]; revoked: RevokedCertificate[] }> {
  const all: MinistryKey[] = [];
  const revoked: RevokedCertificate[] = [];
  for (const entry of keyring.keys) {
    const chain = pemBlocks(await readFile(path.join(dir, entry.certificate_file), 'utf8'), 'CERTIFICATE');
    if (chain.length === 0) throw new KeysError(`keyring: ${entry.certificate_file} holds no certificate`);
    const publicJwk = publicJwkOf(new X509Certificate(chain[0]!).publicKey);
    if (kidOf(publicJwk) !== entry.kid) throw new KeysError(`keyring: key ${entry.kid} does not match its certificate ${entry.certificate_file}`);
    all.push({
      kid: entry.kid,
      publicJwk,
      certificateChainDer: chain,
      createdAt: entry.created_at,
      retiredAt: entry.kid === keyring.active ? null : entry.retired_at,
      compromisedAt: entry.compromised_at ?? null,
    });
    if (entry.revoked) {
      revoked.push({
        serialNumber: entry.revoked.serial,
        issuer: entry.revoked.issuer,
        certificateDer: chain[0]!,
        revokedAt: entry.revoked.revoked_at,
        invalidSince: entry.compromised_at ?? entry.retired_at ?? entry.revoked.revoked_at,
        reason: entry.revoked.reason,
        kid: entry.kid,
      });
    }
  }
  return { all, revoked };
}

function assemble(active: ActiveKey, all: MinistryKey[], revoked: RevokedCertificate[], mode: MinistryKeys['mode'], close: () => void = () => {}): MinistryKeys {
  return { active, all, jwks: publish(all, active.kid), revokedCertificates: () => revoked.map((r) => ({ ...r })), mode, close };
}

/** Opens the ministry's keys, creating the development ones on first start. */
export async function loadMinistryKeys(config: KeysConfig, log: Pick<Logger, 'info' | 'warn'>): Promise<MinistryKeys> {
  if (config.pkcs11) return loadPkcs11Keys(config, config.pkcs11, log);
  if (config.keyFile || config.certificateFile) return loadConfiguredKeys(config, log);
  await mkdir(config.dir, { recursive: true, mode: 0o700 });
  const file = keyringFile(config);
  if (!existsSync(file)) {
    await createDevelopmentKeys(config);
    log.warn({ dir: config.dir }, 'created a DEVELOPMENT certificate authority and ministry signing key: configure the real ones for production');
  }
  const keyring = (await readKeyring(file))!;
  const { all, revoked } = await keysFromKeyring(config.dir, keyring);
  const entry = keyring.keys.find((k) => k.kid === keyring.active);
  const key = all.find((k) => k.kid === keyring.active);
  if (!entry || !key) throw new KeysError(`keyring: the active key ${keyring.active} is missing`);
  if (!entry.key_file) throw new KeysError(`keyring: the active key ${entry.kid} has no private key file`);
  const privateKey = createPrivateKey(await readFile(path.join(config.dir, entry.key_file), 'utf8'));
  assertCertificateMatches(privateKey, key.certificateChainDer[0]!, `keyring key ${entry.kid}`);
  return assemble(withPdfSigner(key, fileKeySigners(privateKey, key)), all, revoked, 'development');
}

async function createDevelopmentKeys(config: KeysConfig, ca?: { certificatePem: string; privateKeyPem: string }): Promise<KeyringEntry> {
  const pki = await createDevelopmentPki({ organization: config.organization, ...(config.crlUrl ? { crlUrl: config.crlUrl } : {}), ...(ca ? { ca } : {}) });
  if (!ca) {
    await writeFile(path.join(config.dir, 'development-ca.pem'), pki.caCertificatePem);
    await writePrivate(path.join(config.dir, 'development-ca-key.pem'), pki.caPrivateKeyPem);
  }
  const privateKey = createPrivateKey(pki.signingPrivateKeyPem);
  const kid = kidOf(publicJwkOf(privateKey));
  const entry: KeyringEntry = {
    kid,
    key_file: `ministry-${kid}.key.pem`,
    certificate_file: `ministry-${kid}.chain.pem`,
    created_at: new Date().toISOString(),
    retired_at: null,
  };
  await writePrivate(path.join(config.dir, entry.key_file!), pki.signingPrivateKeyPem);
  await writeFile(path.join(config.dir, entry.certificate_file), pki.signingCertificatePem + pki.caCertificatePem);
  // A new active key; the previous active key is retired now.
  const file = keyringFile(config);
  const keyring: Keyring = (await readKeyring(file)) ?? { active: entry.kid, keys: [] };
  const now = new Date().toISOString();
  for (const k of keyring.keys) k.retired_at ??= now;
  keyring.keys.push(entry);
  keyring.active = entry.kid;
  await writeKeyring(file, keyring);
  return entry;
}

export interface RotationResult {
  retired: string;
  active: string;
  /** Where the retired private key went: destroyed (deleted), moved to an archive, or left to the token's custodians. */
  retiredPrivateKey: { destroyed: string[] } | { archivedTo: string } | { token: true };
}

/**
 * Development mode: a new signing key and certificate from the same development CA become active;
 * the previous keys stay published as retired (retired now), so what they signed still verifies.
 * The retired private key leaves the key folder: deleted, or moved to `archiveDir` (a folder
 * outside the key folder, e.g. removable media; mode 0600), so a thief of the key folder cannot
 * sign with it.
 */
export async function rotateDevelopmentKey(config: KeysConfig, options: { archiveDir?: string } = {}): Promise<RotationResult> {
  if (config.pkcs11) throw new KeysError('PKCS#11 keys are rotated in the token: npm run keys:pkcs11 -- generate (see docs/deployment.md, section 11)');
  if (config.keyFile || config.certificateFile) throw new KeysError('configured keys are rotated by configuring the new files (and listing the old certificates as retired)');
  const archive = options.archiveDir ? path.resolve(options.archiveDir) : null;
  if (archive && (archive === path.resolve(config.dir) || archive.startsWith(`${path.resolve(config.dir)}${path.sep}`))) {
    throw new KeysError('the archive folder must be outside the key folder (a thief of one must not find the other)');
  }
  const before = await readKeyring(keyringFile(config));
  if (!before) throw new KeysError(`no keyring in ${config.dir}: start the platform once first`);
  const ca = {
    certificatePem: await readFile(path.join(config.dir, 'development-ca.pem'), 'utf8'),
    privateKeyPem: await readFile(path.join(config.dir, 'development-ca-key.pem'), 'utf8'),
  };
  const created = await createDevelopmentKeys(config, ca);
  const moved = await removeRetiredPrivateKeys(config.dir, keyringFile(config), archive);
  return { retired: before.active, active: created.kid, retiredPrivateKey: archive ? { archivedTo: archive } : { destroyed: moved } };
}

/** Every retired key's private file out of the key folder (into `archive`, or deleted); the keyring forgets the file. */
async function removeRetiredPrivateKeys(dir: string, file: string, archive: string | null): Promise<string[]> {
  const keyring = (await readKeyring(file))!;
  const gone: string[] = [];
  for (const entry of keyring.keys) {
    if (entry.kid === keyring.active || !entry.key_file) continue;
    const keyFile = path.join(dir, entry.key_file);
    if (existsSync(keyFile)) {
      if (archive) {
        await mkdir(archive, { recursive: true, mode: 0o700 });
        const target = path.join(archive, entry.key_file);
        await copyFile(keyFile, target);
        await chmod(target, 0o600);
      }
      // Overwritten before unlinking (a plain delete leaves the bytes on the disk's free blocks for a while).
      const size = (await readFile(keyFile)).length;
      await writeFile(keyFile, Buffer.alloc(size));
      await rm(keyFile);
      gone.push(entry.key_file);
    }
    entry.key_file = null;
  }
  await writeKeyring(file, keyring);
  return gone;
}

/**
 * Retires a key early after a compromise (ADR 0136): its retirement time is set back to `since`
 * (nothing it signed from then on is valid), and its certificate is recorded as revoked (reason
 * keyCompromise, invalid since `since`) for the CA's CRL. The active key cannot be declared
 * compromised: rotate first (it would leave the platform without a key). Returns the entry.
 */
export async function markKeyCompromised(
  config: Pick<KeysConfig, 'dir' | 'keyFile' | 'certificateFile' | 'pkcs11'>,
  kid: string,
  since: Date,
  now = new Date(),
): Promise<{ kid: string; retiredAt: string; serialNumber: string; certificateDer: Uint8Array }> {
  const { dir } = config;
  const file = keyringFile(config);
  if (Number.isNaN(since.getTime())) throw new KeysError('the compromise time is not a valid date (ISO 8601, e.g. 2026-11-20T08:00:00Z)');
  if (since.getTime() > now.getTime()) throw new KeysError('the compromise time is in the future');
  const keyring = await readKeyring(file);
  if (!keyring) throw new KeysError(`no keyring ${file}`);
  const entry = keyring.keys.find((k) => k.kid === kid);
  if (!entry) throw new KeysError(`no key ${kid} in the keyring (keys: ${keyring.keys.map((k) => k.kid).join(', ')})`);
  if (kid === keyring.active)
    throw new KeysError(`key ${kid} is the active key: rotate first (npm run keys:rotate, or a new configured or token key), then declare it compromised`);
  const retiredAt = entry.retired_at ? new Date(Math.min(Date.parse(entry.retired_at), since.getTime())) : since;
  entry.retired_at = retiredAt.toISOString();
  entry.compromised_at = since.toISOString();
  const leafDer = pemBlocks(await readFile(path.join(dir, entry.certificate_file), 'utf8'), 'CERTIFICATE')[0]!;
  const leaf = new X509Certificate(leafDer);
  entry.revoked ??= { serial: leaf.serialNumber.toUpperCase(), issuer: leaf.issuer.replace(/\n/g, ', '), revoked_at: now.toISOString(), reason: 'keyCompromise' };
  entry.revoked.reason = 'keyCompromise';
  await writeKeyring(file, keyring);
  return { kid, retiredAt: entry.retired_at, serialNumber: entry.revoked.serial, certificateDer: leafDer };
}

/**
 * Records a configured or token key as the active one when the keyring does not know it yet (the
 * first start after a rotation): its chain is copied into the key folder, the previous active key
 * is retired now. Retired certificate files the keyring does not know are added as retired now too.
 */
async function registerConfiguredKey(config: KeysConfig, active: { kid: string; chain: Uint8Array[] }, log?: Pick<Logger, 'info' | 'warn'>): Promise<Keyring> {
  const file = keyringFile(config);
  let keyring = await readKeyring(file);
  let changed = false;
  const now = new Date().toISOString();
  const record = async (kid: string, chain: Uint8Array[]) => {
    const entry: KeyringEntry = { kid, certificate_file: `ministry-${kid}.chain.pem`, created_at: now, retired_at: null };
    await mkdir(config.dir, { recursive: true, mode: 0o700 });
    await writeFile(path.join(config.dir, entry.certificate_file), chain.map(toPem).join(''));
    return entry;
  };
  if (!keyring) keyring = { active: active.kid, keys: [] };
  for (const file of config.retiredCertificateFiles) {
    const chain = pemBlocks(await readFile(file, 'utf8'), 'CERTIFICATE');
    if (chain.length === 0) throw new KeysError(`MINISTRY_RETIRED_CERTIFICATE_FILES: ${file} holds no certificate`);
    const kid = kidOf(publicJwkOf(new X509Certificate(chain[0]!).publicKey));
    if (kid === active.kid || keyring.keys.some((k) => k.kid === kid)) continue;
    const entry = await record(kid, chain);
    entry.created_at = new Date(new X509Certificate(chain[0]!).validFrom).toISOString();
    entry.retired_at = now;
    keyring.keys.unshift(entry);
    changed = true;
    log?.warn(
      { kid, retiredAt: now },
      'a retired certificate unknown to the keyring was recorded as retired now: set its real retirement time with npm run keys:compromise if it is earlier',
    );
  }
  if (!keyring.keys.some((k) => k.kid === active.kid)) {
    for (const k of keyring.keys) k.retired_at ??= now;
    keyring.keys.push(await record(active.kid, active.chain));
    changed = true;
  }
  if (keyring.active !== active.kid) {
    const entry = keyring.keys.find((k) => k.kid === active.kid)!;
    if (entry.retired_at) throw new KeysError(`the configured key ${active.kid} was retired on ${entry.retired_at}: a retired key never signs again`);
    for (const k of keyring.keys) if (k.kid !== active.kid) k.retired_at ??= now;
    keyring.active = active.kid;
    changed = true;
  }
  if (changed) await writeKeyring(file, keyring);
  return keyring;
}

async function loadConfiguredKeys(config: KeysConfig, log?: Pick<Logger, 'info' | 'warn'>): Promise<MinistryKeys> {
  if (!config.keyFile || !config.certificateFile) throw new KeysError('MINISTRY_KEY_FILE and MINISTRY_CERTIFICATE_FILE go together');
  const privateKey = createPrivateKey(await readFile(config.keyFile, 'utf8'));
  if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new KeysError('MINISTRY_KEY_FILE: the ministry key must be an EC P-256 key (ES256)');
  }
  const chain = pemBlocks(await readFile(config.certificateFile, 'utf8'), 'CERTIFICATE');
  if (chain.length === 0) throw new KeysError('MINISTRY_CERTIFICATE_FILE holds no certificate');
  assertCertificateMatches(privateKey, chain[0]!, 'MINISTRY_CERTIFICATE_FILE');
  const kid = kidOf(publicJwkOf(privateKey));
  const keyring = await registerConfiguredKey(config, { kid, chain }, log);
  const { all, revoked } = await keysFromKeyring(config.dir, keyring);
  const key = all.find((k) => k.kid === kid)!;
  return assemble(withPdfSigner({ ...key, certificateChainDer: chain }, fileKeySigners(privateKey, key)), all, revoked, 'configured');
}

async function loadPkcs11Keys(config: KeysConfig, pkcs11: Pkcs11Config, log: Pick<Logger, 'info' | 'warn'>): Promise<MinistryKeys> {
  const token = await openPkcs11Key(pkcs11, { certificateFile: config.certificateFile });
  try {
    const publicJwk = publicJwkOf(token.publicKey);
    const kid = kidOf(publicJwk);
    const keyring = await registerConfiguredKey(config, { kid, chain: token.certificateChainDer }, log);
    const { all, revoked } = await keysFromKeyring(config.dir, keyring);
    const key = { ...all.find((k) => k.kid === kid)!, certificateChainDer: token.certificateChainDer };
    log.info({ kid, token: token.description }, 'ministry key: signing through PKCS#11');
    const active = withPdfSigner(key, {
      privateKey: null,
      es256: { kid: shortKeyId(publicJwk), sign: token.signRaw },
      signDer: token.signDer,
    });
    return assemble(active, all, revoked, 'pkcs11', token.close);
  } catch (error) {
    token.close();
    throw error;
  }
}

/**
 * PKCS#11 rotation, development: a new key generated in the token, certified by the development
 * CA, its chain written to `chainFile`. Production asks the ministry's CA instead (a certificate
 * request: npm run keys:pkcs11 -- generate --request).
 */
export async function generateDevelopmentTokenKey(config: KeysConfig, pkcs11: Pkcs11Config, chainFile: string): Promise<string> {
  if (!existsSync(path.join(config.dir, 'development-ca.pem'))) {
    const pki = await createDevelopmentPki({ organization: config.organization, ...(config.crlUrl ? { crlUrl: config.crlUrl } : {}) });
    await mkdir(config.dir, { recursive: true, mode: 0o700 });
    await writeFile(path.join(config.dir, 'development-ca.pem'), pki.caCertificatePem);
    await writePrivate(path.join(config.dir, 'development-ca-key.pem'), pki.caPrivateKeyPem);
  }
  const ca = {
    certificatePem: await readFile(path.join(config.dir, 'development-ca.pem'), 'utf8'),
    privateKeyPem: await readFile(path.join(config.dir, 'development-ca-key.pem'), 'utf8'),
  };
  const { publicKey } = await generatePkcs11Key(pkcs11);
  const leaf = await issueDevelopmentCertificate({ ca, publicKey, organization: config.organization });
  await writeFile(chainFile, leaf + ca.certificatePem);
  return kidOf(publicJwkOf(publicKey));
}
