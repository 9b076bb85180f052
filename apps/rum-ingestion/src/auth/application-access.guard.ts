import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AccountsService } from '@acme/rum';
import { APPLICATION_ID_PATTERN } from '../ingestion-rules/dto/rule-fields.request.dto';
import { accountOf, RumRequest } from '../http/request-context';
import { RUM_ROUTE, RumRouteOptions } from './rum-route.decorator';

/**
 * A valid key without the route's access to the application is Unauthorized 403 (an unknown application
 * too, so ids cannot be probed). A malformed or missing id is left to validation (InvalidParameter 400).
 */
@Injectable()
export class ApplicationAccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly accounts: AccountsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.reflector.get<RumRouteOptions>(RUM_ROUTE, context.getHandler());
    const request = context.switchToHttp().getRequest<RumRequest>();
    const body = request.body as Record<string, unknown> | undefined;
    const applicationId = body && typeof body === 'object' ? body['application_id'] : undefined;
    if (typeof applicationId === 'string' && APPLICATION_ID_PATTERN.test(applicationId)) {
      await this.accounts.requireAccess(applicationId, accountOf(request).id, route.access);
    }
    return true;
  }
}
