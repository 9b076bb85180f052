import { AppErrorKind, ErrorPresenter, PlatformErrorCode, PresentableError } from '@acme/platform-errors';
import { RumErrorCode } from '@acme/rum';

/** The spec's four failure codes and their exact message texts (docs/rum-ingestion.md#errors-and-statuses). */
export const RUM_ERRORS = {
  InvalidParameter: 'The specified parameter is not valid.',
  Unauthorized: 'You are unauthorized.',
  RequestTooFrequently: 'Request too frequently.',
  InternalError: 'An internal error was encountered and reported; retry later.',
} as const;
export type RumWireCode = keyof typeof RUM_ERRORS;

interface Wire {
  code: RumWireCode;
  status: number;
}

const invalid: Wire = { code: 'InvalidParameter', status: 400 };

/**
 * Every code this API can meet, with its wire code and status (docs/rum-ingestion.md): a client's mistake is
 * 400 (404 only for an unknown route, 413 for a body too large), Unauthorized 401/403, 429, 500 for our own
 * failures and 503 (still InternalError, with Retry-After) while a dependency is unavailable.
 */
export const RUM_WIRE: Readonly<Record<RumErrorCode | PlatformErrorCode, Wire>> = {
  [RumErrorCode.APP_KEY_INVALID]: { code: 'Unauthorized', status: 401 },
  [RumErrorCode.APPLICATION_ACCESS_DENIED]: { code: 'Unauthorized', status: 403 },
  [RumErrorCode.CLIENT_TOKEN_INVALID]: { code: 'Unauthorized', status: 401 },
  [RumErrorCode.RULE_NOT_FOUND]: invalid,
  [RumErrorCode.RULE_NAME_TAKEN]: invalid,
  [RumErrorCode.ACCOUNT_NOT_FOUND]: invalid,
  [RumErrorCode.APP_KEY_NOT_FOUND]: invalid,
  [RumErrorCode.APPLICATION_NOT_FOUND]: invalid,
  [RumErrorCode.FILTERS_INVALID]: invalid,
  [RumErrorCode.RULE_SET_LIMIT]: invalid,
  [PlatformErrorCode.VALIDATION_FAILED]: invalid,
  [PlatformErrorCode.ROUTE_NOT_FOUND]: { code: 'InvalidParameter', status: 404 },
  [PlatformErrorCode.MALFORMED_BODY]: invalid,
  [PlatformErrorCode.MALFORMED_REQUEST]: invalid,
  [PlatformErrorCode.MALFORMED_URI]: invalid,
  [PlatformErrorCode.HEADERS_TOO_LARGE]: invalid,
  [PlatformErrorCode.PAYLOAD_TOO_LARGE]: { code: 'InvalidParameter', status: 413 },
  [PlatformErrorCode.UNSUPPORTED_MEDIA_TYPE]: invalid,
  [PlatformErrorCode.UNSUPPORTED_ENCODING]: invalid,
  [PlatformErrorCode.REQUEST_ABORTED]: invalid,
  [PlatformErrorCode.ADMIN_UNAUTHORIZED]: { code: 'Unauthorized', status: 401 },
  [PlatformErrorCode.RATE_LIMITED]: { code: 'RequestTooFrequently', status: 429 },
  [PlatformErrorCode.DATABASE_UNAVAILABLE]: { code: 'InternalError', status: 503 },
  // The spec's code set has no "busy": the message and Retry-After tell it from an outage.
  [PlatformErrorCode.SERVICE_BUSY]: { code: 'InternalError', status: 503 },
  [PlatformErrorCode.INTERNAL]: { code: 'InternalError', status: 500 },
};

/** Codes no row names (the framework's `HTTP_<status>` for an odd method or header) go by their kind. */
export const WIRE_BY_KIND: Readonly<Record<AppErrorKind, Wire>> = {
  validation: invalid,
  not_found: invalid,
  conflict: invalid,
  payload_too_large: { code: 'InvalidParameter', status: 413 },
  unprocessable: invalid,
  unauthorized: { code: 'Unauthorized', status: 401 },
  forbidden: { code: 'Unauthorized', status: 403 },
  rate_limited: { code: 'RequestTooFrequently', status: 429 },
  unavailable: { code: 'InternalError', status: 503 },
  internal: { code: 'InternalError', status: 500 },
};

const hasRow = (code: string): code is keyof typeof RUM_WIRE => Object.prototype.hasOwnProperty.call(RUM_WIRE, code);

export function wireOf(error: Pick<PresentableError, 'code' | 'kind'>): Wire {
  return hasRow(error.code) ? RUM_WIRE[error.code] : WIRE_BY_KIND[error.kind];
}

/**
 * Flashduty's messages say which parameter is wrong and why: InvalidParameter keeps the spec's text and adds the
 * reason (the parameter's dotted path first), e.g. "The specified parameter is not valid: rule_name must be …".
 * An unknown route names no parameter and keeps the bare text (docs/rum-ingestion.md#errors-and-statuses).
 */
function messageOf(code: RumWireCode, error: PresentableError): string {
  if (code !== 'InvalidParameter' || error.code === PlatformErrorCode.ROUTE_NOT_FOUND) return RUM_ERRORS[code];
  const reason = error.message.trim().replace(/\.$/, '');
  if (!reason) return RUM_ERRORS.InvalidParameter;
  const parameter = PARAMETER_OF[error.code];
  const named = parameter && !reason.startsWith(parameter) ? `${parameter}: ${reason}` : reason;
  return `${RUM_ERRORS.InvalidParameter.slice(0, -1)}: ${named}.`;
}

/** The request parameter a domain refusal is about (validation messages name theirs already). */
const PARAMETER_OF: Readonly<Partial<Record<string, string>>> = {
  [RumErrorCode.RULE_NOT_FOUND]: 'rule_id',
  [RumErrorCode.RULE_NAME_TAKEN]: 'rule_name',
  [RumErrorCode.APPLICATION_NOT_FOUND]: 'application_id',
  [RumErrorCode.FILTERS_INVALID]: 'filters',
  [RumErrorCode.ACCOUNT_NOT_FOUND]: 'account_id',
  [RumErrorCode.APP_KEY_NOT_FOUND]: 'app_key_id',
};

/** `{request_id, error: {code, message}}` with `Service-Request-Id`. */
export const presentRumError: ErrorPresenter = (error) => {
  const { code, status } = wireOf(error);
  return {
    status,
    body: { request_id: error.requestId, error: { code, message: messageOf(code, error) } },
    headers: { 'Service-Request-Id': error.requestId },
  };
};
