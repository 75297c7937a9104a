import { createHash, createPublicKey, verify, X509Certificate, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import 'reflect-metadata';
import type * as Pkcs11Module from 'pkcs11js';
import { sequence, unsignedInteger } from '@sceau/pdf/der';

/**
 * The ministry's key held in a hardware module (an HSM, a smart card, SoftHSM in tests), reached
 * through its PKCS#11 library with PeculiarVentures' `pkcs11js` binding (ADR 0136). The private key
 * never leaves the token: the platform sends it SHA-256 digests and gets ECDSA P-256 signatures back.
 *
 * The binding (a native addon) is loaded only when a module is configured, so the file key's
 * processes never load it.
 */

export interface Pkcs11Config {
  /** Path of the token's PKCS#11 library (`KEYS_PKCS11_MODULE`), e.g. /usr/lib/softhsm/libsofthsm2.so. */
  module: string;
  /** The token, by label (`KEYS_PKCS11_TOKEN_LABEL`) or by slot id (`KEYS_PKCS11_SLOT`); one of the two. */
  tokenLabel: string | null;
  slot: number | null;
  /** The user PIN, from the environment (`KEYS_PKCS11_PIN`) or the first line of a file (`KEYS_PKCS11_PIN_FILE`). */
  pin: string | null;
  pinFile: string | null;
  /** The private key, by label (`KEYS_PKCS11_KEY_LABEL`) and/or id in hex (`KEYS_PKCS11_KEY_ID`). */
  keyLabel: string | null;
  keyId: string | null;
  /** Sessions opened on the token, each signing one digest at a time (`KEYS_PKCS11_SESSIONS`, default 2). */
  sessions: number;
}

export interface Pkcs11Key {
  /** The public key, read from the leaf certificate; every signature at opening is checked against it. */
  publicKey: KeyObject;
  /** Leaf first: from the certificate file when one is given, else the certificates stored on the token. */
  certificateChainDer: Uint8Array[];
  /** ECDSA P-256 over SHA-256(data), as r‖s (64 bytes, IEEE P1363: what JWS and COSE carry). */
  signRaw(data: Uint8Array): Promise<Uint8Array>;
  /** The same signature, DER-encoded (what a CMS SignerInfo carries). */
  signDer(data: Uint8Array): Promise<Uint8Array>;
  /** Logs out, closes the sessions and finalises the library. */
  close(): void;
  /** A short description for logs: library, token, key (never the PIN). */
  description: string;
}

/** A configuration or token problem, with what to fix. */
export class Pkcs11ConfigError extends Error {
  override name = 'Pkcs11ConfigError';
}

type Pkcs11Lib = typeof Pkcs11Module;
type Handle = Buffer;

let libraryPromise: Promise<Pkcs11Lib> | null = null;
function loadBinding(): Promise<Pkcs11Lib> {
  libraryPromise ??= import('pkcs11js').then((m) => ((m as { default?: Pkcs11Lib }).default ?? m) as Pkcs11Lib);
  return libraryPromise;
}

/** The PIN: the environment's, else the first line of the PIN file (a secret store's mounted file). */
export async function readPin(config: Pick<Pkcs11Config, 'pin' | 'pinFile'>): Promise<string> {
  if (config.pin) return config.pin;
  if (config.pinFile) {
    const pin = (await readFile(config.pinFile, 'utf8')).split(/\r?\n/)[0]!.trim();
    if (!pin) throw new Pkcs11ConfigError(`KEYS_PKCS11_PIN_FILE ${config.pinFile} is empty`);
    return pin;
  }
  throw new Pkcs11ConfigError('the token needs a PIN: set KEYS_PKCS11_PIN or KEYS_PKCS11_PIN_FILE');
}

function pemBlocks(pem: string): Uint8Array[] {
  return [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map((m) => new Uint8Array(Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64')));
}

/** ECDSA r‖s (P1363) to the DER SEQUENCE { r INTEGER, s INTEGER } (at most 72 bytes for P-256). */
export function p1363ToDer(signature: Uint8Array): Uint8Array {
  if (signature.length !== 64) throw new Error(`a P-256 signature is 64 bytes, the token returned ${signature.length}`);
  return sequence(unsignedInteger(signature.subarray(0, 32)), unsignedInteger(signature.subarray(32)));
}

function trimmed(label: Buffer | string): string {
  return (typeof label === 'string' ? label : label.toString('utf8')).replace(/[\s\0]+$/, '');
}

/** Return codes after which a new session (and login) may succeed: the token restarted, the session was dropped. */
const RECOVERABLE = ['CKR_SESSION_HANDLE_INVALID', 'CKR_SESSION_CLOSED', 'CKR_USER_NOT_LOGGED_IN', 'CKR_DEVICE_REMOVED', 'CKR_TOKEN_NOT_PRESENT', 'CKR_DEVICE_ERROR'];

/**
 * Opens the token, logs in, finds the private key and its certificate chain, and checks with one
 * signature that the key and the certificate belong together. Throws Pkcs11ConfigError naming what
 * to fix.
 */
export async function openPkcs11Key(config: Pkcs11Config, options: { certificateFile?: string | null } = {}): Promise<Pkcs11Key> {
  if (!config.keyLabel && !config.keyId) throw new Pkcs11ConfigError('name the key in the token: set KEYS_PKCS11_KEY_LABEL and/or KEYS_PKCS11_KEY_ID');
  if (config.keyId && !/^(?:[0-9a-fA-F]{2})+$/.test(config.keyId)) throw new Pkcs11ConfigError('KEYS_PKCS11_KEY_ID is the key id in hexadecimal (e.g. 01 or a1b2c3)');
  const pin = await readPin(config);
  const lib = await loadBinding();
  const { p11, release: releaseLibrary } = openLibrary(lib, config.module);
  const sessions: Handle[] = [];
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    for (const session of sessions.splice(0)) {
      try {
        p11.C_CloseSession(session);
      } catch {
        // Already closed by the token.
      }
    }
    releaseLibrary();
  };
  try {
    const slot = findSlot(lib, p11, config);
    const tokenLabel = trimmed(p11.C_GetTokenInfo(slot).label);
    const openSession = (): Handle => {
      const session = p11.C_OpenSession(slot, lib.CKF_SERIAL_SESSION | lib.CKF_RW_SESSION);
      try {
        p11.C_Login(session, lib.CKU_USER, pin);
      } catch (error) {
        // Logged in already through another session of this application: the login is per token.
        if (!(error instanceof lib.Pkcs11Error) || error.code !== lib.CKR_USER_ALREADY_LOGGED_IN) {
          p11.C_CloseSession(session);
          if (error instanceof lib.Pkcs11Error && (error.code === lib.CKR_PIN_INCORRECT || error.code === lib.CKR_PIN_LEN_RANGE)) {
            throw new Pkcs11ConfigError(`the token "${tokenLabel}" refused the PIN (KEYS_PKCS11_PIN / KEYS_PKCS11_PIN_FILE)`);
          }
          throw error;
        }
      }
      return session;
    };
    const first = openSession();
    sessions.push(first);

    const keyTemplate: Pkcs11Module.Template = [
      { type: lib.CKA_CLASS, value: lib.CKO_PRIVATE_KEY },
      { type: lib.CKA_KEY_TYPE, value: lib.CKK_EC },
    ];
    if (config.keyLabel) keyTemplate.push({ type: lib.CKA_LABEL, value: config.keyLabel });
    if (config.keyId) keyTemplate.push({ type: lib.CKA_ID, value: Buffer.from(config.keyId, 'hex') });
    const keys = findAll(p11, first, keyTemplate);
    const named = [config.keyLabel && `label "${config.keyLabel}"`, config.keyId && `id ${config.keyId}`].filter(Boolean).join(' and ');
    if (keys.length === 0) throw new Pkcs11ConfigError(`the token "${tokenLabel}" holds no EC private key with ${named}`);
    if (keys.length > 1) throw new Pkcs11ConfigError(`the token "${tokenLabel}" holds ${keys.length} EC private keys with ${named}: name one (KEYS_PKCS11_KEY_ID)`);
    const key = keys[0]!;
    const [idAttribute] = p11.C_GetAttributeValue(first, key, [{ type: lib.CKA_ID }]);
    const keyIdBytes = idAttribute?.value ?? Buffer.alloc(0);

    const chain = options.certificateFile ? pemBlocks(await readFile(options.certificateFile, 'utf8')) : chainFromToken(lib, p11, first, keyIdBytes, config.keyLabel);
    if (chain.length === 0) {
      throw new Pkcs11ConfigError(
        options.certificateFile
          ? `MINISTRY_CERTIFICATE_FILE ${options.certificateFile} holds no certificate`
          : `the token "${tokenLabel}" holds no certificate for the key (same CKA_ID or label): store it there, or set MINISTRY_CERTIFICATE_FILE`,
      );
    }
    const leaf = new X509Certificate(chain[0]!);
    const publicKey = leaf.publicKey;
    if (publicKey.asymmetricKeyType !== 'ec' || publicKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      throw new Pkcs11ConfigError('the ministry key must be an EC P-256 key (ES256): the certificate holds another kind');
    }

    // Sessions: each signs one digest at a time; callers queue for a free one.
    const size = Math.max(1, Math.min(16, config.sessions));
    const free: Handle[] = [first];
    const waiting: ((session: Handle) => void)[] = [];
    const acquire = async (): Promise<Handle> => {
      const session = free.pop();
      if (session) return session;
      if (sessions.length < size) {
        const opened = openSession();
        sessions.push(opened);
        return opened;
      }
      return new Promise<Handle>((resolve) => waiting.push(resolve));
    };
    const release = (session: Handle) => {
      const next = waiting.shift();
      if (next) next(session);
      else free.push(session);
    };
    const codeName = (code: number) => Object.keys(lib).find((name) => name.startsWith('CKR_') && (lib as unknown as Record<string, unknown>)[name] === code);
    const signOnce = async (session: Handle, digest: Buffer): Promise<Buffer> => {
      p11.C_SignInit(session, { mechanism: lib.CKM_ECDSA }, key);
      return p11.C_SignAsync(session, digest, Buffer.alloc(132));
    };
    const signRaw = async (data: Uint8Array): Promise<Uint8Array> => {
      const digest = createHash('sha256').update(data).digest();
      let session = await acquire();
      try {
        try {
          return new Uint8Array(await signOnce(session, digest));
        } catch (error) {
          const name = error instanceof lib.Pkcs11Error ? codeName(error.code) : undefined;
          if (!name || !RECOVERABLE.includes(name)) throw error;
          // The token dropped the session (restarted, unplugged and back): one new session, one more try.
          sessions.splice(sessions.indexOf(session), 1);
          session = openSession();
          sessions.push(session);
          return new Uint8Array(await signOnce(session, digest));
        }
      } finally {
        release(session);
      }
    };

    // The key and the certificate belong together: a mismatch would sign PDFs and QR codes no one can verify.
    const probe = new TextEncoder().encode(`sceau pkcs11 probe ${Date.now()}`);
    const signature = await signRaw(probe);
    if (!verify('sha256', probe, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature)) {
      throw new Pkcs11ConfigError(`the certificate (${leaf.subject.replace(/\n/g, ', ')}) does not belong to the token's key ${named}`);
    }
    if (new Date(leaf.validTo).getTime() < Date.now()) throw new Pkcs11ConfigError(`the signing certificate expired on ${leaf.validTo}`);

    return {
      publicKey: createPublicKey(publicKey.export({ format: 'pem', type: 'spki' })),
      certificateChainDer: chain,
      signRaw,
      signDer: async (data) => p1363ToDer(await signRaw(data)),
      close,
      description: `PKCS#11 ${config.module}, token "${tokenLabel}", key ${named}`,
    };
  } catch (error) {
    close();
    throw error;
  }
}

/** One loaded, initialised library per path in this process, finalised when its last user closes. */
const libraries = new Map<string, { p11: Pkcs11Module.PKCS11; users: number }>();
function openLibrary(lib: Pkcs11Lib, module: string): { p11: Pkcs11Module.PKCS11; release(): void } {
  let entry = libraries.get(module);
  if (!entry) {
    const p11 = new lib.PKCS11();
    try {
      p11.load(module);
    } catch (error) {
      throw new Pkcs11ConfigError(`KEYS_PKCS11_MODULE ${module} could not be loaded: ${(error as Error).message}`);
    }
    try {
      // Signatures run on libuv's threads (C_SignAsync): the library must lock for itself.
      p11.C_Initialize({ flags: lib.CKF_OS_LOCKING_OK });
    } catch (error) {
      if (!(error instanceof lib.Pkcs11Error) || error.code !== lib.CKR_CRYPTOKI_ALREADY_INITIALIZED) throw error;
    }
    entry = { p11, users: 0 };
    libraries.set(module, entry);
  }
  entry.users++;
  const opened = entry;
  let released = false;
  return {
    p11: opened.p11,
    release() {
      if (released) return;
      released = true;
      if (--opened.users > 0) return;
      libraries.delete(module);
      try {
        opened.p11.C_Finalize();
      } catch {
        // Finalised already.
      }
      opened.p11.close();
    },
  };
}

function findSlot(lib: Pkcs11Lib, p11: Pkcs11Module.PKCS11, config: Pkcs11Config): Handle {
  const slots = p11.C_GetSlotList(true);
  if (config.slot !== null) {
    const slot = slots.find((s) => s.readUIntLE(0, Math.min(6, s.length)) === config.slot);
    if (!slot) throw new Pkcs11ConfigError(`KEYS_PKCS11_SLOT ${config.slot}: no token in that slot`);
    return slot;
  }
  if (!config.tokenLabel) throw new Pkcs11ConfigError('name the token: set KEYS_PKCS11_TOKEN_LABEL (or KEYS_PKCS11_SLOT)');
  const matching = slots.filter((s) => {
    const info = p11.C_GetTokenInfo(s);
    return trimmed(info.label) === config.tokenLabel && info.flags & lib.CKF_TOKEN_INITIALIZED;
  });
  if (matching.length === 0) throw new Pkcs11ConfigError(`no initialised token labelled "${config.tokenLabel}" (KEYS_PKCS11_TOKEN_LABEL) in ${config.module}`);
  if (matching.length > 1) throw new Pkcs11ConfigError(`${matching.length} tokens are labelled "${config.tokenLabel}": name the slot (KEYS_PKCS11_SLOT)`);
  return matching[0]!;
}

function findAll(p11: Pkcs11Module.PKCS11, session: Handle, template: Pkcs11Module.Template): Handle[] {
  p11.C_FindObjectsInit(session, template);
  try {
    return p11.C_FindObjects(session, 100);
  } finally {
    p11.C_FindObjectsFinal(session);
  }
}

/** The key's certificate (same CKA_ID, else same label) then its issuers among the token's certificates. */
function chainFromToken(lib: Pkcs11Lib, p11: Pkcs11Module.PKCS11, session: Handle, keyId: Buffer, keyLabel: string | null): Uint8Array[] {
  const certificates = findAll(p11, session, [{ type: lib.CKA_CLASS, value: lib.CKO_CERTIFICATE }]).map((handle) => {
    const [id, label, value] = p11.C_GetAttributeValue(session, handle, [{ type: lib.CKA_ID }, { type: lib.CKA_LABEL }, { type: lib.CKA_VALUE }]);
    return { id: id?.value ?? Buffer.alloc(0), label: trimmed(label?.value ?? ''), der: new Uint8Array(value!.value!), x509: new X509Certificate(value!.value!) };
  });
  const leaf = (keyId.length > 0 ? certificates.find((c) => c.id.equals(keyId)) : undefined) ?? (keyLabel ? certificates.find((c) => c.label === keyLabel) : undefined);
  if (!leaf) return [];
  const chain = [leaf];
  for (let current = leaf; chain.length < 10; ) {
    const issuer = certificates.find((c) => !chain.includes(c) && current.x509.checkIssued(c.x509) && current.x509.verify(c.x509.publicKey));
    if (!issuer) break;
    chain.push(issuer);
    current = issuer;
  }
  return chain.map((c) => c.der);
}

/** DER of the OID prime256v1 (1.2.840.10045.3.1.7), the CKA_EC_PARAMS of a P-256 key. */
const P256_PARAMS = Buffer.from('06082a8648ce3d030107', 'hex');

/** Runs `action` in a logged-in read-write session of the configured token (administration commands). */
async function withSession<T>(config: Pkcs11Config, action: (lib: Pkcs11Lib, p11: Pkcs11Module.PKCS11, session: Handle) => T | Promise<T>): Promise<T> {
  const pin = await readPin(config);
  const lib = await loadBinding();
  const { p11, release } = openLibrary(lib, config.module);
  try {
    const slot = findSlot(lib, p11, config);
    const session = p11.C_OpenSession(slot, lib.CKF_SERIAL_SESSION | lib.CKF_RW_SESSION);
    try {
      try {
        p11.C_Login(session, lib.CKU_USER, pin);
      } catch (error) {
        if (!(error instanceof lib.Pkcs11Error) || error.code !== lib.CKR_USER_ALREADY_LOGGED_IN) throw error;
      }
      return await action(lib, p11, session);
    } finally {
      p11.C_CloseSession(session);
    }
  } finally {
    release();
  }
}

function keyTemplate(lib: Pkcs11Lib, objectClass: number, config: Pick<Pkcs11Config, 'keyLabel' | 'keyId'>): Pkcs11Module.Template {
  const template: Pkcs11Module.Template = [{ type: lib.CKA_CLASS, value: objectClass }];
  if (config.keyLabel) template.push({ type: lib.CKA_LABEL, value: config.keyLabel });
  if (config.keyId) template.push({ type: lib.CKA_ID, value: Buffer.from(config.keyId, 'hex') });
  return template;
}

/** The public key from a CKA_EC_POINT (an OCTET STRING around 04‖x‖y, or the bare point as some tokens give it). */
function publicKeyFromPoint(point: Buffer): KeyObject {
  const raw = point.length === 67 && point[0] === 0x04 && point[1] === 0x41 ? point.subarray(2) : point;
  if (raw.length !== 65 || raw[0] !== 0x04) throw new Error('the token returned an EC point that is not an uncompressed P-256 point');
  return createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') }, format: 'jwk' });
}

/**
 * Generates a P-256 key pair inside the token (rotation, ADR 0136): the private key is sensitive and
 * not extractable, so it never exists outside the module. Refuses a label or id already in use.
 */
export async function generatePkcs11Key(config: Pkcs11Config): Promise<{ publicKey: KeyObject }> {
  if (!config.keyLabel || !config.keyId) throw new Pkcs11ConfigError('a new key needs both a label and an id (hex)');
  return withSession(config, (lib, p11, session) => {
    for (const [what, template] of [
      [
        'label',
        [
          { type: lib.CKA_CLASS, value: lib.CKO_PRIVATE_KEY },
          { type: lib.CKA_LABEL, value: config.keyLabel! },
        ],
      ],
      [
        'id',
        [
          { type: lib.CKA_CLASS, value: lib.CKO_PRIVATE_KEY },
          { type: lib.CKA_ID, value: Buffer.from(config.keyId!, 'hex') },
        ],
      ],
    ] as const) {
      if (findAll(p11, session, [...template]).length > 0) throw new Pkcs11ConfigError(`the token already holds a private key with this ${what}: choose another`);
    }
    const common = [
      { type: lib.CKA_TOKEN, value: true },
      { type: lib.CKA_LABEL, value: config.keyLabel! },
      { type: lib.CKA_ID, value: Buffer.from(config.keyId!, 'hex') },
    ];
    const pair = p11.C_GenerateKeyPair(
      session,
      { mechanism: lib.CKM_EC_KEY_PAIR_GEN },
      [
        ...common,
        { type: lib.CKA_CLASS, value: lib.CKO_PUBLIC_KEY },
        { type: lib.CKA_KEY_TYPE, value: lib.CKK_EC },
        { type: lib.CKA_VERIFY, value: true },
        { type: lib.CKA_EC_PARAMS, value: P256_PARAMS },
      ],
      [
        ...common,
        { type: lib.CKA_CLASS, value: lib.CKO_PRIVATE_KEY },
        { type: lib.CKA_KEY_TYPE, value: lib.CKK_EC },
        { type: lib.CKA_PRIVATE, value: true },
        { type: lib.CKA_SENSITIVE, value: true },
        { type: lib.CKA_EXTRACTABLE, value: false },
        { type: lib.CKA_SIGN, value: true },
      ],
    );
    const [point] = p11.C_GetAttributeValue(session, pair.publicKey, [{ type: lib.CKA_EC_POINT }]);
    return { publicKey: publicKeyFromPoint(point!.value!) };
  });
}

/** Stores a certificate on the token next to its key (same CKA_ID and label), for `chainFromToken`. */
export async function storePkcs11Certificate(config: Pkcs11Config, certificateDer: Uint8Array, label = config.keyLabel ?? 'certificate'): Promise<void> {
  const { X509Certificate: PeculiarCertificate } = await import('@peculiar/x509');
  const subject = Buffer.from(new PeculiarCertificate(certificateDer).subjectName.toArrayBuffer());
  await withSession(config, (lib, p11, session) => {
    p11.C_CreateObject(session, [
      { type: lib.CKA_CLASS, value: lib.CKO_CERTIFICATE },
      { type: lib.CKA_CERTIFICATE_TYPE, value: lib.CKC_X_509 },
      { type: lib.CKA_TOKEN, value: true },
      { type: lib.CKA_LABEL, value: label },
      ...(config.keyId ? [{ type: lib.CKA_ID, value: Buffer.from(config.keyId, 'hex') }] : []),
      { type: lib.CKA_SUBJECT, value: subject },
      { type: lib.CKA_VALUE, value: Buffer.from(certificateDer) },
    ]);
  });
}

/**
 * Destroys a retired key's private half in the token (rotation, ADR 0136): the public key and the
 * certificate stay. Returns how many private keys were destroyed (0: none matched).
 */
export async function destroyPkcs11PrivateKey(config: Pkcs11Config): Promise<number> {
  if (!config.keyLabel && !config.keyId) throw new Pkcs11ConfigError('name the key to destroy by label and/or id');
  return withSession(config, (lib, p11, session) => {
    const found = findAll(p11, session, keyTemplate(lib, lib.CKO_PRIVATE_KEY, config));
    if (found.length > 1) throw new Pkcs11ConfigError(`${found.length} private keys match: name one by its id`);
    for (const handle of found) p11.C_DestroyObject(session, handle);
    return found.length;
  });
}

/**
 * One ECDSA P-256 signature (r‖s) over SHA-256(data) with the named private key, without its
 * certificate: for the certificate request of a key just generated.
 */
export async function signOnceWithPkcs11Key(config: Pkcs11Config, data: Uint8Array): Promise<Uint8Array> {
  return withSession(config, async (lib, p11, session) => {
    const found = findAll(p11, session, keyTemplate(lib, lib.CKO_PRIVATE_KEY, config));
    if (found.length !== 1) throw new Pkcs11ConfigError(`${found.length} private keys match the label and id given: exactly one must`);
    p11.C_SignInit(session, { mechanism: lib.CKM_ECDSA }, found[0]!);
    return new Uint8Array(await p11.C_SignAsync(session, createHash('sha256').update(data).digest(), Buffer.alloc(132)));
  });
}
