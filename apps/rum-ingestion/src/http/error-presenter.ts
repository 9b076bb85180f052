import { AppErrorKind, ErrorPresenter } from '@acme/platform-errors';

/** The spec's four failure codes and their exact message texts (docs/rum-ingestion.md#errors-and-statuses). */
export const RUM_ERRORS = {
  InvalidParameter: 'The specified parameter is not valid.',
  Unauthorized: 'You are unauthorized.',
  RequestTooFrequently: 'Request too frequently.',
  InternalError: 'An internal error was encountered and reported; retry later.',
} as const;
export type RumErrorCode = keyof typeof RUM_ERRORS;

const CODE_BY_KIND: Record<AppErrorKind, RumErrorCode> = {
  validation: 'InvalidParameter',
  not_found: 'InvalidParameter',
  conflict: 'InvalidParameter',
  payload_too_large: 'InvalidParameter',
  unprocessable: 'InvalidParameter',
  unauthorized: 'Unauthorized',
  forbidden: 'Unauthorized',
  rate_limited: 'RequestTooFrequently',
  unavailable: 'InternalError',
  internal: 'InternalError',
};

/**
 * `{request_id, error: {code, message}}` with `Service-Request-Id`. Statuses per docs/rum-ingestion.md: a client's
 * mistake is 400 (404 only for an unknown route), Unauthorized 401/403, 429, 500 for our own failures and 503
 * (still InternalError, with Retry-After) while a dependency is unavailable.
 */
export const presentRumError: ErrorPresenter = (error) => {
  const code = CODE_BY_KIND[error.kind];
  const status =
    code === 'InvalidParameter' ? (error.code === 'ROUTE_NOT_FOUND' ? 404 : error.status === 413 ? 413 : 400) : code === 'InternalError' ? (error.kind === 'unavailable' ? 503 : 500) : error.status;
  return {
    status,
    body: { request_id: error.requestId, error: { code, message: RUM_ERRORS[code] } },
    headers: { 'Service-Request-Id': error.requestId },
  };
};
