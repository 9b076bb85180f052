import { Injectable } from '@nestjs/common';
import { AppError, PlatformErrorCode } from '@acme/platform-errors';
import { RateLimitPolicy, RateLimitTarget } from '@acme/platform-http';
import type { RateLimitDecision } from '@acme/platform-rate-limiting';
import { CommunityEnv } from '../config/env';
import { CommunityRequest } from '../auth/community-request';

/** Limits named by `@RateLimit(...)` on community routes. */
export const SIGN_UP_LIMIT = 'sign-up';

/**
 * Sign-up is limited per project and client address (docs/decisions.md#client-addresses-and-the-operator-surface). There is no
 * project-wide ceiling on purpose: anyone with many addresses could spend it and lock real users out; the instance
 * itself is protected by the bounded password-hashing queue.
 */
@Injectable()
export class CommunityRateLimitPolicy extends RateLimitPolicy {
  constructor(private readonly env: CommunityEnv) {
    super();
  }

  target(_name: string, request: unknown): RateLimitTarget {
    const { params, ip } = request as CommunityRequest;
    return {
      key: `community:sign-up:${params['projectId']}:${ip ?? 'unknown'}`,
      rule: {
        fixedWindows: [
          { limit: this.env.SIGN_UPS_PER_ADDRESS_PER_MINUTE, windowSeconds: 60 },
          { limit: this.env.SIGN_UPS_PER_ADDRESS_PER_HOUR, windowSeconds: 3600 },
        ],
      },
    };
  }

  refusal(_name: string, decision: RateLimitDecision): Error {
    return new AppError(PlatformErrorCode.RATE_LIMITED, 'rate_limited', 'Too many sign-ups; try again later.', {
      rateLimit: decision,
    });
  }
}
