import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AccountsService } from '@acme/rum';
import { RumRequest } from '../http/request-context';

/** The ingest path authenticates with a per-application client token, never an app key. */
@Injectable()
export class ClientTokenGuard implements CanActivate {
  constructor(private readonly accounts: AccountsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RumRequest>();
    const token = request.headers['x-rum-client-token'];
    request.rumIngestTarget = await this.accounts.resolveClientToken(typeof token === 'string' ? token : undefined);
    return true;
  }
}
