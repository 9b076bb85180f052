import { AppError, AppErrorKind } from '@acme/platform-errors';

/** RFC 6749 §5.2 codes we answer with, plus Auth0's `too_many_requests`. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'unauthorized_client'
  | 'access_denied'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'too_many_requests';

const KIND: Record<OAuthErrorCode, AppErrorKind> = {
  invalid_request: 'validation',
  invalid_client: 'unauthorized',
  unauthorized_client: 'forbidden',
  access_denied: 'forbidden',
  unsupported_grant_type: 'validation',
  invalid_scope: 'validation',
  too_many_requests: 'rate_limited',
};

/**
 * A failure of an OAuth endpoint. `details.oauthError` tells the app's presenter to render
 * `{error, error_description}` instead of the management API body.
 */
export class OAuthError extends AppError {
  constructor(
    readonly oauthCode: OAuthErrorCode,
    description: string,
    options: { headers?: Record<string, string> } = {},
  ) {
    super(`OAUTH_${oauthCode.toUpperCase()}`, KIND[oauthCode], description, { details: { oauthError: oauthCode }, headers: options.headers });
  }
}

export const oauthError = (code: OAuthErrorCode, description: string, options?: { headers?: Record<string, string> }): OAuthError =>
  new OAuthError(code, description, options);

export class ClientNotFoundError extends AppError {
  constructor(clientId: string) {
    super('INEXISTENT_CLIENT', 'not_found', `The client does not exist: ${clientId}`);
  }
}

export class ClientConflictError extends AppError {
  constructor() {
    super('CLIENT_CONFLICT', 'conflict', 'A client with this client_id already exists.');
  }
}

export class ClientGrantNotFoundError extends AppError {
  constructor(id: string) {
    super('INEXISTENT_CLIENT_GRANT', 'not_found', `The client grant does not exist: ${id}`);
  }
}

export class ClientGrantConflictError extends AppError {
  constructor() {
    super('CLIENT_GRANT_CONFLICT', 'conflict', 'A client grant for this client_id and audience already exists.');
  }
}

export class SigningKeyNotFoundError extends AppError {
  constructor(kid: string) {
    super('INEXISTENT_SIGNING_KEY', 'not_found', `The signing key does not exist: ${kid}`);
  }
}

/** Rotation and revocation manage stored keys: a configured key, or the current or next key, cannot be revoked. */
export class SigningKeyConflictError extends AppError {
  constructor(message: string) {
    super('SIGNING_KEY_CONFLICT', 'conflict', message);
  }
}
