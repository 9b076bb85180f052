import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { AccountsService, AuditService } from '@acme/rum';
import { RumRequest, requestIdOf } from '../http/request-context';
import { onResponseFinished } from '@acme/platform-http';
import { safeErrorMessage } from '@acme/platform-observability';

const RESULT_BY_STATUS: Record<number, string> = {
  400: 'InvalidParameter',
  401: 'Unauthorized',
  403: 'Unauthorized',
  404: 'InvalidParameter',
  413: 'InvalidParameter',
  429: 'RequestTooFrequently',
};

export function resultOf(status: number): string {
  if (status < 400) return 'Success';
  return RESULT_BY_STATUS[status] ?? 'InternalError';
}

/**
 * Resolves `app_key` (query) to its account, or fails with Unauthorized 401. From then on the call is
 * written to that account's audit log when the response is finished, whatever its outcome.
 */
@Injectable()
export class AppKeyGuard implements CanActivate {
  private readonly logger = new Logger(AppKeyGuard.name);

  constructor(
    private readonly accounts: AccountsService,
    private readonly audit: AuditService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RumRequest>();
    const appKey = request.query['app_key'];
    const account = await this.accounts.authenticate(typeof appKey === 'string' ? appKey : undefined);
    request.rumAccount = account;
    const body = request.body as Record<string, unknown> | undefined;
    const applicationId =
      body && typeof body === 'object' && typeof body['application_id'] === 'string'
        ? body['application_id']
        : undefined;
    onResponseFinished(context.switchToHttp().getResponse<object>(), (status) => {
      this.audit
        .record({
          accountId: account.id,
          appKeyId: account.appKeyId,
          method: request.method,
          route: request.url.split('?')[0],
          applicationId,
          status,
          result: resultOf(status),
          requestId: requestIdOf(request),
          request: { query: request.query, body: request.body },
        })
        .catch((error: Error) => this.logger.warn(`audit write failed: ${safeErrorMessage(error)}`));
    });
    return true;
  }
}
