import { AppErrorKind, ErrorPresenter } from '@acme/platform-errors';
import { EVENT_WIRE_CODES } from '@acme/events';
import { AUTH_WIRE_CODES, PUSH_WIRE_CODES, VERIFICATION_WIRE_CODES } from './community-wire-codes';

/** Replyke-style wire codes for internal codes; feature modules add theirs here. */
export const COMMUNITY_WIRE_CODES: Record<string, string> = {
  ROUTE_NOT_FOUND: 'route/not-found',
  MALFORMED_BODY: 'request/invalid-json',
  MALFORMED_REQUEST: 'request/malformed',
  HEADERS_TOO_LARGE: 'request/headers-too-large',
  VALIDATION_FAILED: 'request/invalid-body',
  PAYLOAD_TOO_LARGE: 'request/payload-too-large',
  ADMIN_UNAUTHORIZED: 'admin/unauthorized',
  INTERNAL: 'server/internal-error',
  ...AUTH_WIRE_CODES,
  ...VERIFICATION_WIRE_CODES,
  ...EVENT_WIRE_CODES,
  ...PUSH_WIRE_CODES,
};

const FALLBACK_BY_KIND: Record<AppErrorKind, string> = {
  validation: 'request/invalid-body',
  unauthorized: 'auth/unauthorized',
  forbidden: 'auth/forbidden',
  not_found: 'resource/not-found',
  conflict: 'resource/conflict',
  payload_too_large: 'request/payload-too-large',
  unprocessable: 'request/unprocessable',
  rate_limited: 'request/too-many-requests',
  unavailable: 'server/unavailable',
  internal: 'server/internal-error',
};

/** `{error, code}`; the image errors (413, 422) are `{code, message}` as the spec gives them. */
export const presentCommunityError: ErrorPresenter = (error) => {
  const code = COMMUNITY_WIRE_CODES[error.code] ?? (error.code.includes('/') ? error.code : FALLBACK_BY_KIND[error.kind]);
  // A bug's text stays hidden; an outage says so (the client should retry).
  const message = error.status >= 500 && error.kind !== 'unavailable' ? 'Internal server error' : error.message;
  const field = typeof error.details?.['field'] === 'string' ? { field: error.details['field'] } : {};
  const body = error.status === 413 || error.status === 422 ? { code, message } : { error: message, code, ...field };
  return { status: error.status, body };
};
