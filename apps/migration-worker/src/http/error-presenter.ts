import { AppErrorKind, ErrorPresenter, PlatformErrorCode } from '@acme/platform-errors';
import { MigrationErrorCode } from '@acme/document-migration';

/** gRPC-style status names of Velt's API and their HTTP statuses (docs/migration-worker.md#errors). */
export const HTTP_STATUS = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  NOT_FOUND: 404,
  FAILED_PRECONDITION: 409,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;
type WireStatus = keyof typeof HTTP_STATUS;

interface Wire {
  status: WireStatus;
  /** Replaces the error's own message where the wire words it differently. */
  message?: string;
}

export { PlatformErrorCode };

export type MigrationWorkerErrorCode = MigrationErrorCode | PlatformErrorCode;

/** Every code this API can raise, and its wire status: a new code without a row does not compile. */
export const WIRE_BY_CODE: Readonly<Record<MigrationWorkerErrorCode, Wire>> = {
  [MigrationErrorCode.UNAUTHENTICATED]: {
    status: 'UNAUTHENTICATED',
    message: 'Valid x-service-api-key and x-service-auth-token headers are required.',
  },
  [MigrationErrorCode.WORKSPACE_NOT_FOUND]: { status: 'NOT_FOUND' },
  [MigrationErrorCode.ORGANIZATION_NOT_FOUND]: { status: 'NOT_FOUND' },
  [MigrationErrorCode.ORGANIZATION_EXISTS]: { status: 'FAILED_PRECONDITION' },
  [MigrationErrorCode.DOCUMENTS_NOT_FOUND]: { status: 'NOT_FOUND' },
  [MigrationErrorCode.DOCUMENT_EXISTS]: { status: 'FAILED_PRECONDITION' },
  [MigrationErrorCode.SAME_ORGANIZATION]: { status: 'INVALID_ARGUMENT' },
  [MigrationErrorCode.DOCUMENTS_HELD]: { status: 'FAILED_PRECONDITION' },
  [MigrationErrorCode.MIGRATION_NOT_FOUND]: { status: 'NOT_FOUND' },
  [MigrationErrorCode.MIGRATION_FINISHED]: { status: 'FAILED_PRECONDITION' },
  [PlatformErrorCode.VALIDATION_FAILED]: { status: 'INVALID_ARGUMENT' },
  [PlatformErrorCode.ROUTE_NOT_FOUND]: { status: 'NOT_FOUND' },
  [PlatformErrorCode.MALFORMED_BODY]: { status: 'INVALID_ARGUMENT' },
  [PlatformErrorCode.MALFORMED_REQUEST]: { status: 'INVALID_ARGUMENT' },
  [PlatformErrorCode.MALFORMED_URI]: { status: 'INVALID_ARGUMENT' },
  [PlatformErrorCode.HEADERS_TOO_LARGE]: { status: 'INVALID_ARGUMENT' },
  // The spec's API has no 413: an oversized body is an invalid argument like any other.
  [PlatformErrorCode.PAYLOAD_TOO_LARGE]: { status: 'INVALID_ARGUMENT' },
  [PlatformErrorCode.UNSUPPORTED_ENCODING]: { status: 'INVALID_ARGUMENT' },
  [PlatformErrorCode.UNSUPPORTED_MEDIA_TYPE]: { status: 'INVALID_ARGUMENT' },
  [PlatformErrorCode.REQUEST_ABORTED]: { status: 'INVALID_ARGUMENT' },
  [PlatformErrorCode.ADMIN_UNAUTHORIZED]: { status: 'UNAUTHENTICATED' },
  [PlatformErrorCode.RATE_LIMITED]: { status: 'RESOURCE_EXHAUSTED' },
  [PlatformErrorCode.DATABASE_UNAVAILABLE]: { status: 'UNAVAILABLE' },
  [PlatformErrorCode.SERVICE_BUSY]: { status: 'RESOURCE_EXHAUSTED' },
  [PlatformErrorCode.INTERNAL]: { status: 'INTERNAL' },
};

/**
 * Codes nobody declared (Nest's `HTTP_<status>` for an HttpException it raises itself) by their kind.
 * No route of this API refuses a valid credential (another workspace's data is NOT_FOUND), so PERMISSION_DENIED
 * is never sent: a stray 403 is answered as NOT_FOUND too (docs/migration-worker.md#errors). Every status here
 * is in the published enum (error-enum.spec.ts).
 */
export const STATUS_BY_KIND: Readonly<Record<AppErrorKind, WireStatus>> = {
  validation: 'INVALID_ARGUMENT',
  payload_too_large: 'INVALID_ARGUMENT',
  unprocessable: 'INVALID_ARGUMENT',
  unauthorized: 'UNAUTHENTICATED',
  forbidden: 'NOT_FOUND',
  not_found: 'NOT_FOUND',
  conflict: 'FAILED_PRECONDITION',
  rate_limited: 'RESOURCE_EXHAUSTED',
  unavailable: 'UNAVAILABLE',
  internal: 'INTERNAL',
};

const isDeclared = (code: string): code is MigrationWorkerErrorCode => Object.hasOwn(WIRE_BY_CODE, code);

/** `{error: {message, status}}`; a bug's text stays hidden. */
export const presentMigrationError: ErrorPresenter = (error) => {
  const wire: Wire = isDeclared(error.code) ? WIRE_BY_CODE[error.code] : { status: STATUS_BY_KIND[error.kind] };
  const status = HTTP_STATUS[wire.status];
  const message = status === 500 ? 'Internal error' : (wire.message ?? error.message);
  return { status, body: { error: { message, status: wire.status } } };
};
