/**
 * The codes the platform raises (body parsers, validation, router, Node's request parser, the operator guard,
 * a database outage, bugs), and RATE_LIMITED, the refusal a RateLimitPolicy conventionally throws. Every app's
 * presenter gives each one a row of its exhaustive table, beside its domain codes.
 */
export enum PlatformErrorCode {
  VALIDATION_FAILED = 'VALIDATION_FAILED',
  ROUTE_NOT_FOUND = 'ROUTE_NOT_FOUND',
  MALFORMED_BODY = 'MALFORMED_BODY',
  MALFORMED_REQUEST = 'MALFORMED_REQUEST',
  MALFORMED_URI = 'MALFORMED_URI',
  HEADERS_TOO_LARGE = 'HEADERS_TOO_LARGE',
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_ENCODING = 'UNSUPPORTED_ENCODING',
  UNSUPPORTED_MEDIA_TYPE = 'UNSUPPORTED_MEDIA_TYPE',
  REQUEST_ABORTED = 'REQUEST_ABORTED',
  ADMIN_UNAUTHORIZED = 'ADMIN_UNAUTHORIZED',
  RATE_LIMITED = 'RATE_LIMITED',
  DATABASE_UNAVAILABLE = 'DATABASE_UNAVAILABLE',
  /** This instance is saturated (pool exhausted, event loop behind, heavy-route bound reached): scale out. */
  SERVICE_BUSY = 'SERVICE_BUSY',
  INTERNAL = 'INTERNAL',
}
