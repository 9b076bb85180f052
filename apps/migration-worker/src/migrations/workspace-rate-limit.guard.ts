import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from '@acme/platform-errors';
import { RateLimitDecision, RateLimiter, rateLimitHeaders } from '@acme/platform-rate-limiting';
import { MigrationEnv } from '../config/env';
import { PlatformErrorCode } from '../http/error-presenter';

/** Per-workspace token bucket shared by all instances; runs after ServiceAuthGuard. Fails open if Redis is away. */
@Injectable()
export class WorkspaceRateLimitGuard implements CanActivate {
  private readonly logger = new Logger(WorkspaceRateLimitGuard.name);

  constructor(
    private readonly limiter: RateLimiter,
    private readonly env: MigrationEnv,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rate = this.env.MIGRATION_RATE_LIMIT_PER_SECOND;
    if (rate === 0) return true;
    const http = context.switchToHttp();
    const workspaceId = http.getRequest<Request & { workspaceId?: string }>().workspaceId;
    let decision: RateLimitDecision;
    try {
      decision = await this.limiter.tokenBucket(`migration:workspace:${workspaceId}`, { capacity: rate * 2, refillPerSecond: rate });
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'Rate limiter unavailable; allowing the request');
      return true;
    }
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) throw new AppError(PlatformErrorCode.RateLimited, 'rate_limited', 'Too many requests for this workspace; retry later.', { headers });
    const response = http.getResponse<Response>();
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    return true;
  }
}
