/**
 * The seal recorded at issuance over each checked credential (ADR 0154): an HMAC-SHA256, under a
 * key kept outside the database, of the diploma's id, its credential's text as the database gives
 * it back (`credential::text`) and its public credential's text (ADR 0134). A verification by id
 * that finds a seal matching the row it read knows that this exact credential passed the full
 * integrity check when it was issued, and skips hashing it again; anything else — no seal, a seal
 * made under another key, a seal that does not match — is checked in full, as before.
 *
 * The seal is `key id (8 bytes) ‖ HMAC (32 bytes)`. The key id only tells a seal made under an
 * earlier key (read as absent, resealed by `npm run diplomas:seal`) from one that no longer
 * matches its row (counted and logged); it proves nothing, the HMAC does.
 */
import { createHash, createHmac, createSecretKey, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { publicCredential, verifyDocument, type CredentialDocument } from '@sceau/credential';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';

/** Versioned: a change of what is sealed or how takes a new label, and old seals then read as another key's. */
const LABEL = Buffer.from('sceau:verification-seal:v1\u0000');
const KEY_ID_BYTES = 8;
const MAC_BYTES = 32;
export const SEAL_BYTES = KEY_ID_BYTES + MAC_BYTES;
/** The smallest key accepted, from the environment or the key file. */
export const MIN_SEAL_KEY_BYTES = 32;

export type SealSettings = Config['verificationSeal'];

/** A loaded seal key and its id. */
export interface SealKey {
  readonly secret: Buffer;
  readonly id: Buffer;
  /** The secret as a key object, made once: an HMAC keyed by a Buffer imports it again on each call (half of a seal's check). */
  readonly hmacKey: KeyObject;
}

export function sealKey(secret: Buffer): SealKey {
  if (secret.length < MIN_SEAL_KEY_BYTES) throw new Error(`the verification seal key must be at least ${MIN_SEAL_KEY_BYTES} bytes`);
  return { secret, id: createHash('sha256').update(LABEL).update('key-id').update(secret).digest().subarray(0, KEY_ID_BYTES), hmacKey: createSecretKey(secret) };
}

function lengthOf(n: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(n);
  return b;
}

function mac(key: SealKey, id: string, credentialText: string, publicText: string): Buffer {
  const hmac = createHmac('sha256', key.hmacKey).update(LABEL);
  // Each part preceded by its length in bytes: no two different triples give the same message.
  for (const part of [id, credentialText, publicText]) hmac.update(lengthOf(Buffer.byteLength(part, 'utf8'))).update(part, 'utf8');
  return hmac.digest();
}

/** The seal of a row: its id, its credential's text and its public credential's text. */
export function sealOf(key: SealKey, id: string, credentialText: string, publicText: string): Buffer {
  return Buffer.concat([key.id, mac(key, id, credentialText, publicText)]);
}

/**
 * What a row's seal says under the current key: `valid` (this exact row was checked at issuance),
 * `absent` (none, or one made under another key: checked in full), `mismatch` (made under this
 * key for other contents: the row changed after it was sealed; checked in full).
 */
export function readSeal(key: SealKey, seal: Uint8Array | null, id: string, credentialText: string, publicText: string | null): 'valid' | 'absent' | 'mismatch' {
  if (!seal || seal.length === 0) return 'absent';
  if (seal.length !== SEAL_BYTES || !key.id.equals(Buffer.from(seal.buffer, seal.byteOffset, KEY_ID_BYTES))) return 'absent';
  if (publicText === null) return 'mismatch';
  const expected = mac(key, id, credentialText, publicText);
  return timingSafeEqual(expected, Buffer.from(seal.buffer, seal.byteOffset + KEY_ID_BYTES, MAC_BYTES)) ? 'valid' : 'mismatch';
}

/**
 * A credential checked in full (`verifyDocument`, the same integrity check as a verification's)
 * and, when it passes and names this id, its seal and its public credential's text — that text is
 * what a verification by id answers, `JSON.stringify(publicCredential(…))` of the parsed text as
 * the unsealed path makes it, so both answers are the same bytes.
 */
export function sealCredential(key: SealKey, id: string, credentialText: string): { seal: Buffer; publicCredential: string } | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(credentialText);
  } catch {
    return { problem: 'the credential is not JSON' };
  }
  const checked = verifyDocument(parsed);
  if (checked.integrity !== 'ok') return { problem: `${checked.reason}: ${checked.error}` };
  if (checked.diplomaId !== id) return { problem: `the credential names diploma ${checked.diplomaId}` };
  let publicText: string;
  try {
    publicText = JSON.stringify(publicCredential(parsed as CredentialDocument, checked.fieldHashes));
  } catch (error) {
    return { problem: `no public credential: ${(error as Error).message}` };
  }
  return { seal: sealOf(key, id, credentialText, publicText), publicCredential: publicText };
}

/**
 * The seal key of this process: VERIFICATION_SEAL_KEY, else the key file under DATA_DIR/keys,
 * generated once. Several processes (API_PROCESSES, ADR 0106) may start together: the file is
 * written whole under a name of its own, then linked to its place — a link fails if the name
 * exists, so exactly one key wins and every process reads that one.
 */
export async function loadSealKey(settings: SealSettings): Promise<SealKey> {
  if (settings.key) return sealKey(settings.key);
  const read = async () => {
    const text = (await readFile(settings.file, 'utf8')).trim();
    const secret = Buffer.from(text, 'base64');
    if (secret.length < MIN_SEAL_KEY_BYTES) throw new Error(`${settings.file}: not a verification seal key (base64 of at least ${MIN_SEAL_KEY_BYTES} bytes)`);
    return sealKey(secret);
  };
  try {
    return await read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(path.dirname(settings.file), { recursive: true, mode: 0o700 });
  const draft = `${settings.file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(draft, `${randomBytes(MIN_SEAL_KEY_BYTES).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  try {
    await link(draft, settings.file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another process created it first: its key is the one.
  } finally {
    await unlink(draft).catch(() => {});
  }
  return read();
}

/**
 * A process's seal key, read once on first use. A key that cannot be read (a key file unreadable,
 * not a key) is reported once and then treated as no key: nothing is sealed, every verification is
 * checked in full.
 */
export class SealKeyring {
  private loading: Promise<SealKey | null> | null = null;

  constructor(
    private readonly settings: SealSettings,
    private readonly log: { warn: (details: object, message: string) => void } = { warn: () => {} },
  ) {}

  key(): Promise<SealKey | null> {
    this.loading ??= loadSealKey(this.settings).catch((error: unknown) => {
      this.log.warn({ err: error, file: this.settings.file }, 'no verification seal key: diplomas are neither sealed nor verified by their seal (ADR 0154)');
      return null;
    });
    return this.loading;
  }
}

/** A row to seal: its id and its credential's text as the database gives it back. */
export type SealableRow = {
  id: string;
  credential: string;
};

/**
 * Seals rows and writes their seals and public credentials, one statement for all of them. Rows
 * whose credential does not pass the full check are left as they are and returned. The write
 * applies only to rows whose credential is still the text that was checked.
 */
export async function writeSeals(db: Pick<Db, 'execute'>, key: SealKey, rows: readonly SealableRow[]): Promise<{ sealed: number; failed: Array<{ id: string; problem: string }> }> {
  const values: Array<{ id: string; seal: string; public_credential: string; credential_sha256: string }> = [];
  const failed: Array<{ id: string; problem: string }> = [];
  for (const row of rows) {
    const sealed = sealCredential(key, row.id, row.credential);
    if ('problem' in sealed) failed.push({ id: row.id, problem: sealed.problem });
    else
      values.push({
        id: row.id,
        seal: sealed.seal.toString('base64'),
        public_credential: sealed.publicCredential,
        credential_sha256: createHash('sha256').update(row.credential).digest('hex'),
      });
  }
  if (values.length) {
    await db.execute(sql`
      update diplomas d set seal = decode(v.seal, 'base64'), public_credential = v.public_credential
      from json_to_recordset(${JSON.stringify(values)}::json) as v(id text, seal text, public_credential text, credential_sha256 text)
      where d.id = v.id and encode(sha256(convert_to(d.credential::text, 'UTF8')), 'hex') = v.credential_sha256`);
  }
  return { sealed: values.length, failed };
}

/** What `sealDiplomas` did. */
export interface SealReport {
  /** Rows read. */
  read: number;
  /** Rows sealed now (without a seal, or with one of another key or that no longer matched). */
  sealed: number;
  /** Rows whose seal already matched under this key. */
  alreadySealed: number;
  /** Rows left unsealed: their credential does not pass the full check. */
  failed: Array<{ id: string; problem: string }>;
}

/**
 * Seals the diplomas issued before seals (ADR 0154), and those sealed under an earlier key: every
 * row read in chunks by id, each credential checked in full before it is sealed. Idempotent (a row
 * whose seal matches is left alone) and resumable (`after`: start past this id).
 */
export async function sealDiplomas(
  db: Pick<Db, 'execute'>,
  key: SealKey,
  options: { chunk?: number; after?: string; onChunk?: (report: SealReport, lastId: string) => void } = {},
): Promise<SealReport> {
  const chunk = options.chunk ?? 500;
  const report: SealReport = { read: 0, sealed: 0, alreadySealed: 0, failed: [] };
  let after = options.after ?? '';
  for (;;) {
    const { rows } = await db.execute<{ id: string; credential: string; seal: Buffer | null; public_credential: string | null }>(sql`
      select d.id, d.credential::text as credential, d.seal, d.public_credential
      from diplomas d where d.id > ${after} order by d.id limit ${chunk}`);
    if (rows.length === 0) break;
    report.read += rows.length;
    const todo = rows.filter((row) => readSeal(key, row.seal, row.id, row.credential, row.public_credential) !== 'valid');
    report.alreadySealed += rows.length - todo.length;
    const written = await writeSeals(db, key, todo);
    report.sealed += written.sealed;
    report.failed.push(...written.failed);
    after = rows.at(-1)!.id;
    options.onChunk?.(report, after);
  }
  return report;
}
