import { Injectable, Logger, NestMiddleware } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { AppError } from '@acme/platform-errors';
import { RateLimiter, rateLimitHeaders } from '@acme/platform-rate-limiting';
import { AccessTokenVerifier, ManagementRequest } from './management-auth';

/** The management API's own bucket (per client, shared by all instances through Redis). */
export abstract class ManagementRateLimitSettings {
  abstract readonly perSecond: number;
  abstract readonly burst: number;
}

export const TOO_MANY_REQUESTS_MESSAGE =
  'Too many requests. Check the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers.';

/**
 * Runs before every /api/v2 route (unknown ones included): verifies the token once, then spends one token
 * of the caller's bucket and sets the X-RateLimit-* headers. Unauthenticated calls share a bucket per IP.
 * Authentication failures are raised by the guard, so a flood of bad tokens is limited too.
 */
@Injectable()
export class ManagementGateMiddleware implements NestMiddleware {
  private readonly logger = new Logger(ManagementGateMiddleware.name);

  constructor(
    private readonly tokens: AccessTokenVerifier,
    private readonly limiter: RateLimiter,
    private readonly limits: ManagementRateLimitSettings,
  ) {}

  async use(request: ManagementRequest, response: ServerResponse, next: (error?: unknown) => void): Promise<void> {
    const outcome = this.tokens.authenticate(request);
    request.managementAuth = outcome;
    const key = outcome.principal ? `mgmt:client:${outcome.principal.clientId}` : `mgmt:ip:${request.ip ?? 'unknown'}`;
    let decision;
    try {
      decision = await this.limiter.tokenBucket(key, { capacity: this.limits.burst, refillPerSecond: this.limits.perSecond });
    } catch (error) {
      // Redis down: serve the request rather than fail every call (fail open), and say so.
      this.logger.warn(`Management rate limit unavailable: ${(error as Error).message}`);
      return next();
    }
    const headers = rateLimitHeaders(decision);
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    // Handed to the engine's error path (not thrown), so the 429 goes through the same filter and hooks as any error.
    if (!decision.allowed) return next(new AppError('TOO_MANY_REQUESTS', 'rate_limited', TOO_MANY_REQUESTS_MESSAGE, { headers }));
    next();
  }
}
