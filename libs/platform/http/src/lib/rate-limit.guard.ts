import {
  CanActivate,
  DynamicModule,
  ExecutionContext,
  Injectable,
  Logger,
  Module,
  SetMetadata,
  Type,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Counter } from 'prom-client';
import { MetricsRegistry } from '@acme/platform-observability';
import {
  RateLimitDecision,
  RateLimiter,
  rateLimitHeaders,
  RateLimitingModule,
  TokenBucketLimit,
  WindowLimit,
} from '@acme/platform-rate-limiting';
import { setResponseHeaders } from './http-platform';

const RATE_LIMIT = 'acme:rate-limit';

/** Limits a route (or every route of a controller) by the app's RateLimitPolicy under `name`. */
export const RateLimit = (name: string) => SetMetadata(RATE_LIMIT, name);

export type RateLimitRule = { tokenBucket: TokenBucketLimit } | { fixedWindows: WindowLimit[] };

export interface RateLimitTarget {
  /** The bucket, shared by every instance through Redis. */
  key: string;
  rule: RateLimitRule;
}

/** What an app supplies: the bucket and limits of a named limit for a request, and its refusal error. */
export abstract class RateLimitPolicy {
  /** undefined lets the request through unlimited (a limit configured off). */
  abstract target(name: string, request: unknown): RateLimitTarget | undefined;
  /** The error a refused request answers, in the app's shape; it must carry `headers` (Retry-After...). */
  abstract refusal(name: string, headers: Record<string, string>): Error;
}

/**
 * Spends one unit of the request's bucket and sets the X-RateLimit-* headers (docs/decisions.md#rate-limiting).
 * When Redis is unavailable the request goes through (fail open), counted and logged; `undefined` then.
 */
@Injectable()
export class RateLimitEnforcer {
  private readonly logger = new Logger('RateLimit');
  private readonly failOpen: Counter;

  constructor(
    private readonly limiter: RateLimiter,
    registry: MetricsRegistry,
  ) {
    this.failOpen =
      (registry.getSingleMetric('http_rate_limit_fail_open_total') as Counter | undefined) ??
      new Counter({
        name: 'http_rate_limit_fail_open_total',
        help: 'Requests let through unlimited because the limiter (Redis) was unavailable',
        labelNames: ['limit'],
        registers: [registry],
      });
  }

  async decide(name: string, target: RateLimitTarget): Promise<RateLimitDecision | undefined> {
    try {
      return 'tokenBucket' in target.rule
        ? await this.limiter.tokenBucket(target.key, target.rule.tokenBucket)
        : await this.limiter.fixedWindows(target.key, target.rule.fixedWindows);
    } catch (error) {
      this.failOpen.inc({ limit: name });
      this.logger.warn(
        { event: 'rate_limit_fail_open', limit: name, reason: (error as Error).message },
        'rate limiter unavailable; allowing the request',
      );
      return undefined;
    }
  }
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
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) throw this.policy.refusal(name, headers);
    setResponseHeaders(http.getResponse(), headers);
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
      providers: [{ provide: RateLimitPolicy, useClass: policy }, RateLimitEnforcer, RateLimitGuard],
      exports: [RateLimitPolicy, RateLimitEnforcer, RateLimitGuard, RateLimitingModule],
    };
  }
}
