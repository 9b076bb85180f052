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

const KIND: Readonly<Record<OAuthErrorCode, AppErrorKind>> = {
  [OAuthErrorCode.INVALID_REQUEST]: 'validation',
  [OAuthErrorCode.INVALID_CLIENT]: 'unauthorized',
  [OAuthErrorCode.UNAUTHORIZED_CLIENT]: 'forbidden',
  [OAuthErrorCode.ACCESS_DENIED]: 'forbidden',
  [OAuthErrorCode.UNSUPPORTED_GRANT_TYPE]: 'validation',
  [OAuthErrorCode.INVALID_SCOPE]: 'validation',
  [OAuthErrorCode.TOO_MANY_REQUESTS]: 'rate_limited',
  [OAuthErrorCode.CLIENT_NOT_FOUND]: 'not_found',
  [OAuthErrorCode.CLIENT_CONFLICT]: 'conflict',
  [OAuthErrorCode.CLIENT_GRANT_NOT_FOUND]: 'not_found',
  [OAuthErrorCode.CLIENT_GRANT_CONFLICT]: 'conflict',
  [OAuthErrorCode.CLIENT_CREDENTIAL_NOT_FOUND]: 'not_found',
  [OAuthErrorCode.INVALID_PUBLIC_KEY]: 'validation',
  [OAuthErrorCode.REPLAY_CHECK_UNAVAILABLE]: 'unavailable',
  [OAuthErrorCode.SIGNING_KEY_NOT_FOUND]: 'not_found',
  [OAuthErrorCode.SIGNING_KEY_CONFLICT]: 'conflict',
};

const RFC6749: Readonly<Record<Rfc6749ErrorCode, OAuthErrorCode>> = {
  invalid_request: OAuthErrorCode.INVALID_REQUEST,
  invalid_client: OAuthErrorCode.INVALID_CLIENT,
  unauthorized_client: OAuthErrorCode.UNAUTHORIZED_CLIENT,
  access_denied: OAuthErrorCode.ACCESS_DENIED,
  unsupported_grant_type: OAuthErrorCode.UNSUPPORTED_GRANT_TYPE,
  invalid_scope: OAuthErrorCode.INVALID_SCOPE,
  too_many_requests: OAuthErrorCode.TOO_MANY_REQUESTS,
};

/** Every RFC 6749 `error` the lib can name (the management API publishes them as an enum). */
export const RFC6749_ERROR_CODES = Object.keys(RFC6749) as readonly Rfc6749ErrorCode[];

/** The one text of a 429 on the management API and its token endpoint (Auth0's wording). */
export const TOO_MANY_REQUESTS_MESSAGE =
  'Too many requests. Check the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers.';

/** A failure of the OAuth lib; its kind follows from the code. */
export class OAuthError extends AppError {
  constructor(code: OAuthErrorCode, message: string, options: AppErrorOptions = {}) {
    super(code, KIND[code], message, options);
  }

  /** The RFC 6749 `error` of a token-endpoint failure (undefined for the others). */
  get oauthCode(): Rfc6749ErrorCode | undefined {
    return this.details?.['oauthError'] as Rfc6749ErrorCode | undefined;
  }
}

/** The lib's failures with their texts, worded once. */
export const OAuthErrors = {
  /** A failure of the token endpoint: `details.oauthError` is its RFC 6749 `error`. */
  rfc6749: (error: Rfc6749ErrorCode, description: string, options: Pick<AppErrorOptions, 'rateLimit'> = {}) =>
    new OAuthError(RFC6749[error], description, { details: { oauthError: error }, rateLimit: options.rateLimit }),
  /** The token endpoint's 429 (Auth0's `too_many_requests`); the HTTP edge adds Retry-After and X-RateLimit-*. */
  tooManyRequests: (decision: RateLimitDecision) =>
    OAuthErrors.rfc6749('too_many_requests', TOO_MANY_REQUESTS_MESSAGE, { rateLimit: decision }),
  clientNotFound: (clientId: string) =>
    new OAuthError(OAuthErrorCode.CLIENT_NOT_FOUND, `The client does not exist: ${clientId}`),
  clientConflict: () => new OAuthError(OAuthErrorCode.CLIENT_CONFLICT, 'A client with this client_id already exists.'),
  clientGrantNotFound: (id: string) =>
    new OAuthError(OAuthErrorCode.CLIENT_GRANT_NOT_FOUND, `The client grant does not exist: ${id}`),
  clientGrantConflict: () =>
    new OAuthError(
      OAuthErrorCode.CLIENT_GRANT_CONFLICT,
      'A client grant for this client_id and audience already exists.',
    ),
  credentialNotFound: (id: string) =>
    new OAuthError(OAuthErrorCode.CLIENT_CREDENTIAL_NOT_FOUND, `The credential does not exist: ${id}`),
  invalidPublicKey: (message: string) =>
    new OAuthError(OAuthErrorCode.INVALID_PUBLIC_KEY, message, { details: { field: 'pem' } }),
  replayCheckUnavailable: () =>
    new OAuthError(
      OAuthErrorCode.REPLAY_CHECK_UNAVAILABLE,
      'Client assertions cannot be checked for replay right now; retry later.',
      { retryAfterSeconds: 5 },
    ),
  signingKeyNotFound: (kid: string) =>
    new OAuthError(OAuthErrorCode.SIGNING_KEY_NOT_FOUND, `The signing key does not exist: ${kid}`),
  /** Rotation and revocation manage stored keys: a configured key, or the current or next key, cannot be revoked. */
  signingKeyConflict: (message: string) => new OAuthError(OAuthErrorCode.SIGNING_KEY_CONFLICT, message),
};
