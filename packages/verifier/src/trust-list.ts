/**
 * The trust list (ADR 0133): the issuers a verifier accepts, each with its id, its names, every key
 * it ever signed with (a JWKS, kept here rather than fetched, so that whoever serves the keys
 * cannot add one) and its registry (chain id, contract). The independent verifier and the browser's
 * offline QR check pin these by default; `trustListEntry` builds an entry from a platform's
 * `/.well-known/sceau-issuer.json` and `/.well-known/jwks.json`, so that a ministry ships its own.
 * No I/O here: the CLI reads and writes the files, the web app bundles the shipped one.
 */
import { z } from 'zod';
import type { Jwks } from '@sceau/credential/jwk';
import { carriesPrivateKey } from '@sceau/sd-jwt/public-jwk';
import type { RegistryRef } from './types.ts';

export const TRUST_LIST_FORMAT = 'sceau-trust-list/1';
/** A trust list larger than this is refused before parsing (a national list holds a few issuers). */
export const TRUST_LIST_MAX_BYTES = 1024 * 1024;

const base64url = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/);
const certificate = z.string().regex(/^[A-Za-z0-9+/=]{1,20000}$/);
const publicKeyMembers = z
  .object({
    kty: z.literal('EC'),
    crv: z.literal('P-256'),
    x: base64url,
    y: base64url,
    kid: z.string().max(200).optional(),
    alg: z.string().max(20).optional(),
    use: z.string().max(20).optional(),
    status: z.string().max(20).optional(),
    /** When the issuer retired the key (ISO 8601): nothing it signed after that time is valid (ADR 0138). */
    retired_at: z.iso.datetime({ offset: true }).optional(),
    /** When the issuer declared the key compromised from (ADR 0148): what it signed after is flagged as such. */
    compromised_at: z.iso.datetime({ offset: true }).optional(),
    x5c: z.array(certificate).max(10).optional(),
  })
  // Anything unknown is dropped: the engine reads only these members.
  .strip();
/**
 * A key of the list: public. One published with a private member (`d`…) is refused, never cleaned:
 * whoever can read the list can sign with that key, so nothing it signed proves anything, and the
 * list's publisher must replace the key, not just the file.
 */
const publicKey = z.preprocess((value, ctx) => {
  if (value !== null && typeof value === 'object' && carriesPrivateKey(value)) {
    ctx.addIssue({ code: 'custom', message: 'the list publishes this key with its private part: anyone can sign with it; it cannot be trusted', input: value });
  }
  return value;
}, publicKeyMembers);

const entrySchema = z.object({
  id: z.string().min(1).max(253),
  name: z.string().min(1).max(500),
  name_en: z.string().max(500).optional(),
  jwks_uri: z.url().max(2000).optional(),
  jwks: z.object({ keys: z.array(publicKey).min(1).max(100) }),
  registry: z.object({
    chain_id: z.number().int().positive(),
    address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    rpc_url: z.url().max(2000).nullable().optional(),
  }),
  /**
   * Time-stamping authorities whose signature timestamps date this issuer's signatures (ADR 0138):
   * base64 DER certificates, a TSA's own or the CA that issued it. The issuer's own CAs (after the
   * leaf in its keys' x5c) are trusted without being listed.
   */
  timestamp_authorities: z.array(certificate).max(10).optional(),
  /** Generated from a development platform's keys (DATA_DIR/trust-list.json): never a national issuer. */
  development: z.boolean().optional(),
  /** Where the entry was taken from, and when. */
  source: z.string().max(2000).optional(),
  updated_at: z.string().max(40).optional(),
});

const listSchema = z.object({
  format: z.literal(TRUST_LIST_FORMAT),
  issuers: z.array(entrySchema).max(100),
});

export type TrustListEntry = z.infer<typeof entrySchema>;
export type TrustList = z.infer<typeof listSchema>;

/** An issuer as the engine pins it (context.issuer `{ basis: 'trust-list', issuers }`). */
export interface PinnedIssuer {
  id: string;
  name: string;
  nameEn?: string;
  jwks: Jwks;
  registry: RegistryRef;
  rpcUrl?: string;
  /** Where its keys are published (its platform's address before `/.well-known/jwks.json`: the `iss` of its SD-JWT VCs and its did:web, ADR 0145). */
  jwksUri?: string;
  development?: boolean;
  /** Base64 DER certificates of the TSAs trusted for this issuer (besides its own CAs). */
  timestampAuthorities?: string[];
}

export class TrustListError extends Error {
  override name = 'TrustListError';
}

function problems(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

/** Reads a trust list (text or parsed JSON). Throws TrustListError naming what is wrong. */
export function parseTrustList(input: string | unknown, where = 'trust list'): TrustList {
  let value = input;
  if (typeof input === 'string') {
    if (input.length > TRUST_LIST_MAX_BYTES) throw new TrustListError(`${where}: larger than ${TRUST_LIST_MAX_BYTES} bytes`);
    try {
      value = JSON.parse(input);
    } catch (error) {
      throw new TrustListError(`${where}: not JSON (${(error as Error).message})`);
    }
  }
  const parsed = listSchema.safeParse(value);
  if (!parsed.success) throw new TrustListError(`${where}: ${problems(parsed.error)}`);
  return parsed.data;
}

export function emptyTrustList(): TrustList {
  return { format: TRUST_LIST_FORMAT, issuers: [] };
}

export function pinnedIssuers(list: TrustList): PinnedIssuer[] {
  return list.issuers.map((entry) => ({
    id: entry.id,
    name: entry.name,
    ...(entry.name_en ? { nameEn: entry.name_en } : {}),
    jwks: entry.jwks,
    registry: { chainId: entry.registry.chain_id, address: entry.registry.address.toLowerCase() },
    ...(entry.registry.rpc_url ? { rpcUrl: entry.registry.rpc_url } : {}),
    ...(entry.jwks_uri ? { jwksUri: entry.jwks_uri } : {}),
    ...(entry.development ? { development: true } : {}),
    ...(entry.timestamp_authorities?.length ? { timestampAuthorities: entry.timestamp_authorities } : {}),
  }));
}

const issuerDocumentSchema = z.object({
  id: z.string().min(1).max(253),
  name: z.string().min(1).max(500),
  name_en: z.string().max(500).nullish(),
  jwks_uri: z.url().max(2000),
  registry: z.object({
    chain_id: z.number().int().positive(),
    address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    rpc_url: z.url().max(2000).nullish(),
  }),
  timestamp_authorities: z
    .array(z.string().regex(/^[A-Za-z0-9+/=]{1,20000}$/))
    .max(10)
    .nullish(),
});

/**
 * The entry of the issuer a platform publishes: its `/.well-known/sceau-issuer.json` and the key
 * set at its `jwks_uri` (every key, retired ones included). Throws TrustListError.
 */
export function trustListEntry(issuerDocument: unknown, jwks: unknown, options: { source?: string; now?: Date; development?: boolean } = {}): TrustListEntry {
  const doc = issuerDocumentSchema.safeParse(issuerDocument);
  if (!doc.success) throw new TrustListError(`sceau-issuer.json: ${problems(doc.error)}`);
  const keys = entrySchema.shape.jwks.safeParse(jwks);
  if (!keys.success) throw new TrustListError(`jwks: ${problems(keys.error)}`);
  const { id, name, name_en, jwks_uri, registry, timestamp_authorities } = doc.data;
  return {
    id,
    name,
    ...(name_en ? { name_en } : {}),
    jwks_uri,
    jwks: keys.data,
    registry: { chain_id: registry.chain_id, address: registry.address.toLowerCase(), ...(registry.rpc_url ? { rpc_url: registry.rpc_url } : {}) },
    ...(timestamp_authorities?.length ? { timestamp_authorities } : {}),
    ...(options.development ? { development: true } : {}),
    ...(options.source ? { source: options.source } : {}),
    updated_at: (options.now ?? new Date()).toISOString(),
  };
}

/**
 * The list with this entry added, or replacing the one for the same issuer and registry (a key
 * rotation adds keys to the same registry). An entry for another registry is kept: the diplomas
 * anchored there still verify.
 */
export function upsertTrustListEntry(list: TrustList, entry: TrustListEntry): TrustList {
  const same = (e: TrustListEntry) =>
    e.id === entry.id && e.registry.chain_id === entry.registry.chain_id && e.registry.address.toLowerCase() === entry.registry.address.toLowerCase();
  const at = list.issuers.findIndex(same);
  const issuers = at < 0 ? [...list.issuers, entry] : list.issuers.map((e, i) => (i === at ? entry : e));
  return { format: TRUST_LIST_FORMAT, issuers };
}

/** Pretty JSON, as written to a file. */
export function formatTrustList(list: TrustList): string {
  return `${JSON.stringify(list, null, 2)}\n`;
}
