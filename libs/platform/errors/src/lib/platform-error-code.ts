/**
 * The codes the platform raises (body parsers, validation, router, Node's request parser, the operator guard,
 * a database outage, bugs), and RATE_LIMITED, the refusal a RateLimitPolicy conventionally throws. Every app's
 * presenter gives each one a row of its exhaustive table, beside its domain codes.
 */
export enum PlatformErrorCode {
  ValidationFailed = 'VALIDATION_FAILED',
  RouteNotFound = 'ROUTE_NOT_FOUND',
  MalformedBody = 'MALFORMED_BODY',
  MalformedRequest = 'MALFORMED_REQUEST',
  MalformedUri = 'MALFORMED_URI',
  HeadersTooLarge = 'HEADERS_TOO_LARGE',
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  UnsupportedEncoding = 'UNSUPPORTED_ENCODING',
  UnsupportedMediaType = 'UNSUPPORTED_MEDIA_TYPE',
  RequestAborted = 'REQUEST_ABORTED',
  AdminUnauthorized = 'ADMIN_UNAUTHORIZED',
  RateLimited = 'RATE_LIMITED',
  DatabaseUnavailable = 'DATABASE_UNAVAILABLE',
  /** This instance is saturated (pool exhausted, event loop behind, heavy-route bound reached): scale out. */
  ServiceBusy = 'SERVICE_BUSY',
  Internal = 'INTERNAL',
}
