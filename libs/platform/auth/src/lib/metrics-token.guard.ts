import { CanActivate, ExecutionContext, Injectable, Optional } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { AppError, PlatformErrorCode } from '@acme/platform-errors';
import { bearerToken } from './admin-token.guard';
import { safeEqual } from './secrets';

/** DI token carrying METRICS_TOKEN; `undefined` leaves /metrics open (a private network's scraper). */
export abstract class MetricsTokenSettings {
  abstract readonly metricsToken?: string;
}

/**
 * Guards `/metrics` when a token is configured: 401 (in the API's shape, with `WWW-Authenticate: Bearer`) without
 * `Authorization: Bearer $METRICS_TOKEN` (docs/decisions.md#client-addresses-and-the-operator-surface).
 */
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  // Optional: a module that mounts /metrics without the service kernel (a lib's own test) serves it open.
  constructor(@Optional() private readonly settings?: MetricsTokenSettings) {}

  canActivate(context: ExecutionContext): boolean {
    const expected = this.settings?.metricsToken;
    if (!expected) return true;
    const http = context.switchToHttp();
    const presented = bearerToken(http.getRequest<{ headers: IncomingHttpHeaders }>());
    if (presented && safeEqual(presented, expected)) return true;
    // The challenge goes on the response itself (errors carry no headers); both engines' responses have header().
    http
      .getResponse<{ header(name: string, value: string): unknown }>()
      .header('WWW-Authenticate', 'Bearer realm="metrics"');
    // The operator-credential code: each API renders it in its own shape (admin/unauthorized, unauthorized...).
    throw new AppError(PlatformErrorCode.ADMIN_UNAUTHORIZED, 'unauthorized', 'A valid metrics token is required.');
  }
}
