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
  INVALID_REQUEST = 'OAUTH_INVALID_REQUEST',
  INVALID_CLIENT = 'OAUTH_INVALID_CLIENT',
  UNAUTHORIZED_CLIENT = 'OAUTH_UNAUTHORIZED_CLIENT',
  ACCESS_DENIED = 'OAUTH_ACCESS_DENIED',
  UNSUPPORTED_GRANT_TYPE = 'OAUTH_UNSUPPORTED_GRANT_TYPE',
  INVALID_SCOPE = 'OAUTH_INVALID_SCOPE',
  TOO_MANY_REQUESTS = 'OAUTH_TOO_MANY_REQUESTS',
  CLIENT_NOT_FOUND = 'INEXISTENT_CLIENT',
  CLIENT_CONFLICT = 'CLIENT_CONFLICT',
  CLIENT_GRANT_NOT_FOUND = 'INEXISTENT_CLIENT_GRANT',
  CLIENT_GRANT_CONFLICT = 'CLIENT_GRANT_CONFLICT',
  CLIENT_CREDENTIAL_NOT_FOUND = 'INEXISTENT_CLIENT_CREDENTIAL',
  INVALID_PUBLIC_KEY = 'INVALID_PUBLIC_KEY',
  REPLAY_CHECK_UNAVAILABLE = 'ASSERTION_REPLAY_CHECK_UNAVAILABLE',
  SIGNING_KEY_NOT_FOUND = 'INEXISTENT_SIGNING_KEY',
  SIGNING_KEY_CONFLICT = 'SIGNING_KEY_CONFLICT',
}

const RFC6749: Record<Rfc6749ErrorCode, { code: OAuthErrorCode; kind: AppErrorKind }> = {
  invalid_request: { code: OAuthErrorCode.INVALID_REQUEST, kind: 'validation' },
  invalid_client: { code: OAuthErrorCode.INVALID_CLIENT, kind: 'unauthorized' },
  unauthorized_client: { code: OAuthErrorCode.UNAUTHORIZED_CLIENT, kind: 'forbidden' },
  access_denied: { code: OAuthErrorCode.ACCESS_DENIED, kind: 'forbidden' },
  unsupported_grant_type: { code: OAuthErrorCode.UNSUPPORTED_GRANT_TYPE, kind: 'validation' },
  invalid_scope: { code: OAuthErrorCode.INVALID_SCOPE, kind: 'validation' },
  too_many_requests: { code: OAuthErrorCode.TOO_MANY_REQUESTS, kind: 'rate_limited' },
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
    new OAuthError(OAuthErrorCode.CLIENT_NOT_FOUND, 'not_found', `The client does not exist: ${clientId}`);
  static clientConflict = () =>
    new OAuthError(OAuthErrorCode.CLIENT_CONFLICT, 'conflict', 'A client with this client_id already exists.');
  static clientGrantNotFound = (id: string) =>
    new OAuthError(OAuthErrorCode.CLIENT_GRANT_NOT_FOUND, 'not_found', `The client grant does not exist: ${id}`);
  static clientGrantConflict = () =>
    new OAuthError(
      OAuthErrorCode.CLIENT_GRANT_CONFLICT,
      'conflict',
      'A client grant for this client_id and audience already exists.',
    );
  static credentialNotFound = (id: string) =>
    new OAuthError(OAuthErrorCode.CLIENT_CREDENTIAL_NOT_FOUND, 'not_found', `The credential does not exist: ${id}`);
  static invalidPublicKey = (message: string) =>
    new OAuthError(OAuthErrorCode.INVALID_PUBLIC_KEY, 'validation', message, { details: { field: 'pem' } });
  static replayCheckUnavailable = () =>
    new OAuthError(
      OAuthErrorCode.REPLAY_CHECK_UNAVAILABLE,
      'unavailable',
      'Client assertions cannot be checked for replay right now; retry later.',
      { retryAfterSeconds: 5 },
    );
  static signingKeyNotFound = (kid: string) =>
    new OAuthError(OAuthErrorCode.SIGNING_KEY_NOT_FOUND, 'not_found', `The signing key does not exist: ${kid}`);
  /** Rotation and revocation manage stored keys: a configured key, or the current or next key, cannot be revoked. */
  static signingKeyConflict = (message: string) =>
    new OAuthError(OAuthErrorCode.SIGNING_KEY_CONFLICT, 'conflict', message);
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
