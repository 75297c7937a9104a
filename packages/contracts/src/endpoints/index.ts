import type { EndpointShape } from '../endpoint.ts';
import { accountsEndpoints } from './accounts.ts';
import { auditEndpoints } from './audit.ts';
import { contactEndpoints } from './contact.ts';
import { distributionEndpoints } from './distribution.ts';
import { generationsEndpoints } from './generations.ts';
import { healthEndpoints } from './health.ts';
import { holderEndpoints } from './holder.ts';
import { importsEndpoints } from './imports.ts';
import { messagingEndpoints } from './messaging.ts';
import { metricsEndpoints } from './metrics.ts';
import { referenceDataEndpoints } from './reference-data.ts';
import { revocationEndpoints } from './revocation.ts';
import { signaturesEndpoints } from './signatures.ts';
import { templatesEndpoints } from './templates.ts';
import { validationsEndpoints } from './validations.ts';
import { verificationEndpoints } from './verification.ts';

/** Every API call, by area then name (ADR 0125). The API serves each; the web calls them through `api`. */
export const endpoints = {
  accounts: accountsEndpoints,
  audit: auditEndpoints,
  contact: contactEndpoints,
  distribution: distributionEndpoints,
  generations: generationsEndpoints,
  health: healthEndpoints,
  holder: holderEndpoints,
  imports: importsEndpoints,
  messaging: messagingEndpoints,
  metrics: metricsEndpoints,
  referenceData: referenceDataEndpoints,
  revocation: revocationEndpoints,
  signatures: signaturesEndpoints,
  templates: templatesEndpoints,
  validations: validationsEndpoints,
  verification: verificationEndpoints,
} as const satisfies Record<string, Record<string, EndpointShape>>;

/** Every definition, flat, with its `area.name` (the coverage test and the OpenAPI operation ids). */
export function allEndpoints(): { id: string; definition: EndpointShape }[] {
  return Object.entries(endpoints).flatMap(([area, group]) =>
    Object.entries(group as Record<string, EndpointShape>).map(([name, definition]) => ({ id: `${area}.${name}`, definition })),
  );
}
