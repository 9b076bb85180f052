export { LIMITER_TIMEOUT_MS, LimiterUnavailableError, RateLimiter } from './lib/rate-limiter';
export type { LimiterCallOptions } from './lib/rate-limiter';
export type { RateLimitDecision, TokenBucketLimit, WindowLimit } from './lib/limits';
export * from './lib/rate-limit-enforcer';
export * from './lib/rate-limiting.module';
