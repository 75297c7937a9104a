import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { OpenChain } from '../chain/open-chain.ts';
import type { MinistryKeys } from '../keys/ministry-keys.ts';
import type { TimestampingService } from '../timestamping/timestamping-service.ts';

/** Who issues the diplomas, as anyone can check it on the ministry's own domain. */
export function issuerDocument(config: Config, keys: MinistryKeys, chain: Pick<OpenChain, 'chainId' | 'address' | 'local'>, timestampAuthorities: readonly Uint8Array[] = []) {
  const base = config.publicUrl.replace(/\/$/, '');
  return {
    id: config.issuer.id,
    name: config.issuer.name,
    // How the issuer is known and reached today (ADR 0129); a credential keeps the name it was signed with.
    name_en: config.issuer.nameEn,
    short_name: config.issuer.shortName,
    logo_uri: config.issuer.emblemUrl ? new URL(config.issuer.emblemUrl, `${base}/`).href : null,
    contact: { email: config.issuer.email, phone: config.issuer.phone, address: config.issuer.address, website: config.issuer.website },
    url: base,
    jwks_uri: `${base}/.well-known/jwks.json`,
    verify_url: `${base}/verify/{id}`,
    credential_url: `${base}/api/verify/{id}`,
    active_key: keys.active.kid,
    registry: {
      chain_id: chain.chainId,
      address: chain.address,
      // The local development chain listens on this machine only: its address helps a verifier run here.
      rpc_url: config.chain.publicRpcUrl ?? chain.local?.rpcUrl ?? null,
      explorer_tx_url: config.chain.explorerTxUrl,
    },
    // The TSAs whose time-stamps date this issuer's signatures (ADR 0148): base64 DER, for the trust
    // list and the independent verifier. The issuer's own CAs (its keys' x5c) need no listing.
    ...(timestampAuthorities.length ? { timestamp_authorities: timestampAuthorities.map((der) => Buffer.from(der).toString('base64')) } : {}),
  };
}

/**
 * The issuer's published identity: its keys (every key that ever signed, with certificates) and
 * the registry contract. In production the ministry's domain serves these, and a DNS TXT record
 * repeats the registry address.
 */
export async function wellKnownRoutes(
  app: FastifyInstance,
  opts: { config: Config; keys: MinistryKeys; chain: Pick<OpenChain, 'chainId' | 'address' | 'local'>; timestamping?: TimestampingService | null },
) {
  const cache = (reply: { header(name: string, value: string): unknown }) => {
    reply.header('cache-control', 'public, max-age=300');
    reply.header('access-control-allow-origin', '*');
  };
  app.get(
    '/.well-known/jwks.json',
    { config: { access: 'public' }, schema: { tags: ['identity'], summary: "The issuer's public keys (JWKS), every key that ever signed" } },
    async (_, reply) => {
      cache(reply);
      return opts.keys.jwks();
    },
  );
  app.get(
    '/.well-known/sceau-issuer.json',
    { config: { access: 'public' }, schema: { tags: ['identity'], summary: 'The issuer: its keys, verification URLs and registry contract' } },
    async (_, reply) => {
      cache(reply);
      // A TSA_TRUST_ANCHORS file that cannot be read fails the request: an issuer document without its TSAs would mislead.
      const authorities = (await opts.timestamping?.trustedAuthoritiesDer()) ?? [];
      return issuerDocument(opts.config, opts.keys, opts.chain, authorities);
    },
  );
}
