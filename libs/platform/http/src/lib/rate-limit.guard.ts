import { CanActivate, DynamicModule, ExecutionContext, Injectable, Module, SetMetadata, Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  RateLimitDecision,
  RateLimitEnforcer,
  rateLimitHeaders,
  RateLimitingModule,
  RateLimitTarget,
} from '@acme/platform-rate-limiting';
import { setResponseHeaders } from './http-platform';

export type { RateLimitRule, RateLimitTarget } from '@acme/platform-rate-limiting';

const RATE_LIMIT = 'acme:rate-limit';

/** Limits a route (or every route of a controller) by the app's RateLimitPolicy under `name`. */
export const RateLimit = (name: string) => SetMetadata(RATE_LIMIT, name);

/** What an app supplies: the bucket and limits of a named limit for a request, and its refusal error. */
export abstract class RateLimitPolicy {
  /** undefined lets the request through unlimited (a limit configured off). */
  abstract target(name: string, request: unknown): RateLimitTarget | undefined;
  /**
   * The error a refused request answers, in the app's shape: an AppError carrying `rateLimit: decision`, from
   * which the exception filter sets Retry-After and X-RateLimit-*.
   */
  abstract refusal(name: string, decision: RateLimitDecision): Error;
}

/** The guard of every limited route: `@RateLimit(name)` on the handler or its controller, the app's policy. */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly enforcer: RateLimitEnforcer,
    private readonly policy: RateLimitPolicy,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const name = this.reflector.getAllAndOverride<string | undefined>(RATE_LIMIT, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!name) return true;
    const http = context.switchToHttp();
    const target = this.policy.target(name, http.getRequest());
    if (!target) return true;
    const decision = await this.enforcer.decide(name, target);
    if (!decision) return true;
    if (!decision.allowed) throw this.policy.refusal(name, decision);
    setResponseHeaders(http.getResponse(), rateLimitHeaders(decision));
    return true;
  }
}

/** The limiter, enforcer and guard with the app's policy (`@UseGuards(RateLimitGuard)` where limited). */
@Module({})
export class RateLimitModule {
  static withPolicy(policy: Type<RateLimitPolicy>): DynamicModule {
    return {
      module: RateLimitModule,
      imports: [RateLimitingModule],
      providers: [{ provide: RateLimitPolicy, useClass: policy }, RateLimitGuard],
      exports: [RateLimitPolicy, RateLimitGuard, RateLimitingModule],
    };
  }
}
