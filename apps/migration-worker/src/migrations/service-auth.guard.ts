import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { WorkspaceService } from '@acme/document-migration';

type AuthenticatedRequest = { headers: IncomingHttpHeaders; workspaceId?: string };

const header = (request: AuthenticatedRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};

/** Both `x-service-api-key` and `x-service-auth-token` are required; they name and prove the workspace. */
@Injectable()
export class ServiceAuthGuard implements CanActivate {
  constructor(private readonly workspaces: WorkspaceService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    request.workspaceId = await this.workspaces.authenticate(
      header(request, 'x-service-api-key'),
      header(request, 'x-service-auth-token'),
    );
    return true;
  }
}

export const WorkspaceId = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const workspaceId = context.switchToHttp().getRequest<AuthenticatedRequest>().workspaceId;
  if (!workspaceId) throw new Error('ServiceAuthGuard must run before @WorkspaceId()');
  return workspaceId;
});
