import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { installValidationMessages, setDefaultPhoneCountry } from '@sceau/contracts';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './app-context.ts';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { compressionOptions } from './lib/compression.ts';
import { APP_VERSION } from './lib/version.ts';
import { auditRoutes } from './modules/audit/audit-routes.ts';
import { authRoutes } from './modules/accounts/auth-routes.ts';
import { registrationRoutes } from './modules/accounts/registration-routes.ts';
import { generationsRoutes } from './modules/generations/generations-routes.ts';
import { metricsRoutes } from './modules/metrics/metrics-routes.ts';
import { importsRoutes } from './modules/imports/imports-routes.ts';
import { templatesRoutes } from './modules/templates/templates-routes.ts';
import { revocationRoutes } from './modules/revocation/revocation-routes.ts';
import { launchRoutes } from './modules/generations/launch-routes.ts';
import { statsRoutes } from './modules/generations/stats-routes.ts';
import { verificationRoutes } from './modules/verification/verification-routes.ts';
import { serverVerdict } from './modules/verification/verify-page.ts';
import { publicDiplomaRoutes } from './modules/verification/public-diploma-routes.ts';
import { candidateCheckRoutes } from './modules/candidate-check/candidate-check-routes.ts';
import { contactRoutes } from './modules/contact/contact-routes.ts';
import { outboxRoutes } from './modules/messaging/outbox-routes.ts';
import { signaturesRoutes } from './modules/signatures/signatures-routes.ts';
import { usersRoutes } from './modules/accounts/users-routes.ts';
import { validationsRoutes } from './modules/validations/validations-routes.ts';
import { distributionRoutes } from './modules/distribution/distribution-routes.ts';
import { holderRoutes } from './modules/holder/holder-routes.ts';
import { vcHolderRoutes, vcPublicRoutes } from './modules/vc/vc-routes.ts';
import { credentialStatusRoutes } from './modules/credential-status/credential-status-routes.ts';
import { sdJwtVcRoutes, sdJwtVcWellKnownRoutes } from './modules/sd-jwt-vc/sd-jwt-vc-routes.ts';
import { oid4vciIssuerRoutes, oid4vciRoutes } from './modules/oid4vci/oid4vci-routes.ts';
import { createServices, type Services } from './services.ts';
import { wellKnownRoutes } from './modules/identity/well-known-routes.ts';
import { timestampingRoutes } from './modules/timestamping/timestamping-routes.ts';
import { healthRoutes } from './modules/health/health-routes.ts';
import { referenceDataRoutes } from './modules/reference-data/reference-data-routes.ts';
import { accessPlugin } from './plugins/access.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { localePlugin } from './plugins/locale.ts';
import { passwordChangePlugin } from './plugins/password-change.ts';
import { openApiPlugin, openApiTransformObject } from './plugins/openapi.ts';
import { textSafetyPlugin } from './plugins/text-safety.ts';
import { webPlugin } from './plugins/web.ts';
import { httpMetricsPlugin } from './prometheus/http-metrics.ts';

installValidationMessages();

export async function buildApp(base: { db: Db; config: Config; services?: Services }, options: { loggerInstance?: FastifyBaseLogger } = {}) {
  const context: AppContext = { ...base, services: base.services ?? createServices(base.db, base.config) };
  const identity = context.services.identity;
  const { config } = context;
  // National numbers (`0812345678`) in every request are read for the deployment's country.
  setDefaultPhoneCountry(config.phoneCountry);
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: { level: config.logLevel } }),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Opaque ids in logs let one request be followed across lines.
    requestIdHeader: 'x-request-id',
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Google Identity Services needs its script, styles, frame and calls, only when Google sign-in is on.
  const google = config.google.clientId ? ['https://accounts.google.com/gsi/'] : [];
  // The candidate check form may call an exam authority's own service (ADR 0090).
  const candidateCheck = config.candidateCheck.url && /^https?:/.test(config.candidateCheck.url) ? [new URL(config.candidateCheck.url).origin] : [];
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'", ...google],
        scriptSrc: ["'self'", ...google.map((origin) => `${origin}client`)],
        connectSrc: ["'self'", ...google, ...candidateCheck],
        frameSrc: google.length ? google : ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    // Google's sign-in pop-up talks back to the page that opened it.
    crossOriginOpenerPolicy: google.length ? { policy: 'same-origin-allow-popups' } : { policy: 'same-origin' },
  });
  // Answers worth it (JSON, HTML, text of 1 KB or more) go out brotli or gzip compressed, as the
  // client accepts; files that are compressed already (PDF, zip, PNG) are not (ADR 0126). Brotli at a
  // low quality: on each request, its cost must stay below what it saves on a slow network.
  await app.register(compress, compressionOptions());
  await app.register(httpMetricsPlugin);
  await app.register(localePlugin);
  await app.register(errorsPlugin);
  await app.register(accessPlugin, { db: context.db });
  await app.register(passwordChangePlugin, { db: context.db });
  await app.register(textSafetyPlugin);
  // Before the routes: completes their error responses and security requirements from `config.access`.
  await app.register(openApiPlugin);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Sceau API', version: APP_VERSION, description: 'National diploma issuing and verification platform' },
      // Paths are absolute (`/api/…`): the API answers on the origin that serves the document.
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
    transformObject: openApiTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  await app.register(
    async (api) => {
      await api.register(healthRoutes, context);
      await api.register(authRoutes, context);
      await api.register(registrationRoutes, context);
      await api.register(referenceDataRoutes, context);
      await api.register(usersRoutes, context);
      await api.register(signaturesRoutes, context);
      await api.register(auditRoutes, context);
      await api.register(generationsRoutes, context);
      await api.register(metricsRoutes, context);
      await api.register(templatesRoutes, context);
      await api.register(importsRoutes, context);
      await api.register(revocationRoutes, context);
      await api.register(launchRoutes, context);
      await api.register(statsRoutes, context);
      await api.register(validationsRoutes, context);
      await api.register(distributionRoutes, context);
      await api.register(holderRoutes, context);
      await api.register(vcHolderRoutes, context);
      await api.register(sdJwtVcRoutes, context);
      await api.register(oid4vciRoutes, { ...context, oid4vci: context.services.oid4vci });
      if (context.services.verification) await api.register(verificationRoutes, { ...context, verification: context.services.verification });
      await api.register(publicDiplomaRoutes, context);
      await api.register(candidateCheckRoutes, context);
      await api.register(contactRoutes, context);
      await api.register(outboxRoutes, context);
    },
    { prefix: '/api' },
  );

  if (identity) await app.register(wellKnownRoutes, { config, ...identity, timestamping: context.services.timestamping ?? null });
  // OpenID4VCI's metadata and endpoints (ADR 0146): wallets find them at the issuer's root.
  await app.register(oid4vciIssuerRoutes, { config, oid4vci: context.services.oid4vci, db: context.db });
  // The SD-JWT VC issuer metadata and the diploma's type metadata (ADR 0145).
  if (context.services.sdJwtVc) await app.register(sdJwtVcWellKnownRoutes, { sdJwtVc: context.services.sdJwtVc });
  // The ministry's did:web, Open Badges issuer Profile and revocation status lists (ADR 0144).
  await app.register(vcPublicRoutes, { vc: context.services.vc, publicUrl: config.publicUrl });
  await app.register(credentialStatusRoutes, { status: context.services.credentialStatus });
  // The TSA, the CRL and the certificates of PAdES B-LTA (ADR 0135), at the root like /.well-known.
  await app.register(timestampingRoutes, { db: context.db, timestamping: context.services.timestamping ?? null });
  await app.register(webPlugin, { config, pages: context.services.verification ? serverVerdict(config, context.services.verification) : null });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
