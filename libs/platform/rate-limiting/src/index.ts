export { LIMITER_TIMEOUT_MS, LimiterUnavailableError, RateLimiter } from './lib/rate-limiter';
export type { LimiterCallOptions, RateLimitDecision, TokenBucketLimit, WindowLimit } from './lib/rate-limiter';
export * from './lib/rate-limit-enforcer';
export * from './lib/rate-limiting.module';
