import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { AppError, PlatformErrorCode } from '@acme/platform-errors';
import { safeEqual } from './secrets';

/** DI token carrying the operator token; `undefined` disables the operator API. */
export abstract class AdminTokenSettings {
  abstract readonly adminToken?: string;
}

export function bearerToken(request: { headers: IncomingHttpHeaders }): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Guards `/admin/v1`: hidden (404) when no ADMIN_TOKEN is configured, 401 without the right bearer. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(private readonly settings: AdminTokenSettings) {}

  canActivate(context: ExecutionContext): boolean {
    this.check(context.switchToHttp().getRequest<{ headers: IncomingHttpHeaders }>());
    return true;
  }

  /** The same rule for routes Nest does not guard (bull-board's middleware); throws the AppError to answer. */
  check(request: { headers: IncomingHttpHeaders }): void {
    const expected = this.settings.adminToken;
    if (!expected) throw new AppError(PlatformErrorCode.RouteNotFound, 'not_found', 'Not Found');
    const presented = bearerToken(request);
    if (!presented || !safeEqual(presented, expected)) {
      throw new AppError(PlatformErrorCode.AdminUnauthorized, 'unauthorized', 'A valid operator token is required.');
    }
  }
}
