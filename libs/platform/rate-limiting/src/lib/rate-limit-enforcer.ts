import { Injectable, Logger, Optional } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsRegistry } from '@acme/platform-observability';
import type { RateLimitDecision, TokenBucketLimit, WindowLimit } from './limits';
import { RateLimiter } from './rate-limiter';

export type RateLimitRule = { tokenBucket: TokenBucketLimit } | { fixedWindows: WindowLimit[] };

/** A named limit's bucket for one request, shared by every instance through Redis. */
export interface RateLimitTarget {
  key: string;
  rule: RateLimitRule;
  /** How long to wait for Redis (default LIMITER_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Token buckets only: a large limit may be served from a short per-instance lease (RateLimiter, LEASE_SHARE). */
  lease?: boolean;
}

/** A limit that stops guessing of a credential (sign-in, verification codes, client secrets). */
export interface CredentialLimitTarget {
  key: string;
  windows: WindowLimit[];
}

/** Refused without a counter: a bucket of capacity 0 refuses every request, even while Redis is away. */
function closedBucket(): RateLimitDecision {
  return { allowed: false, limit: 0, remaining: 0, resetAt: Math.ceil(Date.now() / 1000), retryAfterSeconds: 1 };
}

const LOG_EVERY_MS = 10_000;

/**
 * The one place a rate limit is decided (docs/decisions.md#rate-limiting). Every entry (the `@RateLimit` guard,
 * management's gate, the token endpoint's policies and failed-authentication budgets, community sign-in and
 * verification) calls it. When Redis is unavailable an ordinary limit fails open (counted, logged at most every
 * 10 s per limit) and a credential limit falls back to per-instance counters: it never fails open.
 */
@Injectable()
export class RateLimitEnforcer {
  private readonly logger = new Logger('RateLimit');
  private readonly failOpen: Counter<'limit'>;
  private readonly fellBack: Counter<'limit'>;
  private readonly unlogged = new Map<string, { since: number; count: number }>();
  /** Peeks in flight by bucket: the requests of one busy client share one Redis round trip. */
  private readonly peeks = new Map<string, Promise<RateLimitDecision>>();

  constructor(
    private readonly limiter: RateLimiter,
    @Optional() registry: MetricsRegistry = new MetricsRegistry(),
  ) {
    this.failOpen = metric(
      registry,
      'http_rate_limit_fail_open_total',
      'Requests let through unlimited because the limiter (Redis) was unavailable',
    );
    this.fellBack = metric(
      registry,
      'rate_limit_local_fallback_total',
      'Credential-limit decisions made with per-instance counters because the limiter (Redis) was unavailable',
    );
  }

  /** Spends one unit of the target's bucket; `undefined` when Redis is unavailable (fail open). */
  async decide(name: string, target: RateLimitTarget): Promise<RateLimitDecision | undefined> {
    const { key, rule, timeoutMs, lease } = target;
    try {
      if ('tokenBucket' in rule) {
        if (rule.tokenBucket.capacity <= 0) return closedBucket();
        return await this.limiter.tokenBucket(key, rule.tokenBucket, { timeoutMs, lease });
      }
      return await this.limiter.fixedWindows(key, rule.fixedWindows, 1, { timeoutMs });
    } catch (error) {
      this.failOpen.inc({ limit: name });
      this.logThrottled(name, error as Error);
      return undefined;
    }
  }

  /**
   * A credential limit: spends one unit (or, with `peek`, only says whether one more would pass). While Redis
   * is unavailable the decision comes from this instance's own counters, so guessing stays bounded. A peek
   * made while another of the same bucket is in flight shares its answer (at most one round trip old).
   */
  decideCredentialLimit(
    name: string,
    target: CredentialLimitTarget,
    options: { peek?: boolean } = {},
  ): Promise<RateLimitDecision> {
    const call = (peek: boolean) =>
      this.limiter.fixedWindows(target.key, target.windows, 1, {
        fallback: 'local',
        peek,
        onFallback: () => this.fellBack.inc({ limit: name }),
      });
    if (!options.peek) return call(false);
    const id = `${target.key}\n${target.windows.map((w) => `${w.limit}/${w.windowSeconds}`).join(',')}`;
    const inFlight = this.peeks.get(id);
    if (inFlight) return inFlight;
    const peek = call(true).finally(() => this.peeks.delete(id));
    this.peeks.set(id, peek);
    return peek;
  }

  private logThrottled(name: string, error: Error): void {
    const now = Date.now();
    const state = this.unlogged.get(name) ?? { since: 0, count: 0 };
    state.count += 1;
    this.unlogged.set(name, state);
    if (now - state.since < LOG_EVERY_MS) return;
    this.logger.warn(
      { event: 'rate_limit_fail_open', limit: name, requests: state.count, reason: error.message },
      'rate limiter unavailable; requests proceed unlimited',
    );
    state.since = now;
    state.count = 0;
  }
}

function metric(registry: MetricsRegistry, name: string, help: string): Counter<'limit'> {
  return (
    (registry.getSingleMetric(name) as Counter<'limit'> | undefined) ??
    new Counter({ name, help, labelNames: ['limit'], registers: [registry] })
  );
}

// The HTTP edge's headers of a decision live with the errors that carry refusals (no import cycle).
export { rateLimitHeaders } from '@acme/platform-errors';
