import { Module } from '@nestjs/common';
import { RateLimiter } from './rate-limiter';

/** Needs the global `RedisModule` of the app. */
@Module({ providers: [RateLimiter], exports: [RateLimiter] })
export class RateLimitingModule {}
