import { Injectable } from '@nestjs/common';
import { AppError } from '@acme/platform-errors';
import { RateLimitPolicy, RateLimitTarget } from '@acme/platform-http';
import { RateLimitDecision, WindowLimit } from '@acme/platform-rate-limiting';
import { RumEnv } from '../config/env';
import { accountOf, RumRequest } from '../http/request-context';
import { LimitClass } from './rum-route.decorator';

/** Per-account, per-route fixed windows (`<limit class>/<route>`), so every instance counts against one budget. */
@Injectable()
export class AccountRateLimitPolicy extends RateLimitPolicy {
  private readonly windows: Record<LimitClass, WindowLimit[]>;

  constructor(env: RumEnv) {
    super();
    this.windows = {
      create: [
        { limit: env.RUM_CREATE_LIMIT_PER_SECOND, windowSeconds: 1 },
        { limit: env.RUM_CREATE_LIMIT_PER_MINUTE, windowSeconds: 60 },
      ],
      history: [
        { limit: env.RUM_HISTORY_LIMIT_PER_SECOND, windowSeconds: 1 },
        { limit: env.RUM_HISTORY_LIMIT_PER_MINUTE, windowSeconds: 60 },
      ],
    };
  }

  target(name: string, request: unknown): RateLimitTarget {
    const [limit, route] = name.split('/') as [LimitClass, string];
    return {
      key: `rum:account:${accountOf(request as RumRequest).id}:${route}`,
      rule: { fixedWindows: this.windows[limit] },
    };
  }

  refusal(_name: string, decision: RateLimitDecision): Error {
    return new AppError('RATE_LIMITED', 'rate_limited', 'Request too frequently.', { rateLimit: decision });
  }
}
