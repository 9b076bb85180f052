import { Injectable } from '@nestjs/common';
import { AppError } from '@acme/platform-errors';
import { RateLimitPolicy, RateLimitTarget } from '@acme/platform-http';
import { RateLimitDecision } from '@acme/platform-rate-limiting';
import { MigrationEnv } from '../config/env';
import { PlatformErrorCode } from '../http/error-presenter';

/** One token bucket per workspace (`@RateLimit('workspace')`, after ServiceAuthGuard); off at rate 0. */
@Injectable()
export class WorkspaceRateLimitPolicy extends RateLimitPolicy {
  constructor(private readonly env: MigrationEnv) {
    super();
  }

  target(_name: string, request: unknown): RateLimitTarget | undefined {
    const rate = this.env.MIGRATION_RATE_LIMIT_PER_SECOND;
    if (rate === 0) return undefined;
    const { workspaceId } = request as { workspaceId?: string };
    return {
      key: `migration:workspace:${workspaceId}`,
      rule: { tokenBucket: { capacity: rate * 2, refillPerSecond: rate } },
    };
  }

  refusal(_name: string, decision: RateLimitDecision): Error {
    return new AppError(
      PlatformErrorCode.RATE_LIMITED,
      'rate_limited',
      'Too many requests for this workspace; retry later.',
      { rateLimit: decision },
    );
  }
}
