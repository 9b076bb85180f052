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

/** The password of an HTTP Basic `Authorization` header (the user name is not checked), as browsers send it. */
export function basicPassword(request: { headers: IncomingHttpHeaders }): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/]+=*)\s*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

/** Guards `/admin/v1`: hidden (404) when no ADMIN_TOKEN is configured, 401 without the right bearer. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(private readonly settings: AdminTokenSettings) {}

  canActivate(context: ExecutionContext): boolean {
    this.check(context.switchToHttp().getRequest<{ headers: IncomingHttpHeaders }>());
    return true;
  }

  /**
   * The same rule for routes Nest does not guard (bull-board's middleware); throws the AppError to answer. With
   * `basic`, the token may also come as an HTTP Basic password, so a browser can open a page (and its assets).
   */
  check(request: { headers: IncomingHttpHeaders }, options: { basic?: boolean } = {}): void {
    const expected = this.settings.adminToken;
    if (!expected) throw new AppError(PlatformErrorCode.ROUTE_NOT_FOUND, 'not_found', 'Not Found');
    const presented = bearerToken(request) ?? (options.basic ? basicPassword(request) : undefined);
    if (!presented || !safeEqual(presented, expected)) {
      throw new AppError(PlatformErrorCode.ADMIN_UNAUTHORIZED, 'unauthorized', 'A valid operator token is required.');
    }
  }
}
