import { AppError, AppErrorKind, AppErrorOptions } from '@acme/platform-errors';
import type { RateLimitDecision } from '@acme/platform-rate-limiting';

/** RFC 6749 §5.2 `error` values we answer with, plus Auth0's `too_many_requests`. */
export type Rfc6749ErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'unauthorized_client'
  | 'access_denied'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'too_many_requests';

/** Every failure the OAuth lib raises (the management API's presenter gives each a row). */
export enum OAuthErrorCode {
  InvalidRequest = 'OAUTH_INVALID_REQUEST',
  InvalidClient = 'OAUTH_INVALID_CLIENT',
  UnauthorizedClient = 'OAUTH_UNAUTHORIZED_CLIENT',
  AccessDenied = 'OAUTH_ACCESS_DENIED',
  UnsupportedGrantType = 'OAUTH_UNSUPPORTED_GRANT_TYPE',
  InvalidScope = 'OAUTH_INVALID_SCOPE',
  TooManyRequests = 'OAUTH_TOO_MANY_REQUESTS',
  ClientNotFound = 'INEXISTENT_CLIENT',
  ClientConflict = 'CLIENT_CONFLICT',
  ClientGrantNotFound = 'INEXISTENT_CLIENT_GRANT',
  ClientGrantConflict = 'CLIENT_GRANT_CONFLICT',
  ClientCredentialNotFound = 'INEXISTENT_CLIENT_CREDENTIAL',
  InvalidPublicKey = 'INVALID_PUBLIC_KEY',
  ReplayCheckUnavailable = 'ASSERTION_REPLAY_CHECK_UNAVAILABLE',
  SigningKeyNotFound = 'INEXISTENT_SIGNING_KEY',
  SigningKeyConflict = 'SIGNING_KEY_CONFLICT',
}

const RFC6749: Record<Rfc6749ErrorCode, { code: OAuthErrorCode; kind: AppErrorKind }> = {
  invalid_request: { code: OAuthErrorCode.InvalidRequest, kind: 'validation' },
  invalid_client: { code: OAuthErrorCode.InvalidClient, kind: 'unauthorized' },
  unauthorized_client: { code: OAuthErrorCode.UnauthorizedClient, kind: 'forbidden' },
  access_denied: { code: OAuthErrorCode.AccessDenied, kind: 'forbidden' },
  unsupported_grant_type: { code: OAuthErrorCode.UnsupportedGrantType, kind: 'validation' },
  invalid_scope: { code: OAuthErrorCode.InvalidScope, kind: 'validation' },
  too_many_requests: { code: OAuthErrorCode.TooManyRequests, kind: 'rate_limited' },
};

/** Every RFC 6749 `error` the lib can name (the management API publishes them as an enum). */
export const RFC6749_ERROR_CODES = Object.keys(RFC6749) as readonly Rfc6749ErrorCode[];

/** The OAuth lib's one error class; the factories below word each failure once. */
export class OAuthError extends AppError {
  constructor(code: OAuthErrorCode, kind: AppErrorKind, message: string, options: AppErrorOptions = {}) {
    super(code, kind, message, options);
  }

  /** The RFC 6749 `error` of a token-endpoint failure (undefined for the others). */
  get oauthCode(): Rfc6749ErrorCode | undefined {
    return this.details?.['oauthError'] as Rfc6749ErrorCode | undefined;
  }

  /** A failure of the token endpoint: `details.oauthError` is its RFC 6749 `error`. */
  static rfc6749(
    error: Rfc6749ErrorCode,
    description: string,
    options: Pick<AppErrorOptions, 'rateLimit'> = {},
  ): OAuthError {
    return new OAuthError(RFC6749[error].code, RFC6749[error].kind, description, {
      details: { oauthError: error },
      rateLimit: options.rateLimit,
    });
  }

  static clientNotFound = (clientId: string) =>
    new OAuthError(OAuthErrorCode.ClientNotFound, 'not_found', `The client does not exist: ${clientId}`);
  static clientConflict = () =>
    new OAuthError(OAuthErrorCode.ClientConflict, 'conflict', 'A client with this client_id already exists.');
  static clientGrantNotFound = (id: string) =>
    new OAuthError(OAuthErrorCode.ClientGrantNotFound, 'not_found', `The client grant does not exist: ${id}`);
  static clientGrantConflict = () =>
    new OAuthError(
      OAuthErrorCode.ClientGrantConflict,
      'conflict',
      'A client grant for this client_id and audience already exists.',
    );
  static credentialNotFound = (id: string) =>
    new OAuthError(OAuthErrorCode.ClientCredentialNotFound, 'not_found', `The credential does not exist: ${id}`);
  static invalidPublicKey = (message: string) =>
    new OAuthError(OAuthErrorCode.InvalidPublicKey, 'validation', message, { details: { field: 'pem' } });
  static replayCheckUnavailable = () =>
    new OAuthError(
      OAuthErrorCode.ReplayCheckUnavailable,
      'unavailable',
      'Client assertions cannot be checked for replay right now; retry later.',
      { retryAfterSeconds: 5 },
    );
  static signingKeyNotFound = (kid: string) =>
    new OAuthError(OAuthErrorCode.SigningKeyNotFound, 'not_found', `The signing key does not exist: ${kid}`);
  /** Rotation and revocation manage stored keys: a configured key, or the current or next key, cannot be revoked. */
  static signingKeyConflict = (message: string) =>
    new OAuthError(OAuthErrorCode.SigningKeyConflict, 'conflict', message);
}

export const oauthError = (
  error: Rfc6749ErrorCode,
  description: string,
  options?: Pick<AppErrorOptions, 'rateLimit'>,
): OAuthError => OAuthError.rfc6749(error, description, options);

/** The one text of a 429 on the management API and its token endpoint (Auth0's wording). */
export const TOO_MANY_REQUESTS_MESSAGE =
  'Too many requests. Check the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers.';

/** The token endpoint's 429 (Auth0's `too_many_requests`); the HTTP edge adds Retry-After and X-RateLimit-*. */
export const tooManyRequests = (decision: RateLimitDecision): OAuthError =>
  oauthError('too_many_requests', TOO_MANY_REQUESTS_MESSAGE, { rateLimit: decision });
