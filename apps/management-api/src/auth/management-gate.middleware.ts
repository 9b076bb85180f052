import { Injectable, NestMiddleware } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { AppError } from '@acme/platform-errors';
import { TOO_MANY_REQUESTS_MESSAGE } from '@acme/oauth';
import { RateLimitPolicy, RateLimitTarget, setResponseHeaders } from '@acme/platform-http';
import { RateLimitDecision, RateLimitEnforcer, rateLimitHeaders } from '@acme/platform-rate-limiting';
import { ManagementErrorCode } from '../http/management-error-code';
import { ManagementEnv } from '../config/env';
import { AccessTokenVerifier, ManagementRequest } from './management-auth';

/** The management API's own bucket: per client, or per IP before authentication, shared by all instances. */
@Injectable()
export class ManagementRateLimitPolicy extends RateLimitPolicy {
  private readonly perSecond: number;
  private readonly burst: number;

  constructor(env: ManagementEnv) {
    super();
    this.perSecond = env.MANAGEMENT_RATE_LIMIT_PER_SECOND;
    this.burst = env.MANAGEMENT_RATE_LIMIT_BURST ?? env.MANAGEMENT_RATE_LIMIT_PER_SECOND;
  }

  target(_name: string, request: unknown): RateLimitTarget {
    const { managementAuth, ip } = request as ManagementRequest;
    const key = managementAuth?.principal
      ? `mgmt:client:${managementAuth.principal.clientId}`
      : `mgmt:ip:${ip ?? 'unknown'}`;
    return { key, rule: { tokenBucket: { capacity: this.burst, refillPerSecond: this.perSecond } } };
  }

  refusal(_name: string, decision: RateLimitDecision): Error {
    return new AppError(ManagementErrorCode.TOO_MANY_REQUESTS, 'rate_limited', TOO_MANY_REQUESTS_MESSAGE, {
      rateLimit: decision,
    });
  }
}

/**
 * Runs before every /api/v2 route, unknown ones included (which no guard would reach): verifies the token once,
 * then spends one token of the caller's bucket through the platform's enforcer (same headers, fail-open rule and
 * metric as `@RateLimit` routes). Authentication failures are raised by the guard, so a flood of bad tokens is
 * limited too.
 */
@Injectable()
export class ManagementGateMiddleware implements NestMiddleware {
  constructor(
    private readonly tokens: AccessTokenVerifier,
    private readonly enforcer: RateLimitEnforcer,
    private readonly policy: RateLimitPolicy,
  ) {}

  async use(request: ManagementRequest, response: ServerResponse, next: (error?: unknown) => void): Promise<void> {
    request.managementAuth = this.tokens.authenticate(request);
    const target = this.policy.target('management', request);
    const decision = target && (await this.enforcer.decide('management', target));
    if (!decision) return next();
    // Handed to the engine's error path (not thrown), so the 429 goes through the same filter and hooks as any error.
    if (!decision.allowed) return next(this.policy.refusal('management', decision));
    setResponseHeaders(response, rateLimitHeaders(decision));
    next();
  }
}
