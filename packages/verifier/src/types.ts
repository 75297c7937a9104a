import type { DocumentVerification, Jwks } from '@sceau/credential';
import type { PinnedIssuer } from './trust-list.ts';

/** What is being verified. */
export type VerificationInput =
  /** Our diploma PDF: embedded credential, PAdES signature, and its two QR codes when readable. */
  | { pdf: Uint8Array }
  /** The credential document (parsed JSON or JSON text). */
  | { credential: unknown }
  /** The content of either QR code: the signed "SC1:…" payload, or the `/verify/{id}` link. */
  | { qr: string }
  /** A diploma id, from a `/verify/{id}` link. */
  | { diplomaId: string };

export type VerificationSource = 'pdf' | 'credential' | 'qr' | 'link';

export type CheckName = 'integrity' | 'issuer_signature' | 'issuer_identity' | 'anchored' | 'not_revoked' | 'pdf_signature';
export type CheckStatus = 'passed' | 'failed' | 'not-checked';
export type Verdict = 'authentic' | 'revoked' | 'altered' | 'unknown' | 'unpublished' | 'incomplete';

/** Every reason code, per check (README.md has their English and French texts). */
export const CHECK_CODES = {
  integrity: {
    passed: ['hashes_match'],
    failed: ['target_hash_mismatch', 'merkle_proof_mismatch', 'malformed_credential', 'credential_missing', 'qr_credential_mismatch'],
    'not-checked': ['not_a_diploma', 'diploma_not_found', 'credential_unavailable'],
  },
  issuer_signature: {
    passed: ['signature_valid'],
    failed: ['unknown_key', 'bad_signature', 'qr_malformed', 'key_retired', 'key_compromised'],
    'not-checked': ['jwks_unavailable', 'signature_absent', 'signing_time_unknown', 'skipped_after_failure'],
  },
  issuer_identity: {
    passed: ['issuer_matches', 'issuer_key'],
    failed: ['issuer_mismatch', 'jwks_url_mismatch', 'registry_mismatch'],
    'not-checked': ['issuer_unconfirmed', 'no_trusted_issuer', 'skipped_after_failure'],
  },
  anchored: {
    passed: ['root_issued'],
    failed: ['root_not_issued', 'not_yet_published'],
    'not-checked': ['chain_unreachable', 'chain_error', 'proof_unavailable', 'skipped_after_failure'],
  },
  not_revoked: {
    passed: ['not_revoked'],
    failed: ['diploma_revoked', 'batch_revoked'],
    'not-checked': ['chain_unreachable', 'chain_error', 'registry_unknown', 'batch_unchecked', 'skipped_after_failure'],
  },
  pdf_signature: {
    passed: ['pdf_signature_valid', 'pdf_signature_valid_ltv'],
    failed: ['pdf_unsigned', 'pdf_modified', 'pdf_changed_after_signing', 'pdf_bad_signature', 'pdf_unknown_signer', 'pdf_key_retired', 'pdf_key_compromised', 'pdf_not_issued'],
    'not-checked': ['jwks_unavailable', 'pdf_signing_time_unknown'],
  },
} as const satisfies Record<CheckName, Record<CheckStatus, readonly string[]>>;

type CodesOf<N extends CheckName> = (typeof CHECK_CODES)[N][CheckStatus][number];
export type CheckCode = { [N in CheckName]: CodesOf<N> }[CheckName];

export type Check = {
  [N in CheckName]: {
    name: N;
    status: CheckStatus;
    /** Stable reason code; the API and the web translate it (no message in the engine). */
    code: CodesOf<N>;
    /** Facts behind the outcome, e.g. for `anchored`: chainId, contract, root, txHash, blockNumber, timestamp. */
    details?: Record<string, unknown>;
  };
}[CheckName];

/** The diploma's public fields, shown beside the verdict; present only if no check failed. */
export interface PublicDiploma {
  id: string;
  /** The printed serial (credential version 2). */
  serial?: string;
  last_name?: string;
  middle_name?: string;
  first_name?: string;
  birth_date?: string;
  option?: string;
  option_code?: string;
  school?: string;
  school_code?: string;
  centre?: string;
  centre_code?: string;
  session?: string;
  session_year?: number;
  percentage?: number;
  issue_date?: string;
  issuer?: { id: string; name: string };
  /** Record fields the holder hid (selective disclosure). */
  hidden_fields?: string[];
}

export interface VerificationResult {
  verdict: Verdict;
  checks: Check[];
  diploma?: PublicDiploma;
  source: VerificationSource;
  /** The hashes this answer depends on (a cache drops it when either is revoked or anchored). */
  hashes?: { targetHash: string; merkleRoot?: string };
  /**
   * The issuer the diploma was checked against: the trust list's entry it matched (or, when none
   * did, every pinned issuer: `expected`), or the configured one. Absent for a declared issuer.
   */
  trustedIssuer?: CheckedIssuer;
}

export interface CheckedIssuer {
  id: string;
  name: string;
  /** From a development platform's keys (never a national issuer). */
  development?: boolean;
}

export type Hex = `0x${string}`;

/** Read-only view of the DiplomaRegistry (`registryPort()` adapts @sceau/chain's client). */
export interface RegistryPort {
  chainId: number;
  /** Contract address, 0x-prefixed (any case). */
  address: string;
  isIssued(root: Hex): Promise<boolean>;
  isRevoked(hash: Hex): Promise<boolean>;
  findIssuance(root: Hex): Promise<{ txHash: string | null; blockNumber: number; timestamp: number } | null>;
  /** Optional: adds the revocation's transaction and reason to `not_revoked`'s details. */
  findRevocation?(hash: Hex): Promise<{ txHash: string | null; blockNumber: number; timestamp: number; reason: string | null } | null>;
}

export interface RegistryRef {
  chainId: number;
  address: string;
}

/**
 * Who we trust. `configured` (the API): a credential must name exactly this issuer, key URL and
 * registry. `trust-list` (the independent verifier and the browser by default, ADR 0133): a
 * credential must name one of these issuers and its registry, and be signed with one of its keys,
 * which come from the list (never fetched). `declared` (the independent verifier with --jwks, or
 * --issuer for an issuer not in its list): the credential's own issuer block is taken, and
 * confirmed if its keys are served over HTTPS from the issuer's own domain, or if the user supplied
 * the keys (`keysPinned`); otherwise issuer_identity is not-checked. Any field given pins it.
 */
export type TrustedIssuer =
  | { basis?: 'configured'; id: string; name?: string; jwksUrl: string; registry: RegistryRef }
  | { basis: 'trust-list'; issuers: readonly PinnedIssuer[] }
  | { basis: 'declared'; id?: string; jwksUrl?: string; registry?: RegistryRef; keysPinned?: boolean };

export interface VerificationContext {
  /** The issuer's published keys, retired ones included. May throw: the signature is then not-checked. */
  jwks(issuer: { id: string; jwksUrl: string } | null): Promise<Jwks>;
  /** The chain, or a factory for the registry a credential names (independent verifier). */
  registry: RegistryPort | ((ref: RegistryRef, issuer: { id: string; jwksUrl: string } | null) => RegistryPort);
  issuer: TrustedIssuer;
  /** The full credential of a diploma (the API: its database; the verifier: the public API). null: unknown. */
  findCredential?(diplomaId: string): Promise<unknown | null>;
  /** true for a diploma the caller knows whose batch is not anchored yet: verdict 'unpublished'. */
  knownUnpublished?(diplomaId: string): boolean | Promise<boolean>;
  /**
   * Told of a credential whose hashes and proof are intact (before the signature, chain and
   * revocation checks), with what `verifyDocument` computed for it: the API reuses its field hashes
   * to reduce the same credential to its public form (ADR 0153, third pass). Must not throw.
   */
  credentialChecked?(credential: unknown, checked: Extract<DocumentVerification, { integrity: 'ok' }>): void;
  /**
   * Whether the caller vouches that this very credential (the value `findCredential` gave) passed
   * `verifyDocument` before and has not changed since (ADR 0154: the API's seal recorded at
   * issuance, under a key outside the database). When true the engine takes its stated targetHash
   * and merkleRoot after the structural check (`attestedDocument`) instead of hashing it again;
   * every other check — the root's signature and its key's state, the issuer, the link's id, the
   * anchoring, the revocations, an unpublished batch — runs as always. Asked only for a credential
   * that came from `findCredential`. Must not throw; absent or false: the full check.
   */
  attested?(credential: unknown): boolean;
  /**
   * The full parse of a PDF that is not the issuer's own (its credential attachment and QR texts):
   * the API runs it in a thread with limits (createPdfParsePool, ADR 0114) and lets its errors
   * (PdfTooComplex, PdfParserBusy) reach the caller. Without it, pdf-lib runs in-process.
   */
  parsePdf?(pdf: Uint8Array): Promise<{ attachment: Uint8Array | null; codes: string[] }>;
  /**
   * Time-stamping authorities the caller trusts (DER certificates: a TSA's own, or the CA that
   * issued it), besides the issuer's own CAs (the x5c of its keys) and the trust list's (ADR 0138).
   * A signature timestamp from any other TSA is not used to date a signature.
   */
  timestampAuthorities?: readonly Uint8Array[];
  /**
   * Whether the caller issued exactly this signed revision of the diploma's PDF (the API: its stored
   * file begins with these bytes). true: issued; false: the caller holds another file for that
   * diploma, or none; null: it cannot tell. Asked only for a PDF signed by a retired key that no
   * trusted time-stamp dates (ADR 0148): what a thief of the key could make, or an old genuine one.
   */
  issuedPdf?(diplomaId: string, signedRevision: Uint8Array): Promise<boolean | null>;
}
