import { shortKeyId, toBase64url, type EcPublicJwk, type Es256Signer } from '@sceau/credential';
import { createNodeSigner } from '@sceau/credential/node-signer';
import { createDevelopmentPki } from '@sceau/pdf/dev-pki';
import { createPrivateKey, createPublicKey, sign as nodeSign, X509Certificate, type KeyObject } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';

/**
 * The ministry's signing identity: one EC P-256 key per generation of keys, used for the ES256
 * signature of the QR payload and, through its X.509 certificate, for the PAdES signature of the
 * PDF. Every key that ever signed stays published (with its certificate chain) so that diplomas
 * signed before a rotation keep verifying.
 *
 * Two modes: configured files (the ministry's real key and certificate chain), or, by default, a
 * development CA and key generated on first start under `DATA_DIR/keys/`.
 */

export interface MinistryKey {
  /** Short key id (base64url of 8 bytes of the JWK thumbprint), as written in QR payloads. */
  kid: string;
  publicJwk: EcPublicJwk;
  /** Leaf first. */
  certificateChainDer: Uint8Array[];
  createdAt: string;
  retiredAt: string | null;
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
};

export interface MinistryKeys {
  active: MinistryKey & { privateKey: KeyObject; es256: Es256Signer; signDer(data: Uint8Array): Promise<Uint8Array> };
  all: MinistryKey[];
  /** The published key set: every key, active and retired, with `x5c`. */
  jwks(): { keys: PublishedKey[] };
  mode: 'configured' | 'development';
}

interface KeyringEntry {
  kid: string;
  key_file: string;
  certificate_file: string;
  created_at: string;
  retired_at: string | null;
}
interface Keyring {
  active: string;
  keys: KeyringEntry[];
}

function pemBlocks(pem: string, label: string): Uint8Array[] {
  const re = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`, 'g');
  return [...pem.matchAll(re)].map((m) => new Uint8Array(Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64')));
}

function publicJwkOf(key: KeyObject): EcPublicJwk {
  const jwk = createPublicKey(key).export({ format: 'jwk' }) as EcPublicJwk;
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
  if (!Buffer.from(expected).equals(Buffer.from(actual))) throw new Error(`${where}: the certificate does not belong to the signing key`);
  if (new Date(certificate.validTo).getTime() < Date.now()) throw new Error(`${where}: the signing certificate expired on ${certificate.validTo}`);
}

async function writePrivate(file: string, content: string) {
  await writeFile(`${file}.tmp`, content, { mode: 0o600 });
  await rename(`${file}.tmp`, file);
  await chmod(file, 0o600);
}

async function writeKeyring(dir: string, keyring: Keyring) {
  const file = path.join(dir, 'keyring.json');
  await writeFile(`${file}.tmp`, JSON.stringify(keyring, null, 2));
  await rename(`${file}.tmp`, file);
}

function activeFrom(privateKey: KeyObject, entry: MinistryKey): MinistryKeys['active'] {
  return {
    ...entry,
    privateKey,
    es256: createNodeSigner(privateKey, shortKeyId(entry.publicJwk)),
    async signDer(data: Uint8Array) {
      return new Uint8Array(nodeSign('sha256', data, { key: privateKey, dsaEncoding: 'der' }));
    },
  };
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
      return published;
    }),
  });
}

export interface KeysConfig {
  dir: string;
  keyFile: string | null;
  certificateFile: string | null;
  /** Earlier keys to keep publishing in configured mode (PEM certificate files). */
  retiredCertificateFiles: string[];
  organization: string;
}

/** Opens the ministry's keys, creating the development ones on first start. */
export async function loadMinistryKeys(config: KeysConfig, log: Pick<Logger, 'info' | 'warn'>): Promise<MinistryKeys> {
  if (config.keyFile || config.certificateFile) return loadConfiguredKeys(config);
  await mkdir(config.dir, { recursive: true, mode: 0o700 });
  const keyringFile = path.join(config.dir, 'keyring.json');
  if (!existsSync(keyringFile)) {
    await createDevelopmentKeys(config);
    log.warn({ dir: config.dir }, 'created a DEVELOPMENT certificate authority and ministry signing key: configure the real ones for production');
  }
  const keyring = JSON.parse(await readFile(keyringFile, 'utf8')) as Keyring;
  const all: MinistryKey[] = [];
  let active: MinistryKeys['active'] | null = null;
  for (const entry of keyring.keys) {
    const privateKey = createPrivateKey(await readFile(path.join(config.dir, entry.key_file), 'utf8'));
    const chain = pemBlocks(await readFile(path.join(config.dir, entry.certificate_file), 'utf8'), 'CERTIFICATE');
    const key: MinistryKey = { kid: entry.kid, publicJwk: publicJwkOf(privateKey), certificateChainDer: chain, createdAt: entry.created_at, retiredAt: entry.retired_at };
    if (kidOf(key.publicJwk) !== entry.kid) throw new Error(`keyring: key ${entry.kid} does not match its file`);
    if (entry.kid === keyring.active) {
      assertCertificateMatches(privateKey, chain[0]!, `keyring key ${entry.kid}`);
      active = activeFrom(privateKey, key);
    }
    all.push(key);
  }
  if (!active) throw new Error(`keyring: the active key ${keyring.active} is missing`);
  return { active, all, jwks: publish(all, active.kid), mode: 'development' };
}

async function createDevelopmentKeys(config: KeysConfig, ca?: { certificatePem: string; privateKeyPem: string }): Promise<KeyringEntry> {
  const pki = await createDevelopmentPki({ organization: config.organization, ...(ca ? { ca } : {}) });
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
  await writePrivate(path.join(config.dir, entry.key_file), pki.signingPrivateKeyPem);
  await writeFile(path.join(config.dir, entry.certificate_file), pki.signingCertificatePem + pki.caCertificatePem);
  const keyringFile = path.join(config.dir, 'keyring.json');
  const keyring: Keyring = existsSync(keyringFile) ? JSON.parse(await readFile(keyringFile, 'utf8')) : { active: kid, keys: [] };
  const now = new Date().toISOString();
  for (const k of keyring.keys) k.retired_at ??= now;
  keyring.keys.push(entry);
  keyring.active = kid;
  await writeKeyring(config.dir, keyring);
  return entry;
}

/**
 * Development mode: a new signing key and certificate from the same development CA become active;
 * the previous keys stay published as retired, so what they signed still verifies.
 */
export async function rotateDevelopmentKey(config: KeysConfig): Promise<string> {
  if (config.keyFile || config.certificateFile) throw new Error('configured keys are rotated by configuring the new files (and listing the old certificates as retired)');
  const ca = {
    certificatePem: await readFile(path.join(config.dir, 'development-ca.pem'), 'utf8'),
    privateKeyPem: await readFile(path.join(config.dir, 'development-ca-key.pem'), 'utf8'),
  };
  return (await createDevelopmentKeys(config, ca)).kid;
}

async function loadConfiguredKeys(config: KeysConfig): Promise<MinistryKeys> {
  if (!config.keyFile || !config.certificateFile) throw new Error('MINISTRY_KEY_FILE and MINISTRY_CERTIFICATE_FILE go together');
  const privateKey = createPrivateKey(await readFile(config.keyFile, 'utf8'));
  if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error('MINISTRY_KEY_FILE: the ministry key must be an EC P-256 key (ES256)');
  }
  const chain = pemBlocks(await readFile(config.certificateFile, 'utf8'), 'CERTIFICATE');
  if (chain.length === 0) throw new Error('MINISTRY_CERTIFICATE_FILE holds no certificate');
  assertCertificateMatches(privateKey, chain[0]!, 'MINISTRY_CERTIFICATE_FILE');
  const publicJwk = publicJwkOf(privateKey);
  const activeKey: MinistryKey = {
    kid: kidOf(publicJwk),
    publicJwk,
    certificateChainDer: chain,
    createdAt: new X509Certificate(chain[0]!).validFrom,
    retiredAt: null,
  };
  const retired: MinistryKey[] = [];
  for (const file of config.retiredCertificateFiles) {
    const retiredChain = pemBlocks(await readFile(file, 'utf8'), 'CERTIFICATE');
    const cert = new X509Certificate(retiredChain[0]!);
    const jwk = publicJwkOf(cert.publicKey);
    retired.push({ kid: kidOf(jwk), publicJwk: jwk, certificateChainDer: retiredChain, createdAt: cert.validFrom, retiredAt: cert.validTo });
  }
  const all = [activeKey, ...retired];
  return { active: activeFrom(privateKey, activeKey), all, jwks: publish(all, activeKey.kid), mode: 'configured' };
}
