import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { AppError } from '@acme/platform-errors';
import { RateLimitDecision, RateLimiter, rateLimitHeaders, WindowLimit } from '@acme/platform-rate-limiting';
import { RumEnv } from '../config/env';
import { accountOf, RumRequest } from '../http/request-context';
import { LimitClass, RUM_ROUTE, RumRouteOptions } from './rum-route.decorator';

/** Per-account, per-route fixed windows in Redis, so every instance counts against the same budget. */
@Injectable()
export class AccountRateLimitGuard implements CanActivate {
  private readonly logger = new Logger(AccountRateLimitGuard.name);
  private readonly windows: Record<LimitClass, WindowLimit[]>;

  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
    env: RumEnv,
  ) {
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

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.reflector.get<RumRouteOptions>(RUM_ROUTE, context.getHandler());
    const request = context.switchToHttp().getRequest<RumRequest>();
    let decision: RateLimitDecision;
    try {
      decision = await this.limiter.fixedWindows(`rum:account:${accountOf(request).id}:${route.name}`, this.windows[route.limit]);
    } catch (error) {
      // Redis unreachable: serve rather than refuse every call; /health reports the outage.
      this.logger.warn(`rate limiter unavailable: ${(error as Error).message}`);
      return true;
    }
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) throw new AppError('RATE_LIMITED', 'rate_limited', 'Request too frequently.', { headers });
    const response = context.switchToHttp().getResponse<Response>();
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    return true;
  }
}
