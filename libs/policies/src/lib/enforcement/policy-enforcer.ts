import { Injectable, Logger } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsRegistry } from '@acme/platform-observability';
import { InjectRedis, type RedisClient } from '@acme/platform-redis';
import { RateLimitDecision, RateLimiter, rateLimitHeaders } from '@acme/platform-rate-limiting';
import { EnforcedClient } from './enforceable-policy';
import { ExcessLogThrottle } from './excess-log-throttle';
import { EnforcementPolicyCache } from './policy-cache';
import { PolicyEnforcementSettings } from './policy-enforcement.settings';
import { ResolvedPolicy } from './policy-set';

/** What the token endpoint must do with a request after client authentication. */
export type EnforcementDecision =
  /** Issue the token; `headers` (block policies only) describe the bucket. */
  | { outcome: 'proceed'; policyId?: string; headers: Record<string, string> }
  /** 429 with an OAuth error body; `headers` include Retry-After and the three X-RateLimit-*. */
  | { outcome: 'reject'; policyId: string; headers: Record<string, string> }
  /** 302 to the policy's redirect_uri. */
  | { outcome: 'redirect'; policyId: string; location: string };

const PROCEED: EnforcementDecision = Object.freeze({
  outcome: 'proceed',
  headers: Object.freeze({}) as Record<string, string>,
});

/** Applies the rate-limit policy that governs a client to one token request. */
@Injectable()
export class PolicyEnforcer {
  private readonly logger = new Logger(PolicyEnforcer.name);
  private readonly excess: Counter<'policy_id' | 'action'>;
  private readonly failOpen: Counter;
  private readonly excessLogs: ExcessLogThrottle;
  private lastFailOpenLog = 0;
  private failOpenSinceLog = 0;

  constructor(
    private readonly cache: EnforcementPolicyCache,
    private readonly limiter: RateLimiter,
    @InjectRedis() private readonly redis: RedisClient,
    private readonly settings: PolicyEnforcementSettings,
    registry: MetricsRegistry,
  ) {
    this.excess = new Counter({
      name: 'oauth_rate_limit_policy_excess_total',
      help: 'Token requests over the limit of a rate-limit policy, by policy id and action',
      labelNames: ['policy_id', 'action'],
      registers: [registry],
    });
    this.failOpen = new Counter({
      name: 'oauth_rate_limit_policy_fail_open_total',
      help: 'Token requests let through unlimited because the limiter (Redis) was unavailable',
      registers: [registry],
    });
    this.excessLogs = new ExcessLogThrottle(redis);
  }

  async enforce(client: EnforcedClient): Promise<EnforcementDecision> {
    const resolved = this.cache.current().resolve(client);
    if (!resolved) return PROCEED;
    const configuration = resolved.policy.configuration;
    if (configuration.action === 'allow') return { outcome: 'proceed', policyId: resolved.policy.id, headers: {} };
    const decision = await this.take(resolved, configuration.limit);
    if (!decision) return PROCEED;
    const policyId = resolved.policy.id;
    if (configuration.action === 'block') {
      const headers = rateLimitHeaders(decision);
      if (decision.allowed) return { outcome: 'proceed', policyId, headers };
      this.excess.inc({ policy_id: policyId, action: 'block' });
      return { outcome: 'reject', policyId, headers };
    }
    if (decision.allowed) return { outcome: 'proceed', policyId, headers: {} };
    this.excess.inc({ policy_id: policyId, action: configuration.action });
    if (configuration.action === 'redirect')
      return { outcome: 'redirect', policyId, location: configuration.redirect_uri };
    this.logExcess(resolved, client, configuration.limit);
    return { outcome: 'proceed', policyId, headers: {} };
  }

  /** One bucket decision; `undefined` means the limiter is unavailable and the request proceeds (fail open). */
  private async take(resolved: ResolvedPolicy, limit: number): Promise<RateLimitDecision | undefined> {
    // limit 0 refuses every request; it needs no counter, so it holds even while Redis is down.
    if (limit <= 0)
      return { allowed: false, limit: 0, remaining: 0, resetAt: Math.ceil(Date.now() / 1000), retryAfterSeconds: 1 };
    try {
      // Refused at once while Redis is not connected, and bounded by the timeout when it is slow.
      return await this.limiter.tokenBucket(
        `policy:${resolved.bucketKey}`,
        { capacity: limit, refillPerSecond: limit },
        { timeoutMs: this.settings.limiterTimeoutMs },
      );
    } catch (error) {
      return this.failedOpen(error as Error);
    }
  }

  private failedOpen(error: Error): undefined {
    this.failOpen.inc();
    this.failOpenSinceLog += 1;
    const now = Date.now();
    if (now - this.lastFailOpenLog >= 10_000) {
      this.logger.warn({
        event: 'rate_limit_policy_fail_open',
        requests: this.failOpenSinceLog,
        reason: error.message,
        msg: 'Rate-limit policies not enforced: the limiter is unavailable, token requests proceed unlimited',
      });
      this.lastFailOpenLog = now;
      this.failOpenSinceLog = 0;
    }
    return undefined;
  }

  private logExcess(resolved: ResolvedPolicy, client: EnforcedClient, limit: number): void {
    const policyId = resolved.policy.id;
    void this.excessLogs.claim(policyId, client.clientId).then((claimed) => {
      if (!claimed) return;
      this.logger.warn({
        event: 'rate_limit_policy_exceeded',
        policy_id: policyId,
        client_id: client.clientId,
        consumer_selector: resolved.policy.consumerSelector,
        action: 'log',
        limit,
        msg: `Client ${client.clientId} exceeded rate-limit policy ${policyId} (${limit}/s); request allowed (action log)`,
      });
    });
  }
}
