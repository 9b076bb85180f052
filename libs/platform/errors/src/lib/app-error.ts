import type { RateLimitDecision } from '@acme/platform-rate-limiting';

/** What went wrong, independent of any wire format; each app's presenter maps it to its own body. */
export type AppErrorKind =
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unprocessable'
  | 'rate_limited'
  | 'unavailable'
  | 'internal';

export interface AppErrorOptions {
  details?: Record<string, unknown>;
  /** The refusing rate-limit decision; the HTTP edge turns it into Retry-After and X-RateLimit-*. */
  rateLimit?: RateLimitDecision;
  /** For a 503: when a retry may succeed (the HTTP edge sends it as Retry-After). */
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class AppError extends Error {
  readonly details?: Record<string, unknown>;
  readonly rateLimit?: RateLimitDecision;
  readonly retryAfterSeconds?: number;

  constructor(
    readonly code: string,
    readonly kind: AppErrorKind,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.details = options.details;
    this.rateLimit = options.rateLimit;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const STATUS_BY_KIND: Readonly<Record<AppErrorKind, number>> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

const KIND_BY_STATUS: Readonly<Record<number, AppErrorKind>> = Object.fromEntries(
  Object.entries(STATUS_BY_KIND).map(([kind, status]) => [status, kind as AppErrorKind]),
);

export function kindForStatus(status: number): AppErrorKind {
  return KIND_BY_STATUS[status] ?? (status >= 500 ? 'internal' : 'validation');
}

export function assertUnreachable(value: never): never {
  throw new Error(`Unhandled case: ${String(value)}`);
}
