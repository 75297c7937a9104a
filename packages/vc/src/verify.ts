/// <reference path="./digitalbazaar.d.ts" />
import * as vc from '@digitalbazaar/vc';
import jsigs from 'jsonld-signatures';
import type { DocumentLoader } from './document-loader.ts';
import { verificationSuite } from './sign.ts';
import { bitstringEntry, StatusListError } from './status-list.ts';

/**
 * Verifying a W3C VC 2.0 / Open Badges 3.0 credential of the ministry (ADR 0144), with named
 * checks a page or the CLI can show one by one:
 * - proof: the Data Integrity proof (`ecdsa-rdfc-2019`), by Digital Bazaar's suite, its key
 *   resolved through the document loader (never the network) and authorised by the issuer;
 * - issuer: the issuer is a trusted one (the ministry's DID), and its key was not used after its
 *   retirement (a retired key's `expires` in the DID document);
 * - status: the credential's revocation bit in the ministry's Bitstring Status List, whose own
 *   proof and issuer are checked the same way;
 * - expiry: `validFrom` reached, `validUntil` (if any) not passed.
 */

export type VcCheckName = 'proof' | 'issuer' | 'status' | 'expiry';
export type VcCheckStatus = 'ok' | 'failed' | 'unknown';

export interface VcCheck {
  status: VcCheckStatus;
  /** Machine-readable cause when not ok, e.g. `revoked`, `bad-signature`, `untrusted-issuer`, `key-retired`, `expired`, `not-yet-valid`, `unresolved`. */
  reason?: string;
  /** What went wrong, in English, for logs and the CLI. */
  detail?: string;
}

export interface VcVerification {
  /** Every check is ok. */
  verified: boolean;
  /** The status list says revoked. */
  revoked: boolean;
  checks: Record<VcCheckName, VcCheck>;
  issuer: string | null;
  verificationMethod: string | null;
  /** The credential's `id` (the diploma's public address for ours). */
  id: string | null;
}

export interface VerifyOptions {
  /** Resolves contexts, the issuer's DID document and the status list credentials (no network). */
  documentLoader: DocumentLoader;
  /** The issuers to accept (their DIDs); absent: any issuer whose proof verifies. */
  trust?: { issuers?: string[] };
  now?: Date;
}

/** A credential larger than this (JSON characters) is refused before any processing. */
export const MAX_CREDENTIAL_CHARS = 256 * 1024;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);
const message = (error: unknown): string => {
  if (error instanceof Error) return error.message;
  if (isObject(error) && Array.isArray(error.errors)) return error.errors.map(message).join('; ');
  return String(error);
};
const issuerId = (credential: Json): string | null =>
  typeof credential.issuer === 'string' ? credential.issuer : isObject(credential.issuer) && typeof credential.issuer.id === 'string' ? credential.issuer.id : null;

interface ProofOutcome {
  verified: boolean;
  detail?: string;
  verificationMethod: Json | null;
}

async function checkProof(credential: Json, documentLoader: DocumentLoader): Promise<ProofOutcome> {
  const proofs = asArray(credential.proof).filter(isObject);
  if (proofs.length !== 1) return { verified: false, detail: 'exactly one proof is expected', verificationMethod: null };
  const proof = proofs[0]!;
  if (proof.type !== 'DataIntegrityProof' || proof.cryptosuite !== 'ecdsa-rdfc-2019') {
    return { verified: false, detail: `unsupported proof ${String(proof.type)}/${String(proof.cryptosuite)}`, verificationMethod: null };
  }
  try {
    const result = await jsigs.verify(credential, { suite: verificationSuite(), purpose: new vc.CredentialIssuancePurpose(), documentLoader });
    const first = result.results?.[0];
    return { verified: result.verified, ...(result.verified ? {} : { detail: message(result.error) }), verificationMethod: first?.verificationMethod ?? null };
  } catch (error) {
    return { verified: false, detail: message(error), verificationMethod: null };
  }
}

/**
 * A status list is signed afresh by the issuer at the moment it is asked for, after the verifier
 * took its `now`, and on a machine whose clock may run a little ahead: its `validFrom` may be up
 * to this much later than the verifier's clock (it says nothing stale; `validUntil` stays strict).
 */
export const STATUS_LIST_CLOCK_SKEW_MS = 5 * 60_000;

function checkExpiry(credential: Json, now: Date, skewMs = 0): VcCheck {
  const date = (name: string): Date | null | 'invalid' => {
    const value = credential[name];
    if (value === undefined) return null;
    if (typeof value !== 'string') return 'invalid';
    const parsed = new Date(value);
    return Number.isNaN(parsed.getTime()) ? 'invalid' : parsed;
  };
  const from = date('validFrom');
  const until = date('validUntil');
  if (from === 'invalid' || until === 'invalid') return { status: 'failed', reason: 'malformed', detail: 'validFrom or validUntil is not a date' };
  if (from && from.getTime() > now.getTime() + skewMs) return { status: 'failed', reason: 'not-yet-valid', detail: `valid from ${from.toISOString()}` };
  if (until && until.getTime() <= now.getTime()) return { status: 'failed', reason: 'expired', detail: `valid until ${until.toISOString()}` };
  return { status: 'ok' };
}

function checkIssuer(credential: Json, proof: ProofOutcome, trust: VerifyOptions['trust']): VcCheck {
  const issuer = issuerId(credential);
  if (!issuer) return { status: 'failed', reason: 'malformed', detail: 'the credential names no issuer' };
  if (trust?.issuers && !trust.issuers.includes(issuer)) return { status: 'failed', reason: 'untrusted-issuer', detail: `${issuer} is not a trusted issuer` };
  if (!proof.verified || !proof.verificationMethod) return { status: 'unknown', reason: 'unresolved', detail: 'the proof did not verify: its key is not established' };
  const controller = proof.verificationMethod.controller;
  if (controller !== issuer) return { status: 'failed', reason: 'wrong-key', detail: 'the signing key is not the issuer’s' };
  const expires = proof.verificationMethod.expires;
  const created = asArray(credential.proof).filter(isObject)[0]?.created;
  if (typeof expires === 'string') {
    // A retired key proves only what it signed before its retirement (ADR 0136).
    if (typeof created !== 'string' || Number.isNaN(Date.parse(created)))
      return { status: 'failed', reason: 'key-retired', detail: 'a retired key’s proof must say when it was made' };
    if (Date.parse(created) > Date.parse(expires)) return { status: 'failed', reason: 'key-retired', detail: `signed ${created}, after the key's retirement ${expires}` };
  }
  return { status: 'ok' };
}

async function checkStatus(credential: Json, documentLoader: DocumentLoader, trust: VerifyOptions['trust'], now: Date): Promise<VcCheck> {
  const entries = asArray(credential.credentialStatus).filter(isObject);
  const revocation = entries.filter((e) => e.type === 'BitstringStatusListEntry' && e.statusPurpose === 'revocation');
  if (revocation.length === 0) return { status: 'unknown', reason: 'no-status', detail: 'the credential has no revocation status entry' };
  const issuer = issuerId(credential);
  for (const entry of revocation) {
    const url = entry.statusListCredential;
    const index = Number(entry.statusListIndex);
    if (typeof url !== 'string' || typeof entry.statusListIndex !== 'string' || !Number.isSafeInteger(index) || index < 0) {
      return { status: 'failed', reason: 'malformed', detail: 'malformed BitstringStatusListEntry' };
    }
    let list: Json;
    try {
      const loaded = (await documentLoader(url)).document;
      if (!isObject(loaded)) throw new Error('not a JSON object');
      list = loaded;
    } catch (error) {
      return { status: 'unknown', reason: 'unresolved', detail: `status list ${url}: ${message(error)}` };
    }
    const types = asArray(list.type);
    if (!types.includes('BitstringStatusListCredential')) return { status: 'unknown', reason: 'unresolved', detail: `${url} is not a BitstringStatusListCredential` };
    const listProof = await checkProof(list, documentLoader);
    if (!listProof.verified) return { status: 'unknown', reason: 'unresolved', detail: `the status list's proof does not verify: ${listProof.detail ?? ''}` };
    const listIssuer = checkIssuer(list, listProof, trust);
    if (listIssuer.status !== 'ok' || issuerId(list) !== issuer) return { status: 'unknown', reason: 'unresolved', detail: 'the status list is not the credential issuer’s' };
    if (checkExpiry(list, now, STATUS_LIST_CLOCK_SKEW_MS).status !== 'ok')
      return { status: 'unknown', reason: 'unresolved', detail: 'the status list is out of its validity period' };
    const subject = asArray(list.credentialSubject).filter(isObject)[0];
    if (subject?.statusPurpose !== 'revocation' || typeof subject.encodedList !== 'string') {
      return { status: 'unknown', reason: 'unresolved', detail: 'the status list has no revocation bitstring' };
    }
    try {
      if (bitstringEntry(subject.encodedList, index)) return { status: 'failed', reason: 'revoked', detail: 'the issuer revoked this credential' };
    } catch (error) {
      return { status: 'unknown', reason: 'unresolved', detail: error instanceof StatusListError ? error.message : message(error) };
    }
  }
  return { status: 'ok' };
}

/** Verifies a credential (any JSON a stranger may send: bounded and checked before use). */
export async function verifyOpenBadgeCredential(credential: unknown, options: VerifyOptions): Promise<VcVerification> {
  const now = options.now ?? new Date();
  const failed = (detail: string): VcVerification => ({
    verified: false,
    revoked: false,
    checks: {
      proof: { status: 'failed', reason: 'malformed', detail },
      issuer: { status: 'unknown' },
      status: { status: 'unknown' },
      expiry: { status: 'unknown' },
    },
    issuer: null,
    verificationMethod: null,
    id: null,
  });
  if (!isObject(credential)) return failed('the credential is not a JSON object');
  let size: number;
  try {
    size = JSON.stringify(credential).length;
  } catch {
    return failed('the credential is not JSON');
  }
  if (size > MAX_CREDENTIAL_CHARS) return failed(`the credential is larger than ${MAX_CREDENTIAL_CHARS} characters`);
  const types = asArray(credential.type);
  if (!types.includes('VerifiableCredential')) return failed('not a VerifiableCredential');

  const proof = await checkProof(credential, options.documentLoader);
  const checks: Record<VcCheckName, VcCheck> = {
    proof: proof.verified ? { status: 'ok' } : { status: 'failed', reason: 'bad-signature', ...(proof.detail ? { detail: proof.detail } : {}) },
    issuer: checkIssuer(credential, proof, options.trust),
    // A credential whose proof fails says nothing trustworthy about where its status is.
    status: proof.verified ? await checkStatus(credential, options.documentLoader, options.trust, now) : { status: 'unknown', reason: 'unresolved' },
    expiry: checkExpiry(credential, now),
  };
  return {
    verified: Object.values(checks).every((c) => c.status === 'ok'),
    revoked: checks.status.reason === 'revoked',
    checks,
    issuer: issuerId(credential),
    verificationMethod: typeof proof.verificationMethod?.id === 'string' ? proof.verificationMethod.id : null,
    id: typeof credential.id === 'string' ? credential.id : null,
  };
}
