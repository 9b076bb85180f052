import { ErrorPresenter, REASON_PHRASES } from '@acme/platform-errors';

/** Auth0 Management API v2 body: `{statusCode, error, message, errorCode}`. */
const ERROR_CODES: Record<string, string> = {
  ROUTE_NOT_FOUND: 'not_found',
  MALFORMED_BODY: 'invalid_body',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  INTERNAL: 'internal_error',
};

function validationCode(location: unknown): string {
  if (location === 'query') return 'invalid_query_string';
  if (location === 'param') return 'invalid_uri';
  return 'invalid_body';
}

export const presentManagementError: ErrorPresenter = (error) => {
  const errorCode =
    error.code === 'VALIDATION_FAILED'
      ? validationCode(error.details?.['location'])
      : (ERROR_CODES[error.code] ?? error.code.toLowerCase());
  const message = error.status >= 500 ? 'Internal Server Error' : error.message;
  return {
    status: error.status,
    body: { statusCode: error.status, error: REASON_PHRASES[error.status] ?? 'Error', message, errorCode },
  };
};
