import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { bearerToken } from '@acme/platform-auth';
import { RouteMetadata } from '@acme/platform-http';
import { AppError } from '@acme/platform-errors';
import { CallerKind, CallerResolver, CommunityErrors } from '@acme/community';
import { CommunityRequest } from './community-request';

/** Which callers a route accepts, and optionally one error for every refusal (the push device route's 401). */
export interface CallerRule {
  kinds: CallerKind[];
  rejectAs?: () => AppError;
  /** No credentials is fine (the route runs without a caller); credentials sent are checked as usual. */
  optional?: boolean;
}

export const CALLER_RULE = 'community:caller-rule';

/**
 * Runs after `ProjectGuard`. No credentials: 401 `auth/unauthorized` (on an optional route: no caller); a bad or
 * expired token or a key of another project: 403 `auth/forbidden`; a valid caller of a kind the route does not
 * accept: 403 too.
 */
@Injectable()
export class CallerGuard implements CanActivate {
  private readonly rules: RouteMetadata<CallerRule>;

  constructor(
    reflector: Reflector,
    private readonly callers: CallerResolver,
  ) {
    this.rules = new RouteMetadata(reflector, CALLER_RULE);
  }

  canActivate(context: ExecutionContext): boolean {
    const rule = this.rules.of(context);
    if (!rule) return true;
    const request = context.switchToHttp().getRequest<CommunityRequest>();
    if (!request.project) throw new Error('CallerGuard needs ProjectGuard before it');
    try {
      const caller = this.callers.resolve(request.project, bearerToken(request));
      if (!caller && rule.optional) return true;
      if (!caller) throw CommunityErrors.unauthorized();
      if (!rule.kinds.includes(caller.kind))
        throw CommunityErrors.forbidden(`This route does not accept a ${caller.kind} credential.`);
      request.caller = caller;
      return true;
    } catch (error) {
      throw rule.rejectAs && error instanceof AppError ? rule.rejectAs() : error;
    }
  }
}
