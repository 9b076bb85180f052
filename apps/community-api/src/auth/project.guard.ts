import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ProjectService } from '@acme/community';
import { CommunityRequest } from './community-request';

/** Resolves `:projectId` to the project (404 `project/not-found`) and attaches it to the request. */
@Injectable()
export class ProjectGuard implements CanActivate {
  constructor(private readonly projects: ProjectService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<CommunityRequest>();
    if (!request.project) request.project = await this.projects.getById(String(request.params['projectId'] ?? ''));
    return true;
  }
}
