import { Injectable } from '@nestjs/common';
import { InjectRedis, type RedisClient } from '@acme/platform-redis';
import type { RateLimitDecision, TokenBucketLimit, WindowLimit } from './limits';
import { LocalFixedWindows } from './local-windows';
import { FIXED_WINDOWS, TOKEN_BUCKET, TOKEN_BUCKET_TAKE } from './scripts';

export type { RateLimitDecision, TokenBucketLimit, WindowLimit } from './limits';

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
  /** tokenBucket of cost 1 only: allow a bounded per-instance lease when the limit is large (see LEASE_SHARE). */
  lease?: boolean;
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
      return this.takes.take(`rl:tb:${key}`, limit, options.timeoutMs ?? LIMITER_TIMEOUT_MS, options.lease ?? false);
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

// Coalesced takes: one Redis call for the single takes of one bucket in one event-loop turn.

/** Runs one Redis call for `count` takes of one token; answers {admitted, tokens before, now in ms}. */
export type TakeMany = (
  key: string,
  capacity: number,
  refillPerSecond: number,
  count: number,
  timeoutMs: number,
) => Promise<[number, string, number]>;

interface Waiter {
  resolve(decision: RateLimitDecision): void;
  reject(error: unknown): void;
}

interface Batch {
  id: string;
  key: string;
  limit: TokenBucketLimit;
  timeoutMs: number;
  lease: boolean;
  waiters: Waiter[];
}

/** Tokens taken from Redis ahead of demand and not yet handed out; lost if unused before `expiresAt`. */
interface Lease {
  limit: TokenBucketLimit;
  tokensBefore: number;
  now: number;
  next: number;
  admitted: number;
  expiresAt: number;
}

/** A leased batch is at most this share of the bucket's capacity, and only used when it is 2 tokens or more. */
export const LEASE_SHARE = 0.01;
/** Leased tokens not handed out within this time are dropped (never returned: that would cost a call). */
export const LEASE_MS = 50;

/** Tokens one Redis call may take ahead of demand for this limit; 0 when the limit is too small to lease. */
export function leaseSize(limit: TokenBucketLimit): number {
  const size = Math.floor(limit.capacity * LEASE_SHARE);
  return size >= 2 && limit.refillPerSecond > 0 ? size : 0;
}

/**
 * The decisions `count` single takes in a row would have produced, from the bucket's state before them:
 * the first `admitted` pass, each seeing one token fewer; the rest are refused and take nothing.
 */
export function decisionsInOrder(
  limit: TokenBucketLimit,
  admitted: number,
  tokensBefore: number,
  now: number,
  count: number,
): RateLimitDecision[] {
  const { capacity, refillPerSecond: rate } = limit;
  if (capacity <= 0 || rate <= 0) {
    return Array.from({ length: count }, () => ({
      allowed: false,
      limit: capacity,
      remaining: 0,
      resetAt: Math.ceil(now / 1000),
      retryAfterSeconds: 1,
    }));
  }
  return Array.from({ length: count }, (_, index) => {
    const allowed = index < admitted;
    const tokensAfter = tokensBefore - (allowed ? index + 1 : admitted);
    const untilFull = Math.ceil(((capacity - tokensAfter) / rate) * 1000);
    const untilNext = allowed ? 0 : Math.ceil(((1 - tokensAfter) / rate) * 1000);
    return {
      allowed,
      limit: capacity,
      remaining: Math.floor(tokensAfter),
      resetAt: Math.ceil((now + untilFull) / 1000),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(untilNext / 1000)),
    };
  });
}

/**
 * Coalesces the takes of one token that arrive in the same event-loop turn into one Redis call per bucket
 * (flushed in the check phase, after the I/O callbacks of the turn). Under load many requests of one client
 * arrive together; the answers are the ones the same takes made one by one would have given, and the shared
 * bucket sees the same number of tokens taken.
 */
export class CoalescedTakes {
  private pending = new Map<string, Batch>();
  private readonly leases = new Map<string, Lease[]>();
  private scheduled = false;

  constructor(
    private readonly takeMany: TakeMany,
    private readonly clock: () => number = Date.now,
  ) {}

  take(key: string, limit: TokenBucketLimit, timeoutMs: number, lease = false): Promise<RateLimitDecision> {
    const id = `${key}\n${limit.capacity}\n${limit.refillPerSecond}\n${timeoutMs}\n${lease ? 1 : 0}`;
    if (lease) {
      const leased = this.fromLease(id);
      if (leased) return Promise.resolve(leased);
    }
    return new Promise((resolve, reject) => {
      let batch = this.pending.get(id);
      if (!batch) {
        batch = { id, key, limit, timeoutMs, lease: lease && leaseSize(limit) > 0, waiters: [] };
        this.pending.set(id, batch);
      }
      batch.waiters.push({ resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const batches = [...this.pending.values()];
    this.pending = new Map();
    this.scheduled = false;
    for (const batch of batches) void this.run(batch);
  }

  /**
   * The next leased token of this bucket, as the decision the take would have had right after the leasing call
   * (remaining counts down from the bucket's level then; refill since is not counted, so it never overstates).
   */
  private fromLease(id: string): RateLimitDecision | undefined {
    const leases = this.leases.get(id);
    if (!leases) return undefined;
    const at = this.clock();
    while (leases.length > 0 && (leases[0].next >= leases[0].admitted || leases[0].expiresAt <= at)) leases.shift();
    if (leases.length === 0) {
      this.leases.delete(id);
      return undefined;
    }
    const lease = leases[0];
    const index = lease.next;
    lease.next += 1;
    return decisionsInOrder(lease.limit, index + 1, lease.tokensBefore, lease.now, index + 1)[index];
  }

  private async run({ id, key, limit, timeoutMs, lease, waiters }: Batch): Promise<void> {
    try {
      const ahead = lease ? leaseSize(limit) : 0;
      const [admittedRaw, tokensBeforeRaw, nowRaw] = await this.takeMany(
        key,
        limit.capacity,
        limit.refillPerSecond,
        waiters.length + ahead,
        timeoutMs,
      );
      const [admitted, tokensBefore, now] = [Number(admittedRaw), Number(tokensBeforeRaw), Number(nowRaw)];
      const decisions = decisionsInOrder(limit, admitted, tokensBefore, now, waiters.length);
      if (admitted > waiters.length) {
        const leases = this.leases.get(id) ?? [];
        leases.push({ limit, tokensBefore, now, next: waiters.length, admitted, expiresAt: this.clock() + LEASE_MS });
        this.leases.set(id, leases);
      }
      waiters.forEach((waiter, index) => waiter.resolve(decisions[index]));
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
    }
  }
}
