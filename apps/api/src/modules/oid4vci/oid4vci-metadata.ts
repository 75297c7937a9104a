import { PRE_AUTHORIZED_CODE_GRANT } from '@sceau/contracts';
import type { Config } from '../../config.ts';
import { DPOP_ALGORITHMS } from './dpop.ts';
import { KEY_PROOF_ALGORITHMS } from './key-proof.ts';
import { CONFIGURATION } from './oid4vci-service.ts';

/** Where the protocol's endpoints answer: at the root, outside the platform's API (ADR 0146). */
export const OID4VCI_PATHS = { token: '/oid4vci/token', nonce: '/oid4vci/nonce', credential: '/oid4vci/credential', notification: '/oid4vci/notification' } as const;

/** The credential issuer identifier: the platform's public address, without a trailing slash. */
export const credentialIssuerOf = (config: Pick<Config, 'publicUrl'>) => config.publicUrl.replace(/\/+$/, '');

const W3C_CONTEXTS = ['https://www.w3.org/ns/credentials/v2', 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json'];

/**
 * A configuration's names, where 1.0 reads them (`credential_metadata.display`) and where wallets
 * still on drafts 13–15 do (`display` beside the format), so both show the diploma by its name.
 */
const displays = (display: object[]) => ({ display, credential_metadata: { display } });

/**
 * `/.well-known/openid-credential-issuer` (OpenID4VCI 1.0 section 12.2): the issuer, its endpoints
 * and the two forms of a diploma, named in French and English. A configuration is listed only
 * when this deployment can make it.
 */
export function credentialIssuerMetadata(config: Pick<Config, 'publicUrl' | 'issuer'>, offered: { vct: string | null; openBadge: boolean }) {
  const issuer = credentialIssuerOf(config);
  const logo = config.issuer.emblemUrl ? { logo: { uri: new URL(config.issuer.emblemUrl, `${issuer}/`).href, alt_text: config.issuer.shortName } } : {};
  const diplomaDisplay = [
    { name: 'Diplôme', locale: 'fr', description: `Diplôme délivré par ${config.issuer.name}`, ...logo },
    { name: 'Diploma', locale: 'en', description: `Diploma issued by ${config.issuer.nameEn}`, ...logo },
  ];
  const configurations: Record<string, object> = {};
  if (offered.vct) {
    configurations[CONFIGURATION.sdJwt] = {
      format: 'dc+sd-jwt',
      vct: offered.vct,
      cryptographic_binding_methods_supported: ['jwk'],
      credential_signing_alg_values_supported: ['ES256'],
      proof_types_supported: { jwt: { proof_signing_alg_values_supported: [...KEY_PROOF_ALGORITHMS] } },
      ...displays(diplomaDisplay),
    };
  }
  if (offered.openBadge) {
    configurations[CONFIGURATION.openBadge] = {
      format: 'ldp_vc',
      credential_definition: { '@context': W3C_CONTEXTS, type: ['VerifiableCredential', 'OpenBadgeCredential'] },
      credential_signing_alg_values_supported: ['ecdsa-rdfc-2019'],
      ...displays(diplomaDisplay),
    };
  }
  return {
    credential_issuer: issuer,
    credential_endpoint: `${issuer}${OID4VCI_PATHS.credential}`,
    nonce_endpoint: `${issuer}${OID4VCI_PATHS.nonce}`,
    notification_endpoint: `${issuer}${OID4VCI_PATHS.notification}`,
    display: [
      { name: config.issuer.name, locale: 'fr', ...logo },
      { name: config.issuer.nameEn, locale: 'en', ...logo },
    ],
    credential_configurations_supported: configurations,
  };
}

/** `/.well-known/oauth-authorization-server` (RFC 8414): the issuer is its own authorisation server, for the pre-authorised code only. */
export function authorizationServerMetadata(config: Pick<Config, 'publicUrl'>) {
  const issuer = credentialIssuerOf(config);
  return {
    issuer,
    token_endpoint: `${issuer}${OID4VCI_PATHS.token}`,
    grant_types_supported: [PRE_AUTHORIZED_CODE_GRANT],
    token_endpoint_auth_methods_supported: ['none'],
    response_types_supported: [],
    'pre-authorized_grant_anonymous_access_supported': true,
    // DPoP (RFC 9449 section 5.1): a wallet that sends a proof gets a token bound to its key; one that does not, a Bearer token.
    dpop_signing_alg_values_supported: [...DPOP_ALGORITHMS],
  };
}
