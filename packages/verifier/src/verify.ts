/**
 * The verification engine, shared by the API and the independent verifier. It has no I/O of its
 * own: keys, chain and database come through the context's ports. Each check reports passed,
 * failed or not-checked with a stable code; decideVerdict turns them into one verdict.
 */
import {
  attestedDocument,
  DIPLOMA_ID_PATTERN,
  isDiplomaId,
  PUBLIC_FIELDS,
  REQUIRED_DISCLOSED_FIELDS,
  verifyDocument,
  type DocumentVerification,
  type Jwks,
  type QrFields,
  type QrVerification,
} from '@sceau/credential';
import { extractAttachment } from '@sceau/pdf/attachment';
import { shortKeyId, toBase64url, type EcPublicJwk } from '@sceau/credential';
import { checkQrPayload, checkRootSignature } from './fast-signatures.ts';
import { qrCodesFromContents, readPdfQrCodes } from './pdf-qr.ts';
import { readDiplomaPdf } from './pdf-reader.ts';
import { analysePdfSignature, type PdfSignatureAnalysis } from './pdf-revisions.ts';
import { certificateSubject, findSignerKey } from './pdf-signer.ts';
import {
  anchoringTime,
  retiredDetails,
  retiredKeyFromJwk,
  retiredKeyOf,
  signedWhen,
  signedWhileCompromised,
  tsaAnchorsOf,
  type RetiredKey,
  type SigningTime,
} from './retired-keys.ts';
import { trustedTsa } from './timestamp-token.ts';
import type { PinnedIssuer } from './trust-list.ts';
import type {
  Check,
  CheckedIssuer,
  CheckName,
  Hex,
  PublicDiploma,
  RegistryPort,
  RegistryRef,
  VerificationContext,
  VerificationInput,
  VerificationResult,
  VerificationSource,
} from './types.ts';
import { decideVerdict } from './verdict.ts';

/** Name of the credential attachment in our PDFs (@sceau/pdf CREDENTIAL_ATTACHMENT_NAME). */
export const CREDENTIAL_ATTACHMENT = 'credential.json';
export const QR_PREFIX = 'SC1:';
/** A `/verify/{id}` link, its id as the credential writes one (DIPLOMA_ID_PATTERN without its anchors). */
const VERIFY_LINK = new RegExp(`/verify/(${DIPLOMA_ID_PATTERN.source.replace(/^\^|\$$/g, '')})(?:[/?#]|$)`);

type Verified = Extract<DocumentVerification, { integrity: 'ok' }>;

/** What else came with the credential and must agree with it. */
interface Companions {
  source: VerificationSource;
  /** The offline QR payload: its text (PDF) or its verification already made (QR input). */
  qrText?: string;
  qrVerified?: QrVerification;
  /** The diploma id of a `/verify/{id}` link (the link QR, or the link the user followed). */
  linkId?: string;
  pdf?: PdfSignatureAnalysis;
  /** The credential came from the caller's `findCredential` (only such a one may be `attested`). */
  fromCaller?: boolean;
}

const check = <N extends CheckName>(name: N, status: Check['status'], code: Extract<Check, { name: N }>['code'], details?: Record<string, unknown>) =>
  ({ name, status, code, ...(details ? { details } : {}) }) as Check;

const skipped = (...names: CheckName[]) => names.map((name) => check(name, 'not-checked', 'skipped_after_failure' as never));

const hex0x = (hash: string): Hex => `0x${hash.replace(/^0x/, '').toLowerCase()}`;

function result(source: VerificationSource, checks: Check[], extra: Partial<VerificationResult> = {}): VerificationResult {
  const order: CheckName[] = ['integrity', 'issuer_signature', 'issuer_identity', 'anchored', 'not_revoked', 'pdf_signature'];
  const sorted = [...checks].sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  const verdict = decideVerdict(sorted, source);
  const forged = sorted.some((c) => c.status === 'failed' && c.name !== 'anchored' && c.name !== 'not_revoked');
  const { diploma, ...rest } = extra;
  return { verdict, checks: sorted, ...(diploma && !forged ? { diploma } : {}), source, ...rest };
}

export async function verify(input: VerificationInput, context: VerificationContext): Promise<VerificationResult> {
  if ('pdf' in input) return verifyPdf(input.pdf, context);
  if ('credential' in input) return verifyCredential(input.credential, context, { source: 'credential' });
  if ('qr' in input) return verifyQr(input.qr, context);
  if ('diplomaId' in input) return verifyId(input.diplomaId, context, { source: 'link', linkId: input.diplomaId });
  throw new TypeError('verify: input must have one of pdf, credential, qr, diplomaId');
}

// -------------------------------------------------------------------------------------------
// Inputs
// -------------------------------------------------------------------------------------------

function notADiploma(source: VerificationSource, extra: Check[] = []): VerificationResult {
  const names: CheckName[] = ['issuer_signature', 'issuer_identity', 'anchored', 'not_revoked'];
  return result(source, [check('integrity', 'not-checked', 'not_a_diploma'), ...names.map((n) => check(n, 'not-checked', 'skipped_after_failure' as never)), ...extra]);
}

async function verifyPdf(pdf: Uint8Array, context: VerificationContext): Promise<VerificationResult> {
  // The signature, on the revision it signed; later revisions only if they add validation data (ADR 0138).
  const signature = analysePdfSignature(pdf, tsaAnchorsFor(context, hasKeysBeforeIssuer(context) ? await keysBeforeIssuer(context) : null));
  // The diploma is read from the bytes the signature covers (the whole file when anything else follows it).
  const [attachment, codes] = await readPdfParts(signature.signedBytes, signature, context);
  const qrText = codes.find((c) => c.startsWith(QR_PREFIX));
  const linkId = codes.map((c) => VERIFY_LINK.exec(c)?.[1]).find(Boolean);
  const companions: Companions = { source: 'pdf', pdf: signature, ...(qrText ? { qrText } : {}), ...(linkId ? { linkId } : {}) };
  if (attachment) return verifyCredential(new TextDecoder().decode(attachment), context, companions);

  // No credential inside: a PDF that never was one of ours, or one whose attachment was removed.
  const pdfCheck = await checkPdfSignature(signature, () => keysBeforeIssuer(context), context, null);
  if (signature.problem === 'no signature') return notADiploma('pdf', [pdfCheck]);
  return result('pdf', [check('integrity', 'failed', 'credential_missing'), ...skipped('issuer_signature', 'issuer_identity', 'anchored', 'not_revoked'), pdfCheck]);
}

/**
 * The embedded credential and the QR codes of a PDF. A file signed, whole and unchanged, by one of
 * the trusted issuer's keys is the renderer's own output: the targeted reader finds both without
 * parsing the document (ADR 0101). Any other file (unsigned, changed, signed by someone else), or
 * one the targeted reader does not handle, goes through the full parser, as before.
 *
 * What runs on the caller's thread for any upload is bounded by the file's size: the signature check
 * (one search from the end, one hash, one CMS of the file's /Contents) and, only for bytes the
 * ministry signed whole, the targeted reader (its sections, depth and inflated bytes capped). The
 * full parser's cost is chosen by the file's author: `context.parsePdf` may run it elsewhere.
 */
async function readPdfParts(pdf: Uint8Array, signature: PdfSignatureAnalysis, context: VerificationContext): Promise<[Uint8Array | null, string[]]> {
  if (hasKeysBeforeIssuer(context) && signature.intact && signature.coversWholeFile && signature.signerCertificateDer) {
    const keys = await keysBeforeIssuer(context);
    if (keys && findSignerKey(signature.signerCertificateDer, keys)) {
      const parts = readDiplomaPdf(pdf, CREDENTIAL_ATTACHMENT);
      if (parts) return [parts.attachment, qrCodesFromContents(parts.contents, { grid: true })];
    }
  }
  // Everything else is parsed whole: by the caller's parser when it gives one (the API: a thread
  // with limits, ADR 0114), else here.
  if (context.parsePdf) {
    const parts = await context.parsePdf(pdf);
    return [parts.attachment, parts.codes];
  }
  return Promise.all([extractAttachment(pdf, CREDENTIAL_ATTACHMENT), readPdfQrCodes(pdf)]);
}

async function verifyQr(text: string, context: VerificationContext): Promise<VerificationResult> {
  const input = typeof text === 'string' ? text.trim() : '';
  const link = VERIFY_LINK.exec(input);
  if (link && /^https?:\/\//i.test(input)) return verifyId(link[1]!, context, { source: 'qr', linkId: link[1]! });
  if (!input.startsWith(QR_PREFIX)) return notADiploma('qr');

  const jwks = await keysBeforeIssuer(context);
  if (!jwks) {
    return result('qr', [
      check('integrity', 'not-checked', 'credential_unavailable'),
      check('issuer_signature', 'not-checked', 'jwks_unavailable'),
      ...skipped('issuer_identity', 'anchored', 'not_revoked'),
    ]);
  }
  const qr = checkQrPayload(input, jwks);
  if (qr.status !== 'valid') {
    return result('qr', [check('integrity', 'not-checked', 'credential_unavailable'), qrSignatureFailure(qr), ...skipped('issuer_identity', 'anchored', 'not_revoked')]);
  }
  // A QR signed by a retired key is dated by its batch's anchoring time, which needs the credential.
  const qrKeyRetired = retiredKeyOf(jwks, qr.kid);

  // The QR carries the targetHash but not the Merkle proof: the full credential is needed to
  // find the anchored root. Without it, report what the QR alone proves.
  const companions: Companions = { source: 'qr', qrText: input, qrVerified: qr };
  const found = await findCredential(context, qr.fields.diploma_id);
  if (found.credential) return verifyCredential(found.credential, context, { ...companions, fromCaller: true });

  // A signed QR whose id the caller does not know stays 'incomplete', not 'unknown': it is signed, only unproven.
  // Under a trust list, the pinned issuer is the one whose keys hold the QR's key.
  const pinned = context.issuer.basis === 'trust-list' ? context.issuer.issuers.find((p) => checkQrPayload(input, p.jwks).status === 'valid') : undefined;
  const checks: Check[] = [
    check('integrity', 'not-checked', 'credential_unavailable', found.missing ? { reason: 'diploma_not_found' } : undefined),
    qrKeyRetired
      ? check('issuer_signature', 'not-checked', 'signing_time_unknown', { signed: 'qr', ...retiredDetails(qrKeyRetired, null) })
      : check('issuer_signature', 'passed', 'signature_valid', { kid: qr.kid, signed: 'qr' }),
    check('issuer_identity', 'passed', 'issuer_key', { kid: qr.kid, basis: context.issuer.basis ?? 'configured', ...(pinned ? { trusted: checkedIssuer(pinned) } : {}) }),
    check('anchored', 'not-checked', 'proof_unavailable'),
  ];
  const registryRef = pinned?.registry ?? trustedRegistry(context);
  const targetHash = qr.fields.target_hash;
  const own = registryRef
    ? await checkRevocation(portFor(context, registryRef, pinned ? null : trustedKeysHint(context)), targetHash, null)
    : check('not_revoked', 'not-checked', 'registry_unknown');
  // The QR names the diploma, not its batch: a batch revoked whole cannot be seen without the credential's root (ADR 0137).
  checks.push(own.status === 'passed' ? check('not_revoked', 'not-checked', 'batch_unchecked', own.details) : own);
  return result('qr', checks, { diploma: diplomaFromQr(qr.fields), hashes: { targetHash }, ...trustedIssuerOf(context, pinned) });
}

async function verifyId(id: string, context: VerificationContext, companions: Companions): Promise<VerificationResult> {
  if (!isDiplomaId(id)) return notADiploma(companions.source);
  const found = await findCredential(context, id);
  if (found.credential) return verifyCredential(found.credential, context, { ...companions, fromCaller: true });
  if (found.missing) {
    const unpublished = (await context.knownUnpublished?.(id)) === true;
    return result(companions.source, [
      check('integrity', 'not-checked', 'diploma_not_found', { unpublished }),
      ...skipped('issuer_signature', 'issuer_identity', 'anchored', 'not_revoked'),
    ]);
  }
  return result(companions.source, [
    check('integrity', 'not-checked', 'credential_unavailable'),
    check('issuer_signature', 'not-checked', 'skipped_after_failure'),
    check('issuer_identity', 'not-checked', 'skipped_after_failure'),
    check('anchored', 'not-checked', 'proof_unavailable'),
    check('not_revoked', 'not-checked', 'skipped_after_failure'),
  ]);
}

async function findCredential(context: VerificationContext, id: string): Promise<{ credential?: unknown; missing?: boolean }> {
  if (!context.findCredential) return {};
  try {
    const credential = await context.findCredential(id);
    return credential === null || credential === undefined ? { missing: true } : { credential };
  } catch {
    return {};
  }
}

// -------------------------------------------------------------------------------------------
// The credential and what came with it
// -------------------------------------------------------------------------------------------

async function verifyCredential(raw: unknown, context: VerificationContext, companions: Companions): Promise<VerificationResult> {
  const { source } = companions;
  const pdfCheck = (jwks: () => Promise<Jwks | null>, anchored: SigningTime | null = null, diplomaId?: string) =>
    companions.pdf ? checkPdfSignature(companions.pdf, jwks, context, anchored, diplomaId) : undefined;
  // A credential the caller vouches for (ADR 0154) is read without hashing; anything else is hashed in full.
  const doc = companions.fromCaller && context.attested?.(raw) === true ? attestedDocument(raw) : verifyDocument(raw);

  if (doc.integrity === 'failed') {
    if (doc.reason === 'malformed' && source === 'credential' && !claimsToBeCredential(raw)) return notADiploma(source);
    const code = doc.reason === 'target-hash' ? 'target_hash_mismatch' : doc.reason === 'merkle-proof' ? 'merkle_proof_mismatch' : 'malformed_credential';
    const pdf = await pdfCheck(() => keysBeforeIssuer(context));
    return result(source, [
      check('integrity', 'failed', code, { problem: doc.error }),
      ...skipped('issuer_signature', 'issuer_identity', 'anchored', 'not_revoked'),
      ...(pdf ? [pdf] : []),
    ]);
  }

  context.credentialChecked?.(raw, doc);
  const hashes = { targetHash: doc.targetHash, merkleRoot: doc.merkleRoot };
  const diploma = diplomaFromRecord(doc);
  const { check: identityCheck, pinned } = checkIdentity(doc, context);
  const trust = { id: doc.issuer.id, jwksUrl: doc.issuer.jwks_url };
  // A pinned issuer's keys are the trust list's own: nothing fetched can add one.
  const jwksOnce = once(async () => (pinned ? pinned.jwks : context.issuer.basis === 'trust-list' ? null : jwksOf(context, trust)));
  const named = trustedIssuerOf(context, pinned);

  if (identityCheck.status === 'failed') {
    const pdf = await pdfCheck(() => keysBeforeIssuer(context));
    return result(source, [integrityCheck(doc, companions), ...skipped('issuer_signature', 'anchored', 'not_revoked'), identityCheck, ...(pdf ? [pdf] : [])], {
      diploma,
      hashes,
      ...named,
    });
  }

  const registryRef = { chainId: doc.issuer.registry.chain_id, address: doc.issuer.registry.contract };
  const port = portFor(context, registryRef, trust);
  const [jwks, anchored, notRevoked] = await Promise.all([jwksOnce(), checkAnchoring(port, registryRef, doc.merkleRoot), checkRevocation(port, doc.targetHash, doc.merkleRoot)]);
  // The batch's anchoring time on chain dates what a retired key signed, when nothing better does (ADR 0138).
  const anchoredAt = anchored.status === 'passed' ? anchoringTime(anchored.details?.timestamp) : null;
  const pdf = await pdfCheck(jwksOnce, anchoredAt, doc.diplomaId);

  let anchoredCheck = anchored;
  if (anchored.status === 'failed' && (await context.knownUnpublished?.(doc.diplomaId)) === true) {
    anchoredCheck = check('anchored', 'failed', 'not_yet_published', anchored.details);
  }
  const signature = checkSignatures(doc, companions, jwks, anchoredAt);
  // A declared issuer is confirmed by the keys it serves: without them, nothing was confirmed.
  const identity = identityCheck.status === 'passed' && !jwks ? check('issuer_identity', 'not-checked', 'skipped_after_failure', identityCheck.details) : identityCheck;
  const checks = [integrityCheck(doc, companions, signature.qrFields), signature.check, identity, anchoredCheck, notRevoked];
  if (pdf) checks.push(pdf);
  return result(source, checks, { diploma, hashes, ...named });
}

function claimsToBeCredential(raw: unknown): boolean {
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return false;
    }
  }
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { version?: unknown }).version === 'string' &&
    (value as { version: string }).version.startsWith('sceau-credential/')
  );
}

/** Integrity passed the hashes; the QR and link that came with the credential must name the same diploma. */
function integrityCheck(doc: Verified, companions: Companions, qrFields?: QrFields): Check {
  const mismatches: string[] = [];
  if (companions.linkId !== undefined && companions.linkId !== doc.diplomaId) mismatches.push('link.diploma_id');
  if (qrFields) mismatches.push(...compareQrFields(qrFields, doc).map((f) => `qr.${f}`));
  if (mismatches.length) return check('integrity', 'failed', 'qr_credential_mismatch', { fields: mismatches, targetHash: doc.targetHash });
  return check('integrity', 'passed', 'hashes_match', {
    targetHash: doc.targetHash,
    merkleRoot: doc.merkleRoot,
    hiddenFields: doc.hiddenFields,
    qr: qrFields ? 'matches' : companions.source === 'pdf' ? 'not-read' : 'absent',
  });
}

/** Fields on which the QR and the credential disagree (hidden fields of the credential are skipped). */
export function compareQrFields(fields: QrFields, doc: Pick<Verified, 'record' | 'targetHash' | 'diplomaId'>): string[] {
  const differ: string[] = [];
  if (fields.target_hash !== doc.targetHash) differ.push('target_hash');
  if (fields.diploma_id !== doc.diplomaId) differ.push('diploma_id');
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'target_hash' || key === 'diploma_id') continue;
    const recorded = (doc.record as Record<string, unknown>)[key];
    if (recorded !== undefined && recorded !== value) differ.push(key);
  }
  return differ;
}

function checkIdentity(doc: Verified, context: VerificationContext): { check: Check; pinned?: PinnedIssuer } {
  const trust = context.issuer;
  const issuer = doc.issuer;
  const registry = { chainId: issuer.registry.chain_id, address: issuer.registry.contract };
  const details = {
    issuer: issuer.id,
    name: issuer.name,
    jwksUrl: issuer.jwks_url,
    chainId: issuer.registry.chain_id,
    contract: issuer.registry.contract,
    basis: trust.basis ?? 'configured',
  };
  const identity = (status: Check['status'], code: Extract<Check, { name: 'issuer_identity' }>['code'], extra: Record<string, unknown> = {}) => ({
    check: check('issuer_identity', status, code, { ...details, ...extra }),
  });
  if (trust.basis === 'trust-list') {
    // The issuer the credential names must be pinned, with the registry it names; its keys are checked next.
    if (trust.issuers.length === 0) return identity('not-checked', 'no_trusted_issuer');
    const expected = (list: readonly PinnedIssuer[]) => list.map((p) => ({ ...checkedIssuer(p), chainId: p.registry.chainId, contract: p.registry.address.toLowerCase() }));
    const sameId = trust.issuers.filter((p) => p.id === issuer.id);
    if (sameId.length === 0) return identity('failed', 'issuer_mismatch', { expected: expected(trust.issuers) });
    const pinned = sameId.find((p) => sameRegistry(p.registry, registry));
    if (!pinned) return identity('failed', 'registry_mismatch', { expected: expected(sameId) });
    return { ...identity('passed', 'issuer_matches', { basis: 'trust-list', trusted: checkedIssuer(pinned) }), pinned };
  }
  if (trust.id !== undefined && issuer.id !== trust.id) return identity('failed', 'issuer_mismatch', { expected: trust.id });
  if (trust.jwksUrl !== undefined && issuer.jwks_url !== trust.jwksUrl) return identity('failed', 'jwks_url_mismatch', { expected: trust.jwksUrl });
  if (trust.registry && !sameRegistry(trust.registry, registry)) {
    return identity('failed', 'registry_mismatch', { expected: { chainId: trust.registry.chainId, contract: trust.registry.address.toLowerCase() } });
  }
  if (trust.basis === 'declared') {
    if (keysServedByIssuer(issuer.jwks_url, issuer.id)) return identity('passed', 'issuer_matches', { basis: 'issuer-domain' });
    if (trust.keysPinned) return identity('passed', 'issuer_matches', { basis: 'pinned-keys' });
    return identity('not-checked', 'issuer_unconfirmed');
  }
  return identity('passed', 'issuer_matches');
}

function checkedIssuer(pinned: PinnedIssuer): CheckedIssuer {
  return { id: pinned.id, name: pinned.name, ...(pinned.development ? { development: true } : {}) };
}

/** The result's `trustedIssuer`: the pinned issuer matched, or the configured one. */
function trustedIssuerOf(context: VerificationContext, pinned: PinnedIssuer | undefined): { trustedIssuer?: CheckedIssuer } {
  if (pinned) return { trustedIssuer: checkedIssuer(pinned) };
  const trust = context.issuer;
  if (trust.basis !== 'trust-list' && trust.basis !== 'declared' && trust.name !== undefined) return { trustedIssuer: { id: trust.id, name: trust.name } };
  return {};
}

/**
 * Whether a declared issuer's keys are served over HTTPS from its own domain (or a subdomain): the
 * domain's owner is then who signed. Plain HTTP counts for localhost only.
 */
export function keysServedByIssuer(jwksUrl: string, issuerId: string): boolean {
  let url: URL;
  try {
    url = new URL(jwksUrl);
  } catch {
    return false;
  }
  const host = issuerId.includes(':') ? url.host : url.hostname;
  const onDomain = host === issuerId || host.endsWith(`.${issuerId}`);
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname.endsWith('.localhost');
  return onDomain && (url.protocol === 'https:' || (url.protocol === 'http:' && local));
}

function sameRegistry(a: RegistryRef, b: RegistryRef): boolean {
  return a.chainId === b.chainId && a.address.toLowerCase() === b.address.toLowerCase();
}

function checkSignatures(doc: Verified, companions: Companions, jwks: Jwks | null, anchoredAt: SigningTime | null): { check: Check; qrFields?: QrFields } {
  if (!jwks) return { check: check('issuer_signature', 'not-checked', 'jwks_unavailable') };
  const root = checkRootSignature(doc.merkleRoot, doc.issuerSignature, jwks);
  if (root === 'unknown-key') return { check: check('issuer_signature', 'failed', 'unknown_key', { signed: 'root', kid: doc.issuerSignature?.kid }) };
  if (root === 'bad-signature') return { check: check('issuer_signature', 'failed', 'bad_signature', { signed: 'root', kid: doc.issuerSignature?.kid }) };

  let qrFields: QrFields | undefined;
  const qr = companions.qrVerified ?? (companions.qrText !== undefined ? checkQrPayload(companions.qrText, jwks) : undefined);
  if (qr) {
    if (qr.status !== 'valid') return { check: qrSignatureFailure(qr) };
    qrFields = qr.fields;
  }
  const signed = [root === 'valid' ? 'root' : null, qr ? 'qr' : null].filter(Boolean);
  const details = { signed, kid: doc.issuerSignature?.kid ?? (qr?.status === 'valid' ? qr.kid : undefined) };
  // A retired key signs nothing after its retirement: the root and the QR are dated by the batch's anchoring.
  const retired = retiredSigners(jwks, [root === 'valid' ? ['root', doc.issuerSignature?.kid] : null, qr?.status === 'valid' ? ['qr', qr.kid] : null]);
  const late = retired.find((r) => signedWhen(r.key, anchoredAt) === 'after');
  if (late) {
    const code = signedWhileCompromised(late.key, anchoredAt) ? 'key_compromised' : 'key_retired';
    return { check: check('issuer_signature', 'failed', code, { signed: late.signed, ...retiredDetails(late.key, anchoredAt) }) };
  }
  const undated = retired.find((r) => signedWhen(r.key, anchoredAt) === 'unknown');
  if (undated) {
    return {
      check: check('issuer_signature', 'not-checked', 'signing_time_unknown', { signed: undated.signed, ...retiredDetails(undated.key, null) }),
      ...(qrFields ? { qrFields } : {}),
    };
  }
  if (root === 'absent') return { check: check('issuer_signature', 'not-checked', 'signature_absent', details), ...(qrFields ? { qrFields } : {}) };
  return { check: check('issuer_signature', 'passed', 'signature_valid', details), ...(qrFields ? { qrFields } : {}) };
}

function qrSignatureFailure(qr: Exclude<QrVerification, { status: 'valid' }>): Check {
  if (qr.status === 'malformed') return check('issuer_signature', 'failed', 'qr_malformed', { signed: 'qr', problem: qr.error });
  return check('issuer_signature', 'failed', qr.status === 'unknown-key' ? 'unknown_key' : 'bad_signature', { signed: 'qr', kid: qr.kid });
}

function retiredSigners(jwks: Jwks, signers: ([string, string | undefined] | null)[]): { signed: string; key: RetiredKey }[] {
  const out: { signed: string; key: RetiredKey }[] = [];
  for (const signer of signers) {
    const key = signer ? retiredKeyOf(jwks, signer[1]) : null;
    if (key) out.push({ signed: signer![0], key });
  }
  return out;
}

async function checkPdfSignature(
  signature: PdfSignatureAnalysis,
  jwks: () => Promise<Jwks | null>,
  context: VerificationContext,
  anchoredAt: SigningTime | null,
  diplomaId?: string,
): Promise<Check> {
  const problem = signature.problem;
  if (problem === 'no signature') return check('pdf_signature', 'failed', 'pdf_unsigned');
  if (!signature.intact) {
    return check('pdf_signature', 'failed', signature.digestOk ? 'pdf_bad_signature' : 'pdf_modified', { problem });
  }
  if (!signature.coversWholeFile) return check('pdf_signature', 'failed', 'pdf_changed_after_signing', problem ? { problem } : undefined);
  const keys = await jwks();
  if (!keys) return check('pdf_signature', 'not-checked', 'jwks_unavailable');
  const signer = signature.signerCertificateDer ? findSignerKey(signature.signerCertificateDer, keys) : null;
  if (!signer) return check('pdf_signature', 'failed', 'pdf_unknown_signer', { subject: certificateSubject(signature.signerCertificateDer) });
  const later = signature.later ? { later: signature.later } : {};
  const details = { kid: signer.kid, subject: signer.subject, ...later };
  const valid = () => check('pdf_signature', 'passed', signature.later ? 'pdf_signature_valid_ltv' : 'pdf_signature_valid', details);

  const key = retiredKeyFromJwk(
    signer.kid,
    keys.keys.find((k) => keyIdOf(k) === signer.kid),
  );
  if (!key) return valid();
  // A retired key (ADR 0148): dated by a trusted time-stamp over its signature (its own, or a
  // document time-stamp of a later revision), else only by the caller's record of this very file.
  // The batch's anchoring alone dates nothing here: a thief of the key renders a PDF afresh,
  // attaching a genuine credential anchored long ago.
  const stamped = trustedSignatureTime(signature, tsaAnchorsFor(context, keys));
  // A document time-stamp says the signature existed by then, not when it was made: one after the
  // retirement (a renewal) proves nothing either way. The signature's own time-stamp is its time.
  let signedAt = stamped.time && (stamped.time.source === 'timestamp' || stamped.time.at.getTime() <= key.retiredAt.getTime()) ? stamped.time : null;
  let recorded: boolean | null = null;
  if (!signedAt && diplomaId && context.issuedPdf) {
    recorded = await context.issuedPdf(diplomaId, signature.signedBytes).catch(() => null);
    if (recorded === true && anchoredAt) signedAt = { at: anchoredAt.at, source: 'record' };
  }
  // A time-stamp within its precision of the retirement dates nothing: the issuer's record may.
  if (signedAt && signedWhen(key, signedAt) === 'unknown' && diplomaId && context.issuedPdf) {
    recorded = await context.issuedPdf(diplomaId, signature.signedBytes).catch(() => null);
    if (recorded === true && anchoredAt) signedAt = { at: anchoredAt.at, source: 'record' };
  }
  const facts = { ...details, ...retiredDetails(key, signedAt), ...(stamped.problem ? { timestampProblem: stamped.problem } : {}) };
  const when = signedWhen(key, signedAt);
  if (when === 'after') return check('pdf_signature', 'failed', signedWhileCompromised(key, signedAt) ? 'pdf_key_compromised' : 'pdf_key_retired', facts);
  if (when === 'before') return check('pdf_signature', 'passed', signature.later ? 'pdf_signature_valid_ltv' : 'pdf_signature_valid', facts);
  // Nothing trusted dates it: the issuer, which keeps every file it issued, says it never issued this one.
  if (recorded === false) return check('pdf_signature', 'failed', 'pdf_not_issued', facts);
  return check('pdf_signature', 'not-checked', 'pdf_signing_time_unknown', facts);
}

function keyIdOf(key: unknown): string | undefined {
  const k = key as Partial<EcPublicJwk>;
  if (typeof k.kid === 'string') return k.kid;
  try {
    return toBase64url(shortKeyId(k as EcPublicJwk));
  } catch {
    return undefined;
  }
}

/**
 * The earliest trusted time the signature is known to have existed at: its RFC 3161 signature
 * timestamp (checked over the signature value by verifyPdfSignature) or a document timestamp of a
 * later revision (checked over everything before it, the signature included), each only if its TSA
 * is trusted; else null, and why.
 */
function trustedSignatureTime(signature: PdfSignatureAnalysis, anchors: ReturnType<typeof tsaAnchorsOf>): { time: SigningTime | null; problem?: string } {
  const times: SigningTime[] = [];
  let problem: string | undefined = signature.timestampProblem;
  const stamp = signature.signatureTimestamp;
  if (!problem && stamp) {
    if (trustedTsa(stamp, anchors)) times.push({ at: stamp.genTime, source: 'timestamp' });
    else problem = 'the signature timestamp is from a TSA that is not trusted';
  }
  for (const document of signature.later?.documentTimestamps ?? []) {
    const at = document.genTime ? Date.parse(document.genTime) : Number.NaN;
    if (document.trusted && Number.isFinite(at)) times.push({ at: new Date(at), source: 'document-timestamp' });
  }
  const earliest = times.reduce<SigningTime | null>((first, t) => (!first || t.at.getTime() < first.at.getTime() ? t : first), null);
  return earliest ? { time: earliest } : { time: null, ...(problem ? { problem } : {}) };
}

/** The TSAs trusted to date signatures: the issuer's own CAs, the trust list's and the caller's (ADR 0138). */
function tsaAnchorsFor(context: VerificationContext, keys: Jwks | null) {
  const listed = context.issuer.basis === 'trust-list' ? context.issuer.issuers.flatMap((p) => p.timestampAuthorities ?? []) : [];
  return tsaAnchorsOf(keys, [...listed, ...(context.timestampAuthorities ?? [])]);
}

// -------------------------------------------------------------------------------------------
// Chain
// -------------------------------------------------------------------------------------------

function trustedRegistry(context: VerificationContext): RegistryRef | undefined {
  if (context.issuer.basis === 'trust-list') return undefined;
  if (context.issuer.registry) return context.issuer.registry;
  return typeof context.registry === 'function' ? undefined : { chainId: context.registry.chainId, address: context.registry.address };
}

function portFor(context: VerificationContext, ref: RegistryRef, issuer: { id: string; jwksUrl: string } | null): RegistryPort {
  return typeof context.registry === 'function' ? context.registry(ref, issuer) : context.registry;
}

function chainFailure(name: 'anchored' | 'not_revoked', error: unknown): Check {
  const kind = (error as { kind?: unknown })?.kind;
  const message = error instanceof Error ? error.message : String(error);
  if (kind === 'unreachable' || kind === 'pending') return check(name, 'not-checked', 'chain_unreachable', { problem: message });
  return check(name, 'not-checked', 'chain_error', { problem: message, ...(typeof kind === 'string' ? { kind } : {}) });
}

async function checkAnchoring(port: RegistryPort, ref: RegistryRef, merkleRoot: string): Promise<Check> {
  const where = { chainId: ref.chainId, contract: ref.address.toLowerCase(), root: hex0x(merkleRoot) };
  if (!sameRegistry(port, ref)) return check('anchored', 'not-checked', 'chain_error', { ...where, problem: `the chain port reads ${port.address} on chain ${port.chainId}` });
  try {
    const issuance = await port.findIssuance(hex0x(merkleRoot));
    if (!issuance) return check('anchored', 'failed', 'root_not_issued', where);
    return check('anchored', 'passed', 'root_issued', { ...where, txHash: issuance.txHash, blockNumber: issuance.blockNumber, timestamp: issuance.timestamp });
  } catch (error) {
    return chainFailure('anchored', error);
  }
}

async function checkRevocation(port: RegistryPort, targetHash: string, merkleRoot: string | null): Promise<Check> {
  const hashes = [hex0x(targetHash), ...(merkleRoot ? [hex0x(merkleRoot)] : [])];
  try {
    const revoked = await Promise.all(hashes.map((h) => port.isRevoked(h)));
    const index = revoked.indexOf(true);
    if (index < 0) return check('not_revoked', 'passed', 'not_revoked', { checked: hashes });
    const hash = hashes[index]!;
    const revocation = await port.findRevocation?.(hash).catch(() => null);
    const details = { hash, ...(revocation ? { txHash: revocation.txHash, blockNumber: revocation.blockNumber, timestamp: revocation.timestamp, reason: revocation.reason } : {}) };
    return check('not_revoked', 'failed', index === 0 ? 'diploma_revoked' : 'batch_revoked', details);
  } catch (error) {
    return chainFailure('not_revoked', error);
  }
}

// -------------------------------------------------------------------------------------------
// Keys
// -------------------------------------------------------------------------------------------

/** The issuer whose keys to ask for before a credential names one (a PDF without one, a bare QR). */
function trustedKeysHint(context: VerificationContext): { id: string; jwksUrl: string } | null {
  if (context.issuer.basis === 'trust-list') return null;
  const { id, jwksUrl } = context.issuer;
  return id !== undefined && jwksUrl !== undefined ? { id, jwksUrl } : null;
}

/** Whether keys are known before a credential names its issuer: pinned ones, or a trusted issuer's. */
function hasKeysBeforeIssuer(context: VerificationContext): boolean {
  return context.issuer.basis === 'trust-list' || trustedKeysHint(context) !== null;
}

/** The keys to check what comes before a credential (a PDF's signer, a bare QR): every pinned key under a trust list. */
async function keysBeforeIssuer(context: VerificationContext): Promise<Jwks | null> {
  if (context.issuer.basis === 'trust-list') {
    const keys = context.issuer.issuers.flatMap((p) => p.jwks.keys);
    return keys.length ? { keys } : null;
  }
  return jwksOf(context, trustedKeysHint(context));
}

async function jwksOf(context: VerificationContext, issuer: { id: string; jwksUrl: string } | null): Promise<Jwks | null> {
  try {
    const jwks = await context.jwks(issuer);
    return jwks && Array.isArray(jwks.keys) ? jwks : null;
  } catch {
    return null;
  }
}

function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => (promise ??= fn());
}

// -------------------------------------------------------------------------------------------
// Public fields
// -------------------------------------------------------------------------------------------

/** The fields shown beside the verdict: the credential's public set (ADR 0134), id and issuer apart. */
const PUBLIC_RECORD_FIELDS = PUBLIC_FIELDS.filter((field) => !(REQUIRED_DISCLOSED_FIELDS as readonly string[]).includes(field));

function diplomaFromRecord(doc: Verified): PublicDiploma {
  const diploma: PublicDiploma = { id: doc.diplomaId };
  const record = doc.record as Record<string, unknown>;
  for (const field of PUBLIC_RECORD_FIELDS) if (record[field] !== undefined) (diploma as unknown as Record<string, unknown>)[field] = record[field];
  diploma.issuer = { id: doc.issuer.id, name: doc.issuer.name };
  if (doc.hiddenFields.length) diploma.hidden_fields = [...doc.hiddenFields];
  return diploma;
}

function diplomaFromQr(fields: QrFields): PublicDiploma {
  const { diploma_id, last_name, middle_name, first_name, birth_date, option_code, school_code, centre_code, session_year, percentage, issue_date } = fields;
  return { id: diploma_id, last_name, middle_name, first_name, birth_date, option_code, school_code, centre_code, session_year, percentage, issue_date };
}
