import { Module } from '@nestjs/common';
import { RateLimitEnforcer } from './rate-limit-enforcer';
import { RateLimiter } from './rate-limiter';

/** The limiter and the one enforcer every rate limit goes through. Needs the global `RedisModule` of the app. */
@Module({ providers: [RateLimiter, RateLimitEnforcer], exports: [RateLimiter, RateLimitEnforcer] })
export class RateLimitingModule {}
