import { endpoints } from '@sceau/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import type { Config } from '../../config.ts';
import { serve } from '../../lib/endpoints.ts';
import { AppError } from '../../lib/errors.ts';
import { consumeAll, pgRateLimiter } from '../../lib/rate-limits.ts';
import { actorOf } from '../../policies/actor.ts';
import { OAuthError } from './oauth-error.ts';
import { authorizationServerMetadata, credentialIssuerMetadata, credentialIssuerOf, OID4VCI_PATHS } from './oid4vci-metadata.ts';
import type { Oid4vciService, ResourceAccess } from './oid4vci-service.ts';

/** Largest token request read (a form of two short fields). */
export const TOKEN_BODY_LIMIT = 2048;
/** Largest credential request read (a configuration id and one key proof of a few hundred bytes). */
export const CREDENTIAL_BODY_LIMIT = 16 * 1024;
/** Largest notification read (an id, an event and a short description). */
export const NOTIFICATION_BODY_LIMIT = 2048;
/** Requests per minute and address on each protocol endpoint, like the other public routes. */
export const OID4VCI_REQUESTS_PER_MINUTE = 30;

/** Every failure of the protocol's endpoints: the OAuth error body (RFC 6749 section 5.2), not the platform's. */
const oauthError = z.object({ error: z.string(), error_description: z.string() });
const failures = { '4xx': oauthError, '5xx': oauthError };
const tokenResponse = z.object({
  access_token: z.string(),
  token_type: z.enum(['Bearer', 'DPoP']),
  expires_in: z.number().int(),
  c_nonce: z.string(),
  c_nonce_expires_in: z.number().int(),
});
const nonceResponse = z.object({ c_nonce: z.string() });
const issued = z.union([z.string(), z.record(z.string(), z.unknown())]);
/** 1.0's `credentials`, or draft 13's singular `credential` with a fresh `c_nonce`, as the request was. */
const credentialResponse = z.object({
  credentials: z.array(z.object({ credential: issued })).optional(),
  credential: issued.optional(),
  c_nonce: z.string().optional(),
  c_nonce_expires_in: z.number().int().optional(),
  notification_id: z.string(),
});

const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store').header('pragma', 'no-cache');

/**
 * The wallet's side of OpenID4VCI 1.0 (ADR 0146): token, nonce and credential endpoints, answering
 * every failure in the protocol's own form (`{ error, error_description }`), never the platform's.
 * They sit at the root beside the metadata that describes them, outside the platform's API and its
 * OpenAPI document, whose error body they do not use.
 */
async function protocolRoutes(app: FastifyInstance, opts: { service: Oid4vciService; db: AppContext['db'] }) {
  const { service } = opts;
  /** The public address of an endpoint, as a DPoP proof's `htu` names it (the metadata's, under PUBLIC_URL). */
  const urlOf = (path: string) => `${service.issuer}${path}`;
  const access = (request: FastifyRequest, path: string): ResourceAccess => ({
    authorization: request.headers.authorization,
    dpop: request.headers.dpop,
    method: request.method,
    url: urlOf(path),
  });
  const limiter = pgRateLimiter(opts.db.$client, { keyPrefix: 'oid4vci', points: OID4VCI_REQUESTS_PER_MINUTE, durationSeconds: 60 });
  const limit = (name: string) => async (request: FastifyRequest) => consumeAll([[limiter, `${name}:${request.ip}`]]);

  // The token request is a form (RFC 6749 section 4.1.3); a repeated field is refused, not guessed.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: TOKEN_BODY_LIMIT }, (_request, body, done) => {
    const params = new URLSearchParams(body as string);
    const form: Record<string, string> = {};
    for (const [name, value] of params) {
      if (name in form) return done(new OAuthError('invalid_request', `${name.slice(0, 40)} is repeated`), undefined);
      form[name] = value;
    }
    done(null, form);
  });

  app.setErrorHandler((error: FastifyError | OAuthError | AppError, request, reply) => {
    noStore(reply);
    if (error instanceof OAuthError) return reply.code(error.status).headers(error.headers).send(error.body);
    if (error instanceof AppError && error.code === 'rate_limited') {
      const seconds = Number(error.options.params?.seconds ?? 60);
      return reply
        .code(429)
        .header('retry-after', String(seconds))
        .send({ error: 'invalid_request', error_description: `Too many requests: retry in ${seconds} seconds` });
    }
    // A credential maker's refusal (a record it cannot read) is the issuer's failure, not the wallet's request.
    if (error instanceof AppError) {
      request.log.error({ err: error }, 'OpenID4VCI credential could not be made');
      return reply.code(500).send({ error: 'server_error', error_description: 'The credential could not be issued; try again later' });
    }
    const status = (error as FastifyError).statusCode;
    if (status === 413) return reply.code(413).send({ error: 'invalid_request', error_description: 'The request body is too large' });
    if (status === 415) return reply.code(415).send({ error: 'invalid_request', error_description: 'Unsupported content type' });
    if (status !== undefined && status >= 400 && status < 500) return reply.code(400).send({ error: 'invalid_request', error_description: 'The request could not be read' });
    request.log.error({ err: error }, 'OpenID4VCI request failed');
    return reply.code(500).send({ error: 'server_error', error_description: 'The credential could not be issued; try again later' });
  });

  app.post(
    OID4VCI_PATHS.token,
    {
      config: { access: 'public' },
      bodyLimit: TOKEN_BODY_LIMIT,
      onRequest: limit('token'),
      schema: {
        hide: true,
        tags: ['oid4vci'],
        summary: 'OpenID4VCI token endpoint: a pre-authorised code (form-encoded, single use) for a short access token',
        response: { 200: tokenResponse, ...failures },
      },
    },
    async (request, reply) => {
      if (request.headers['content-type']?.split(';')[0]?.trim() !== 'application/x-www-form-urlencoded') {
        throw new OAuthError('invalid_request', 'The token request must be application/x-www-form-urlencoded');
      }
      noStore(reply);
      return service.token(request.body as Record<string, string>, { header: request.headers.dpop, url: urlOf(OID4VCI_PATHS.token) });
    },
  );

  app.post(
    OID4VCI_PATHS.nonce,
    {
      config: { access: 'public' },
      bodyLimit: 1024,
      onRequest: limit('nonce'),
      schema: { hide: true, tags: ['oid4vci'], summary: 'OpenID4VCI nonce endpoint: a fresh c_nonce for a key proof', response: { 200: nonceResponse, ...failures } },
    },
    async (_request, reply) => {
      noStore(reply);
      return { c_nonce: await service.nonce() };
    },
  );

  app.post(
    OID4VCI_PATHS.credential,
    {
      config: { access: 'public' },
      bodyLimit: CREDENTIAL_BODY_LIMIT,
      onRequest: limit('credential'),
      schema: {
        hide: true,
        tags: ['oid4vci'],
        summary: "OpenID4VCI credential endpoint: the offered diploma as SD-JWT VC (bound to the proof's key) or Open Badges 3.0 VC",
        response: { 200: credentialResponse, ...failures },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return service.credential(access(request, OID4VCI_PATHS.credential), request.body);
    },
  );

  app.post(
    OID4VCI_PATHS.notification,
    {
      config: { access: 'public' },
      bodyLimit: NOTIFICATION_BODY_LIMIT,
      onRequest: limit('notification'),
      schema: {
        hide: true,
        tags: ['oid4vci'],
        summary: 'OpenID4VCI notification endpoint: the wallet tells whether it kept, failed to store or deleted a credential',
        response: { 204: z.null(), ...failures },
      },
    },
    async (request, reply) => {
      noStore(reply);
      await service.notification(access(request, OID4VCI_PATHS.notification), request.body);
      return reply.code(204).send();
    },
  );
}

/** Under /api: the holder's offer, a platform call like the others. */
export const oid4vciRoutes: FastifyPluginAsyncZod<AppContext & { oid4vci: Oid4vciService }> = async (app, { oid4vci }) => {
  serve(app, endpoints.holder.walletOffer, async (request, reply) => {
    const offer = await oid4vci.createOffer(actorOf(request), request.params.id, {
      txCode: request.body?.tx_code === true,
      txCodeDescription: request.t('messages:wallet_tx_code'),
    });
    return reply.code(201).header('cache-control', 'private, no-store').send({ data: offer });
  });
};

/**
 * At the root: the two metadata documents a wallet reads first (like the issuer's other
 * `/.well-known` files), and the protocol's endpoints they name.
 */
export async function oid4vciIssuerRoutes(app: FastifyInstance, opts: { config: Config; oid4vci: Oid4vciService; db: AppContext['db'] }) {
  await app.register(protocolRoutes, { service: opts.oid4vci, db: opts.db });
  const publish = (reply: FastifyReply) => reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*');
  // With a path in PUBLIC_URL (https://host/diplomes), wallets read the metadata at the well-known
  // address with that path after it (OpenID4VCI 1.0 section 12.2.2, RFC 8414 section 3.1): served there too.
  const issuerPath = new URL(credentialIssuerOf(opts.config)).pathname.replace(/\/+$/, '');
  for (const path of issuerPath ? ['', issuerPath] : ['']) {
    app.get(
      `/.well-known/openid-credential-issuer${path}`,
      { config: { access: 'public' }, schema: { tags: ['oid4vci'], summary: 'OpenID4VCI credential issuer metadata: endpoints and the diploma as dc+sd-jwt and ldp_vc' } },
      async (_, reply) => {
        publish(reply);
        return credentialIssuerMetadata(opts.config, { vct: opts.oid4vci.vct, openBadge: opts.oid4vci.offersOpenBadge });
      },
    );
    app.get(
      `/.well-known/oauth-authorization-server${path}`,
      {
        config: { access: 'public' },
        schema: { tags: ['oid4vci'], summary: 'OAuth authorisation server metadata (RFC 8414): the token endpoint of the pre-authorised code flow' },
      },
      async (_, reply) => {
        publish(reply);
        return authorizationServerMetadata(opts.config);
      },
    );
  }
}
