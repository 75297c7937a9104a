/**
 * The error codes a wallet reads (RFC 6749 section 5.2, RFC 6750 section 3.1, OpenID4VCI 1.0
 * sections 8.3.1, 7.3.2 and 11.3, its draft 13's `unsupported_credential_*`, RFC 9449 section 5). The protocol's `error_description` is ASCII by definition (RFC 6749
 * `%x20-21 / %x23-5B / %x5D-7E`), so it is written in English for developers; the holder never sees
 * it (the wallet shows its own words).
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'invalid_token'
  | 'invalid_credential_request'
  | 'unknown_credential_configuration'
  | 'invalid_proof'
  | 'invalid_nonce'
  | 'credential_request_denied'
  | 'unsupported_credential_type'
  | 'unsupported_credential_format'
  | 'invalid_dpop_proof'
  | 'invalid_notification_id'
  | 'invalid_notification_request'
  | 'server_error';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = error === 'invalid_token' ? 401 : error === 'server_error' ? 500 : 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${error}: ${description}`);
  }

  get body() {
    return { error: this.error, error_description: this.description };
  }
}
