import { AppErrorKind, ErrorPresenter } from '@acme/platform-errors';

/** gRPC-style status names of Velt's API (docs/migration-worker.md#errors). */
const STATUS_BY_KIND: Record<AppErrorKind, [number, string]> = {
  validation: [400, 'INVALID_ARGUMENT'],
  payload_too_large: [400, 'INVALID_ARGUMENT'],
  unprocessable: [400, 'INVALID_ARGUMENT'],
  unauthorized: [401, 'UNAUTHENTICATED'],
  // No route of this API refuses a valid credential (another workspace's data is NOT_FOUND), so the contract does
  // not list it; the kind still needs a name (docs/migration-worker.md#errors).
  forbidden: [403, 'PERMISSION_DENIED'],
  not_found: [404, 'NOT_FOUND'],
  conflict: [409, 'FAILED_PRECONDITION'],
  rate_limited: [429, 'RESOURCE_EXHAUSTED'],
  unavailable: [503, 'UNAVAILABLE'],
  internal: [500, 'INTERNAL'],
};

/** `{error: {message, status}}`. */
export const presentMigrationError: ErrorPresenter = (error) => {
  const [status, name] = STATUS_BY_KIND[error.kind];
  const message = status === 500 ? 'Internal error' : error.message;
  return { status, body: { error: { message, status: name } } };
};
