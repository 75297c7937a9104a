import { gunzipSync, gzipSync, deflateSync, inflateSync } from 'node:zlib';
import { CONTEXT_URLS } from './contexts.ts';

/**
 * The two status lists of the ministry's credentials (ADR 0144), the same bits in two encodings:
 * - W3C Bitstring Status List v1.0: GZIP, multibase base64url (`u…`); index 0 is the most
 *   significant bit of the first byte; at least 131,072 entries (herd privacy).
 * - IETF OAuth Token Status List (`statuslist+jwt`), 1 bit per entry: ZLIB (DEFLATE with its
 *   header), base64url; index 0 is the least significant bit of the first byte.
 */

/** Entries per list: the Bitstring Status List's minimum (16 KiB), enough for a list per year of diplomas or more. */
export const STATUS_LIST_SIZE = 131_072;
/** A decoded list larger than this (bytes) is refused: a stranger's list cannot fill the memory. */
export const MAX_STATUS_LIST_BYTES = 2 * 1024 * 1024;

export class StatusListError extends Error {
  override name = 'StatusListError';
}

function bitsOf(set: Iterable<number>, size: number, order: 'msb' | 'lsb'): Uint8Array {
  if (size <= 0 || size % 8 !== 0) throw new StatusListError('a status list holds a positive multiple of 8 entries');
  const bytes = new Uint8Array(size / 8);
  for (const index of set) {
    if (!Number.isInteger(index) || index < 0 || index >= size) throw new StatusListError(`status index ${index} is outside the list (0 to ${size - 1})`);
    bytes[index >> 3]! |= order === 'msb' ? 0x80 >> (index & 7) : 1 << (index & 7);
  }
  return bytes;
}

function bitAt(bytes: Uint8Array, index: number, order: 'msb' | 'lsb'): boolean {
  if (!Number.isInteger(index) || index < 0 || index >= bytes.length * 8) throw new StatusListError(`status index ${index} is outside the list (${bytes.length * 8} entries)`);
  const byte = bytes[index >> 3]!;
  return (order === 'msb' ? byte & (0x80 >> (index & 7)) : byte & (1 << (index & 7))) !== 0;
}

/** The W3C `encodedList` of a list whose `set` entries are 1 (revoked). */
export function encodeBitstring(set: Iterable<number>, size = STATUS_LIST_SIZE): string {
  return `u${Buffer.from(gzipSync(bitsOf(set, size, 'msb'))).toString('base64url')}`;
}

/** The bits of a W3C `encodedList` (multibase base64url of GZIP), bounded in size. */
export function decodeBitstring(encodedList: string): Uint8Array {
  if (typeof encodedList !== 'string' || !encodedList.startsWith('u') || !/^u[A-Za-z0-9_-]*$/.test(encodedList)) {
    throw new StatusListError('encodedList is not multibase base64url (u…)');
  }
  if (encodedList.length > MAX_STATUS_LIST_BYTES) throw new StatusListError('encodedList is too large');
  try {
    return new Uint8Array(gunzipSync(Buffer.from(encodedList.slice(1), 'base64url'), { maxOutputLength: MAX_STATUS_LIST_BYTES }));
  } catch {
    throw new StatusListError('encodedList is not a GZIP bitstring of at most 2 MiB');
  }
}

export function bitstringEntry(encodedList: string, index: number): boolean {
  return bitAt(decodeBitstring(encodedList), index, 'msb');
}

/** The IETF Token Status List `status_list` claim (1 bit per entry) of the same list. */
export function encodeTokenStatusList(set: Iterable<number>, size = STATUS_LIST_SIZE): { bits: 1; lst: string } {
  return { bits: 1, lst: Buffer.from(deflateSync(bitsOf(set, size, 'lsb'), { level: 9 })).toString('base64url') };
}

export function tokenStatusListEntry(statusList: { bits: number; lst: string }, index: number): boolean {
  if (statusList.bits !== 1) throw new StatusListError('only 1-bit token status lists are read here');
  if (typeof statusList.lst !== 'string' || statusList.lst.length > MAX_STATUS_LIST_BYTES) throw new StatusListError('lst is too large');
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(inflateSync(Buffer.from(statusList.lst, 'base64url'), { maxOutputLength: MAX_STATUS_LIST_BYTES }));
  } catch {
    throw new StatusListError('lst is not a ZLIB list of at most 2 MiB');
  }
  return bitAt(bytes, index, 'lsb');
}

/** The `credentialStatus` entry a credential carries: its bit in the list at `statusListCredential`. */
export interface BitstringStatusListEntry {
  id: string;
  type: 'BitstringStatusListEntry';
  statusPurpose: 'revocation';
  statusListIndex: string;
  statusListCredential: string;
}

export function statusEntry(statusListCredential: string, index: number): BitstringStatusListEntry {
  return { id: `${statusListCredential}#${index}`, type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: String(index), statusListCredential };
}

/** The unsigned `BitstringStatusListCredential` (its proof is added like a diploma's). */
export function buildStatusListCredential(input: { id: string; issuer: string; validFrom: Date; validUntil?: Date; encodedList: string }): Record<string, unknown> {
  return {
    '@context': [CONTEXT_URLS.credentialsV2],
    id: input.id,
    type: ['VerifiableCredential', 'BitstringStatusListCredential'],
    issuer: input.issuer,
    validFrom: isoSeconds(input.validFrom),
    ...(input.validUntil ? { validUntil: isoSeconds(input.validUntil) } : {}),
    credentialSubject: { id: `${input.id}#list`, type: 'BitstringStatusList', statusPurpose: 'revocation', encodedList: input.encodedList },
  };
}

/** ISO 8601 UTC to the second (the form XML Schema's dateTimeStamp and every verifier read alike). */
export function isoSeconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
