import { Injectable } from '@nestjs/common';
import { InjectRedis, type RedisClient } from '@acme/platform-redis';
import { CoalescedTakes } from './coalesced-takes';
import { LocalFixedWindows } from './local-windows';
import { FIXED_WINDOWS, TOKEN_BUCKET, TOKEN_BUCKET_TAKE } from './scripts';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the limit is fully available again. */
  resetAt: number;
  /** Seconds until a refused request could succeed (0 when allowed). */
  retryAfterSeconds: number;
}

export interface TokenBucketLimit {
  /** Burst size; `0` refuses everything. */
  capacity: number;
  refillPerSecond: number;
  cost?: number;
}

export interface WindowLimit {
  limit: number;
  windowSeconds: number;
}

/** No decision from Redis: it is not connected, or it did not answer within the call's timeout. */
export class LimiterUnavailableError extends Error {
  override readonly name = 'LimiterUnavailableError';
}

/** A limiter call never waits on Redis longer than this (docs/decisions.md#rate-limiting). */
export const LIMITER_TIMEOUT_MS = 100;

export interface LimiterCallOptions {
  timeoutMs?: number;
  /**
   * `local`: while Redis is unavailable, decide with per-instance counters instead of failing (limits that
   * stop guessing must hold). Otherwise the call throws LimiterUnavailableError and the caller fails open.
   */
  fallback?: 'local';
  /** fixedWindows only: answer whether a request of `cost` would pass, without counting it. */
  peek?: boolean;
  /** Called when a `local` fallback decided instead of Redis. */
  onFallback?: () => void;
}

type LimiterRedis = RedisClient & {
  acmeTokenBucket(key: string, capacity: number, rate: number, cost: number): Promise<number[]>;
  acmeTokenBucketTake(key: string, capacity: number, rate: number, count: number): Promise<[number, string, number]>;
  acmeFixedWindows(key: string, ...args: number[]): Promise<number[]>;
};

/** Atomic limiter decisions in Redis, shared by every instance that uses the same Redis and prefix. */
@Injectable()
export class RateLimiter {
  private readonly redis: LimiterRedis;
  private readonly takes: CoalescedTakes;
  private readonly local = new LocalFixedWindows();

  constructor(@InjectRedis() redis: RedisClient) {
    this.redis = redis as LimiterRedis;
    if (typeof this.redis.acmeTokenBucket !== 'function') {
      redis.defineCommand('acmeTokenBucket', { numberOfKeys: 1, lua: TOKEN_BUCKET });
      redis.defineCommand('acmeTokenBucketTake', { numberOfKeys: 1, lua: TOKEN_BUCKET_TAKE });
      redis.defineCommand('acmeFixedWindows', { numberOfKeys: 1, lua: FIXED_WINDOWS });
    }
    // Bounded at the flush, when the command is written, not while the take waits for the batch.
    this.takes = new CoalescedTakes((key, capacity, rate, count, timeoutMs) =>
      this.bounded(() => this.redis.acmeTokenBucketTake(key, capacity, rate, count), timeoutMs),
    );
  }

  /**
   * Takes `cost` tokens (default 1). Takes of one token are coalesced per bucket within an event-loop turn
   * (one Redis call for all of them, same answers as one by one); other costs are one call each.
   */
  async tokenBucket(
    key: string,
    limit: TokenBucketLimit,
    options: LimiterCallOptions = {},
  ): Promise<RateLimitDecision> {
    const cost = limit.cost ?? 1;
    if (cost === 1) {
      this.assertReady();
      return this.takes.take(`rl:tb:${key}`, limit, options.timeoutMs ?? LIMITER_TIMEOUT_MS);
    }
    const [allowed, remaining, now, untilFull, untilNext] = await this.bounded(
      () => this.redis.acmeTokenBucket(`rl:tb:${key}`, limit.capacity, limit.refillPerSecond, cost),
      options.timeoutMs,
    );
    return {
      allowed: allowed === 1,
      limit: limit.capacity,
      remaining,
      resetAt: Math.ceil((now + untilFull) / 1000),
      retryAfterSeconds: allowed === 1 ? 0 : Math.max(1, Math.ceil(untilNext / 1000)),
    };
  }

  async fixedWindows(
    key: string,
    windows: WindowLimit[],
    cost = 1,
    options: LimiterCallOptions = {},
  ): Promise<RateLimitDecision> {
    if (windows.length === 0) throw new Error('fixedWindows needs at least one window');
    const args = windows.flatMap((w) => [w.limit, w.windowSeconds * 1000]);
    const commit = options.peek ? 0 : 1;
    let answer: number[];
    try {
      answer = await this.bounded(
        () => this.redis.acmeFixedWindows(`rl:fw:${key}`, cost, commit, ...args),
        options.timeoutMs,
      );
    } catch (error) {
      if (options.fallback === 'local' && error instanceof LimiterUnavailableError) {
        options.onFallback?.();
        return this.local.take(key, windows, cost, !options.peek);
      }
      throw error;
    }
    const [allowed, deciding, count, now, windowEnd] = answer;
    const limit = windows[deciding - 1].limit;
    return {
      allowed: allowed === 1,
      limit,
      remaining: Math.max(0, limit - count),
      resetAt: Math.ceil(windowEnd / 1000),
      retryAfterSeconds: allowed === 1 ? 0 : Math.max(1, Math.ceil((windowEnd - now) / 1000)),
    };
  }

  private assertReady(): void {
    if (this.redis.status !== 'ready') throw new LimiterUnavailableError(`Redis connection is ${this.redis.status}`);
  }

  /**
   * Refuses at once while Redis is not connected, and gives up when Redis has not answered within the timeout:
   * a limiter never holds a request. The clock starts when the command is written. A timer that fires late
   * because the event loop was busy elsewhere gets a second chance: the reply may already sit in the socket,
   * and the poll phase that runs before the check phase reads it (docs/decisions.md#rate-limiting).
   */
  private async bounded<T>(call: () => Promise<T>, timeoutMs = LIMITER_TIMEOUT_MS): Promise<T> {
    this.assertReady();
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          setImmediate(() => {
            if (!settled) reject(new LimiterUnavailableError(`the limiter did not answer within ${timeoutMs} ms`));
          }),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([call(), timeout]);
    } catch (error) {
      throw error instanceof LimiterUnavailableError
        ? error
        : new LimiterUnavailableError((error as Error).message, { cause: error });
    } finally {
      settled = true;
      clearTimeout(timer);
    }
  }
}
