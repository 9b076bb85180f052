/**
 * What a refused (or allowed) rate-limit decision tells a caller. The limiter's `RateLimitDecision` has this shape;
 * it is restated here so the error layer needs nothing from the limiter (the limiter's metrics import the
 * observability lib, whose metrics guard throws these errors: one direction only).
 */
export interface RateLimitVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the limit is fully available again. */
  resetAt: number;
  retryAfterSeconds: number;
}

/** The conventional headers of a decision (X-RateLimit-*, and Retry-After when refused), for the HTTP edge. */
export function rateLimitHeaders(decision: RateLimitVerdict): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetAt),
  };
  if (!decision.allowed) headers['Retry-After'] = String(decision.retryAfterSeconds);
  return headers;
}
