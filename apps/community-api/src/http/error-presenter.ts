import { ErrorPresenter, PresentableError } from '@acme/platform-errors';
import { COMMUNITY_WIRE_CODES, CommunityAppErrorCode, HTTP_STATUS_WIRE_CODES } from './community-wire-codes';
import { routeInputCode } from './route-body-codes';

const isKnownCode = (code: string): code is CommunityAppErrorCode =>
  Object.prototype.hasOwnProperty.call(COMMUNITY_WIRE_CODES, code);

/**
 * The wire code: a body failure on a route with its own code (route-body-codes.ts); every listed code through
 * its table; the framework's `HTTP_<status>` by kind; anything else is a bug.
 */
export function wireCodeOf(
  error: Pick<PresentableError, 'status' | 'code' | 'kind' | 'path' | 'method' | 'details'>,
): string {
  const routeCode = routeInputCode(error);
  if (routeCode) return routeCode;
  if (isKnownCode(error.code)) return COMMUNITY_WIRE_CODES[error.code];
  if (/^HTTP_\d{3}$/.test(error.code)) return HTTP_STATUS_WIRE_CODES[error.kind];
  return COMMUNITY_WIRE_CODES.INTERNAL;
}

/** `{error, code}`; the image errors (413, 422) are `{code, message}` as the spec gives them. */
export const presentCommunityError: ErrorPresenter = (error) => {
  const code = wireCodeOf(error);
  // A bug's text stays hidden; an outage says so (the client should retry).
  const message = error.status >= 500 && error.kind !== 'unavailable' ? 'Internal server error' : error.message;
  const field = typeof error.details?.['field'] === 'string' ? { field: error.details['field'] } : {};
  const body = error.status === 413 || error.status === 422 ? { code, message } : { error: message, code, ...field };
  return { status: error.status, body };
};
