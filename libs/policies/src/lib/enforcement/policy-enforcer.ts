import { Injectable, Logger } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsRegistry } from '@acme/platform-observability';
import { InjectRedis, type RedisClient } from '@acme/platform-redis';
import { RateLimitDecision, RateLimitEnforcer } from '@acme/platform-rate-limiting';
import { EnforcedClient } from './enforceable-policy';
import { ExcessLogThrottle } from './excess-log-throttle';
import { EnforcementPolicyCache } from './policy-cache';
import { PolicyEnforcementSettings } from './policy-enforcement.settings';
import { ResolvedPolicy } from './policy-set';

/** What the token endpoint must do with a request after client authentication. */
export type EnforcementDecision =
  /** Issue the token; `limit` (block policies only) is the bucket the HTTP edge describes in X-RateLimit-*. */
  | { outcome: 'proceed'; policyId?: string; limit?: RateLimitDecision }
  /** 429 with an OAuth error body, Retry-After and X-RateLimit-* from `limit`. */
  | { outcome: 'reject'; policyId: string; limit: RateLimitDecision }
  /** 302 to the policy's redirect_uri. */
  | { outcome: 'redirect'; policyId: string; location: string };

const PROCEED: EnforcementDecision = Object.freeze({ outcome: 'proceed' });

/** Applies the rate-limit policy that governs a client to one token request. */
@Injectable()
export class PolicyEnforcer {
  private readonly logger = new Logger(PolicyEnforcer.name);
  private readonly excess: Counter<'policy_id' | 'action'>;
  private readonly excessLogs: ExcessLogThrottle;

  constructor(
    private readonly cache: EnforcementPolicyCache,
    private readonly limits: RateLimitEnforcer,
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
    this.excessLogs = new ExcessLogThrottle(redis);
  }

  async enforce(client: EnforcedClient): Promise<EnforcementDecision> {
    const resolved = this.cache.current().resolve(client);
    if (!resolved) return PROCEED;
    const configuration = resolved.policy.configuration;
    if (configuration.action === 'allow') return { outcome: 'proceed', policyId: resolved.policy.id };
    // limit 0 refuses every request without a counter, so it holds even while Redis is down (the enforcer's rule).
    const decision = await this.limits.decide('policy', {
      key: `policy:${resolved.bucketKey}`,
      rule: { tokenBucket: { capacity: configuration.limit, refillPerSecond: configuration.limit } },
      timeoutMs: this.settings.limiterTimeoutMs,
      // Large limits take a small batch per Redis call (≤ 1 % of the limit, 50 ms); small ones are exact.
      lease: true,
    });
    if (!decision) return PROCEED;
    const policyId = resolved.policy.id;
    if (configuration.action === 'block') {
      if (decision.allowed) return { outcome: 'proceed', policyId, limit: decision };
      this.excess.inc({ policy_id: policyId, action: 'block' });
      return { outcome: 'reject', policyId, limit: decision };
    }
    if (decision.allowed) return { outcome: 'proceed', policyId };
    this.excess.inc({ policy_id: policyId, action: configuration.action });
    if (configuration.action === 'redirect')
      return { outcome: 'redirect', policyId, location: configuration.redirect_uri };
    this.logExcess(resolved, client, configuration.limit);
    return { outcome: 'proceed', policyId };
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
