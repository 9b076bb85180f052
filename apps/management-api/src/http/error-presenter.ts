import { OAuthErrorCode, RFC6749_ERROR_CODES } from '@acme/oauth';
import { ErrorPresenter, PlatformErrorCode, PresentableError, REASON_PHRASES } from '@acme/platform-errors';
import { PoliciesErrorCode } from '@acme/policies';
import { ManagementErrorCode } from './management-error-code';

/**
 * How a code reaches the wire: an Auth0 `errorCode`, `validation` (the code names where the input was refused),
 * or `oauth` (a token-endpoint failure whose RFC 6749 `error` the OAuth lib chose).
 */
type Wire = { errorCode: string } | 'validation' | 'oauth';

type ManagementApiErrorCode = OAuthErrorCode | PoliciesErrorCode | ManagementErrorCode | PlatformErrorCode;

/** Every code this API can raise: a new code without a row does not compile. */
export const MANAGEMENT_WIRE: Readonly<Record<ManagementApiErrorCode, Wire>> = {
  [OAuthErrorCode.INVALID_REQUEST]: 'oauth',
  [OAuthErrorCode.INVALID_CLIENT]: 'oauth',
  [OAuthErrorCode.UNAUTHORIZED_CLIENT]: 'oauth',
  [OAuthErrorCode.ACCESS_DENIED]: 'oauth',
  [OAuthErrorCode.UNSUPPORTED_GRANT_TYPE]: 'oauth',
  [OAuthErrorCode.INVALID_SCOPE]: 'oauth',
  [OAuthErrorCode.TOO_MANY_REQUESTS]: 'oauth',
  [OAuthErrorCode.CLIENT_NOT_FOUND]: { errorCode: 'inexistent_client' },
  [OAuthErrorCode.CLIENT_CONFLICT]: { errorCode: 'client_conflict' },
  [OAuthErrorCode.CLIENT_GRANT_NOT_FOUND]: { errorCode: 'inexistent_client_grant' },
  [OAuthErrorCode.CLIENT_GRANT_CONFLICT]: { errorCode: 'client_grant_conflict' },
  [OAuthErrorCode.CLIENT_CREDENTIAL_NOT_FOUND]: { errorCode: 'inexistent_client_credential' },
  [OAuthErrorCode.INVALID_PUBLIC_KEY]: { errorCode: 'invalid_body' },
  [OAuthErrorCode.REPLAY_CHECK_UNAVAILABLE]: { errorCode: 'temporarily_unavailable' },
  [OAuthErrorCode.SIGNING_KEY_NOT_FOUND]: { errorCode: 'inexistent_signing_key' },
  [OAuthErrorCode.SIGNING_KEY_CONFLICT]: { errorCode: 'signing_key_conflict' },
  [PoliciesErrorCode.NOT_FOUND]: { errorCode: 'inexistent_rate_limit_policy' },
  [PoliciesErrorCode.CONFLICT]: { errorCode: 'rate_limit_policy_conflict' },
  [PoliciesErrorCode.INVALID_CURSOR]: { errorCode: 'invalid_query_string' },
  [ManagementErrorCode.INVALID_TOKEN]: { errorCode: 'invalid_token' },
  [ManagementErrorCode.INVALID_SIGNATURE]: { errorCode: 'invalid_signature' },
  [ManagementErrorCode.CLIENT_NOT_GLOBAL]: { errorCode: 'client_not_global' },
  [ManagementErrorCode.INSUFFICIENT_SCOPE]: { errorCode: 'insufficient_scope' },
  [ManagementErrorCode.TOO_MANY_REQUESTS]: { errorCode: 'too_many_requests' },
  [PlatformErrorCode.VALIDATION_FAILED]: 'validation',
  [PlatformErrorCode.ROUTE_NOT_FOUND]: { errorCode: 'not_found' },
  [PlatformErrorCode.MALFORMED_BODY]: { errorCode: 'invalid_body' },
  [PlatformErrorCode.MALFORMED_REQUEST]: { errorCode: 'invalid_body' },
  [PlatformErrorCode.MALFORMED_URI]: { errorCode: 'invalid_uri' },
  [PlatformErrorCode.HEADERS_TOO_LARGE]: { errorCode: 'headers_too_large' },
  [PlatformErrorCode.PAYLOAD_TOO_LARGE]: { errorCode: 'payload_too_large' },
  [PlatformErrorCode.UNSUPPORTED_ENCODING]: { errorCode: 'unsupported_encoding' },
  [PlatformErrorCode.UNSUPPORTED_MEDIA_TYPE]: { errorCode: 'unsupported_media_type' },
  [PlatformErrorCode.REQUEST_ABORTED]: { errorCode: 'request_aborted' },
  [PlatformErrorCode.ADMIN_UNAUTHORIZED]: { errorCode: 'invalid_token' },
  [PlatformErrorCode.RATE_LIMITED]: { errorCode: 'too_many_requests' },
  [PlatformErrorCode.DATABASE_UNAVAILABLE]: { errorCode: 'temporarily_unavailable' },
  [PlatformErrorCode.SERVICE_BUSY]: { errorCode: 'server_busy' },
  [PlatformErrorCode.INTERNAL]: { errorCode: 'internal_error' },
};

/** Codes no row names (Nest's own `HTTP_<status>`, e.g. a method the route lacks) by their kind. */
export const ERROR_CODE_BY_KIND: Readonly<Record<PresentableError['kind'], string>> = {
  validation: 'invalid_body',
  unauthorized: 'invalid_token',
  forbidden: 'insufficient_scope',
  not_found: 'not_found',
  conflict: 'conflict',
  payload_too_large: 'payload_too_large',
  unprocessable: 'invalid_body',
  rate_limited: 'too_many_requests',
  unavailable: 'temporarily_unavailable',
  internal: 'internal_error',
};

/** RFC 6749 codes for failures on an OAuth endpoint that no handler named (refused input, outages, bugs). */
export const OAUTH_CODE_BY_KIND: Partial<Record<PresentableError['kind'], string>> = {
  validation: 'invalid_request',
  unavailable: 'temporarily_unavailable',
  internal: 'server_error',
};

/** The Auth0 `errorCode` of a validation failure, by where the input was refused. */
export const VALIDATION_CODES = ['invalid_query_string', 'invalid_uri', 'invalid_body'] as const;

/** Every Auth0 `errorCode` and every OAuth `error` the presenter can answer (published in openapi.json). */
export const PUBLISHED_ERROR_CODES: readonly string[] = [
  ...new Set([
    ...Object.values(MANAGEMENT_WIRE).flatMap((wire) => (typeof wire === 'object' ? [wire.errorCode] : [])),
    ...VALIDATION_CODES,
    ...Object.values(ERROR_CODE_BY_KIND),
  ]),
].sort();
export const PUBLISHED_OAUTH_ERRORS: readonly string[] = [
  ...new Set([...RFC6749_ERROR_CODES, ...Object.values(OAUTH_CODE_BY_KIND)]),
].sort();

function validationCode(location: unknown): string {
  if (location === 'query') return 'invalid_query_string';
  if (location === 'param') return 'invalid_uri';
  return 'invalid_body';
}

const wireOf = (code: string): Wire | undefined =>
  Object.hasOwn(MANAGEMENT_WIRE, code) ? MANAGEMENT_WIRE[code as ManagementApiErrorCode] : undefined;

/** The RFC 6749 code of a failure on an OAuth endpoint, named by the OAuth lib or by its kind. */
const oauthCodeFor = (error: PresentableError): string | undefined => {
  const named = error.details?.['oauthError'];
  if (wireOf(error.code) === 'oauth' && typeof named === 'string') return named;
  return error.path?.startsWith('/oauth/') ? OAUTH_CODE_BY_KIND[error.kind] : undefined;
};

/** A bug's text stays hidden; an outage says so (the client should retry). */
const publicMessage = (error: PresentableError, hidden: string) =>
  error.status >= 500 && error.kind !== 'unavailable' ? hidden : error.message;

/** OAuth endpoints answer RFC 6749 §5.2 bodies; everything else the Auth0 management body. */
export const presentManagementError: ErrorPresenter = (error) => {
  const oauthCode = oauthCodeFor(error);
  if (typeof oauthCode === 'string') {
    return {
      status: error.status,
      body: { error: oauthCode, error_description: publicMessage(error, 'Internal Server Error') },
      headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
    };
  }
  const wire = wireOf(error.code);
  const errorCode =
    wire === 'validation'
      ? validationCode(error.details?.['location'])
      : typeof wire === 'object'
        ? wire.errorCode
        : ERROR_CODE_BY_KIND[error.kind];
  const message = publicMessage(error, 'Internal Server Error');
  return {
    status: error.status,
    body: { statusCode: error.status, error: REASON_PHRASES[error.status] ?? 'Error', message, errorCode },
  };
};
