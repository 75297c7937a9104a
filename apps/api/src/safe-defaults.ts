import type { Config } from './config.ts';

/** The OAuth client secret the platform ships with (public: it is in the README). */
export const DEFAULT_OAUTH_CLIENT_SECRET = 'sceau-web-dev-secret';

/**
 * What a production platform must not run with (ADR 0112): each a development convenience that is
 * a hole once real people use it. Every problem is named with its fix, all at once, so an operator
 * fixes the configuration in one go rather than one restart per problem.
 */
export function productionProblems(config: Config): string[] {
  if (config.env !== 'production') return [];
  const problems: string[] = [];
  if (config.oauth.clientSecret === DEFAULT_OAUTH_CLIENT_SECRET) {
    problems.push('OAUTH_CLIENT_SECRET is the default development secret, which anyone can read in the README: set it to a long random value (e.g. `openssl rand -base64 32`).');
  }
  if (!config.keys.pkcs11 && (!config.keys.keyFile || !config.keys.certificateFile)) {
    problems.push(
      "Neither KEYS_PKCS11_MODULE nor MINISTRY_KEY_FILE and MINISTRY_CERTIFICATE_FILE are set, so diplomas would be signed by a development CA and key generated under DATA_DIR/keys: set KEYS_PKCS11_* to the ministry's key in its hardware module (docs/deployment.md, section 11).",
    );
  } else if (!config.keys.pkcs11 && !config.keys.allowFileKey) {
    // ADR 0136: in production the private key is in a token, never in a file, unless the ministry says otherwise.
    problems.push(
      'MINISTRY_KEY_FILE holds the private key in a file, which anyone who copies the server can use: move the key into a hardware module (KEYS_PKCS11_*, docs/deployment.md section 11), or accept the risk explicitly with KEYS_ALLOW_FILE_KEY=true.',
    );
  }
  if (!config.timestamping.tsaUrl) {
    problems.push(
      'TSA_URL is not set, so diplomas would be time-stamped by a development time-stamping authority whose key and certificate are generated under DATA_DIR/keys/tsa: set it to the URL of an RFC 3161 time-stamping authority (ADR 0135).',
    );
  } else if (!config.timestamping.trustAnchorsFile) {
    // ADR 0148: without its root, no verifier believes the TSA's time, and a retired key's diplomas cannot be dated.
    problems.push(
      "TSA_TRUST_ANCHORS is not set, so no verifier would trust TSA_URL's time-stamps and diplomas signed with a key later retired could not be dated: set it to a PEM file holding the TSA's root certificate (ADR 0148).",
    );
  }
  if (!config.mail.smtpUrl) {
    problems.push(
      'SMTP_URL is not set, so e-mails (codes, sign-in links) would only be written to the development outbox: set it to the mail relay (smtp://user:password@host:587).',
    );
  }
  if (!config.sms.gatewayUrl) {
    problems.push('SMS_GATEWAY_URL is not set, so SMS (codes, sign-in links) would only be written to the development outbox: set it to the SMS gateway (and SMS_GATEWAY_TOKEN).');
  }
  if (config.demoData) {
    problems.push('DEMO_DATA is on, so demo accounts would be created with the password published in the README: remove DEMO_DATA (it is off by default in production).');
  }
  return problems;
}

/** The one message an operator sees when production refuses to start, or null when all is well. */
export function productionRefusal(config: Config): string | null {
  const problems = productionProblems(config);
  if (!problems.length) return null;
  return [
    `Sceau refuses to start in production (NODE_ENV=production): ${problems.length} unsafe setting${problems.length > 1 ? 's' : ''}.`,
    ...problems.map((p) => `  - ${p}`),
    'Fix them in the environment (see README, "Configuration", and .env.example), or run without NODE_ENV=production to try the platform.',
  ].join('\n');
}
