import { ErrorPresenter, PresentableError, REASON_PHRASES } from '@acme/platform-errors';

/** Auth0 Management API v2 body: `{statusCode, error, message, errorCode}`. */
const ERROR_CODES: Record<string, string> = {
  ROUTE_NOT_FOUND: 'not_found',
  MALFORMED_BODY: 'invalid_body',
  MALFORMED_REQUEST: 'invalid_body',
  MALFORMED_URI: 'invalid_uri',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  INVALID_CURSOR: 'invalid_query_string',
  INTERNAL: 'internal_error',
  DATABASE_UNAVAILABLE: 'temporarily_unavailable',
};

/** RFC 6749 codes for failures on an OAuth endpoint that no handler named (refused input, outages, bugs). */
const OAUTH_CODE_BY_KIND: Partial<Record<PresentableError['kind'], string>> = {
  validation: 'invalid_request',
  unavailable: 'temporarily_unavailable',
  internal: 'server_error',
};

function validationCode(location: unknown): string {
  if (location === 'query') return 'invalid_query_string';
  if (location === 'param') return 'invalid_uri';
  return 'invalid_body';
}

/** The RFC 6749 code of a failure on an OAuth endpoint, named by the handler or by its kind. */
const oauthCodeFor = (error: PresentableError): string | undefined => {
  const named = error.details?.['oauthError'];
  if (typeof named === 'string') return named;
  return error.path?.startsWith('/oauth/') ? OAUTH_CODE_BY_KIND[error.kind] : undefined;
};

/** A bug's text stays hidden; an outage says so (the client should retry). */
const publicMessage = (error: PresentableError, hidden: string) => (error.status >= 500 && error.kind !== 'unavailable' ? hidden : error.message);

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
  const errorCode =
    error.code === 'VALIDATION_FAILED'
      ? validationCode(error.details?.['location'])
      : (ERROR_CODES[error.code] ?? error.code.toLowerCase());
  const message = publicMessage(error, 'Internal Server Error');
  return {
    status: error.status,
    body: { statusCode: error.status, error: REASON_PHRASES[error.status] ?? 'Error', message, errorCode },
  };
};
