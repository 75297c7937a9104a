/// <reference path="./digitalbazaar.d.ts" />
import * as EcdsaMultikey from '@digitalbazaar/ecdsa-multikey';
import { CONTEXT_URLS } from './contexts.ts';

/**
 * The ministry's `did:web` (ADR 0144): the platform's public address as a DID, resolved from the
 * ministry's own domain (`/.well-known/did.json`, or `<path>/did.json` when the platform lives
 * under a path). The DID document lists every key that ever signed, as Multikey verification
 * methods, so credentials signed before a rotation keep resolving their key.
 */

/** `https://diplomes.example.cd` → `did:web:diplomes.example.cd`; a port is percent-encoded, a path adds `:` segments. */
export function didWebFor(publicUrl: string): string {
  const url = new URL(publicUrl);
  const host = encodeURIComponent(url.host);
  const segments = url.pathname
    .split('/')
    .filter((s) => s.length > 0)
    .map(encodeURIComponent);
  return ['did:web', host, ...segments].join(':');
}

/** Where a `did:web` document is served (the did:web method's rule; `https` unless `insecure` for a local platform). */
export function didWebDocumentUrl(did: string, options: { insecure?: boolean } = {}): string {
  const parts = did.split(':');
  if (parts[0] !== 'did' || parts[1] !== 'web' || parts.length < 3) throw new Error(`not a did:web: ${did}`);
  const host = decodeURIComponent(parts[2]!);
  const path = parts.slice(3).map(decodeURIComponent);
  const scheme = options.insecure ? 'http' : 'https';
  return path.length === 0 ? `${scheme}://${host}/.well-known/did.json` : `${scheme}://${host}/${path.join('/')}/did.json`;
}

/** One of the ministry's keys as the platform publishes it (the JWKS entry, ADR 0136). */
export interface IssuerKey {
  kid: string;
  publicJwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string };
  /** Nothing the key signed after this time is valid (ISO 8601); null for the active key. */
  retiredAt: string | null;
}

export interface VerificationMethod {
  id: string;
  type: 'Multikey';
  controller: string;
  publicKeyMultibase: string;
  /** A retired key: no proof it made after this time is valid (our verifier compares the proof's `created`). */
  expires?: string;
}

export interface DidDocument {
  '@context': string[];
  id: string;
  verificationMethod: VerificationMethod[];
  assertionMethod: string[];
}

/** The verification method id of a key: the DID, `#`, the key's short id (as in the JWKS). */
export function verificationMethodId(did: string, kid: string): string {
  return `${did}#${kid}`;
}

export async function multikeyOf(jwk: IssuerKey['publicJwk']): Promise<string> {
  const key = await EcdsaMultikey.fromJwk({ jwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y } });
  return key.publicKeyMultibase;
}

/**
 * The DID document of the ministry: every key, active and retired, in `verificationMethod` and
 * `assertionMethod` (a retired key still proves what it signed before its retirement).
 */
export async function buildDidDocument(did: string, keys: IssuerKey[]): Promise<DidDocument> {
  const methods: VerificationMethod[] = [];
  for (const key of keys) {
    const method: VerificationMethod = {
      id: verificationMethodId(did, key.kid),
      type: 'Multikey',
      controller: did,
      publicKeyMultibase: await multikeyOf(key.publicJwk),
    };
    if (key.retiredAt) method.expires = new Date(key.retiredAt).toISOString();
    methods.push(method);
  }
  return {
    '@context': [CONTEXT_URLS.didV1, CONTEXT_URLS.multikeyV1],
    id: did,
    verificationMethod: methods,
    assertionMethod: methods.map((m) => m.id),
  };
}
